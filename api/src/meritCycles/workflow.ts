import type { Caller } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { defineWorkflow } from '../workflow/definition.js';

const WHOLE_COMPANY = { permission: 'compensationPlanning', authority: 'edit', scope: 'all' } as const;
const PLANNERS = { permission: 'compensationPlanning', authority: 'edit' } as const;

/** Whole-company planners may act for anyone (a planner away, an empty chain). */
export const plansWholeCompany = (actor: Caller): boolean => hasPermission(actor.permissions, 'compensationPlanning', 'edit', 'all');

/**
 * A cycle's life: set up as a draft, launched (rows, budgets and worksheets computed; planning
 * open), closed once every worksheet is approved (pay written), or cancelled with a reason.
 */
export const meritCycleWorkflow = defineWorkflow({
  name: 'meritCycle',
  subject: 'cycle',
  states: ['draft', 'active', 'closed', 'cancelled'],
  initial: 'draft',
  transitions: [
    { action: 'launch', from: ['draft'], to: 'active', pastTense: 'launched', permission: WHOLE_COMPANY },
    { action: 'close', from: ['active'], to: 'closed', pastTense: 'closed', permission: WHOLE_COMPANY },
    { action: 'cancel', from: ['draft', 'active'], to: 'cancelled', pastTense: 'cancelled', permission: WHOLE_COMPANY, needsComment: true },
  ],
});

export type MeritCycleAction = 'launch' | 'close' | 'cancel';

/** What the worksheet guards need to know besides the state. */
export interface WorksheetGuardFacts {
  plannerUserId: string | null;
  /** Whose turn it is in review (null: an empty chain, whole-company planners review). */
  currentReviewerUserId: string | null;
  /** The caller plans the worksheet above (for pulling this one up). */
  callerPlansParent: boolean;
  /** The caller's own row is on the worksheet (nobody approves their own pay). */
  callerRowHere: boolean;
  /** The cycle's owner: named as the reviewer when nobody of the chain may review (meritCycles/reviewers.ts). */
  ownerUserId: string | null;
}

const reviewerGuard = (actor: Caller, worksheet: WorksheetGuardFacts): boolean | string => {
  // Submission names the owner only when nobody else may review (a chain skips whoever may not): the
  // owner then reviews even their own worksheet or pay, recorded in the history, so the cycle can close.
  if (worksheet.currentReviewerUserId === actor.userId && actor.userId === worksheet.ownerUserId) return true;
  if (worksheet.plannerUserId && actor.userId === worksheet.plannerUserId) return 'A planner cannot review their own worksheet.';
  if (worksheet.callerRowHere) return 'Your own pay is on this worksheet; another reviewer reviews it.';
  if (worksheet.currentReviewerUserId === actor.userId) return true;
  if (plansWholeCompany(actor)) return true;
  return worksheet.currentReviewerUserId ? 'It is another reviewer’s turn to review this worksheet.' : 'Only whole-company planners review a worksheet without an approval chain.';
};

/**
 * A worksheet's review: the planner submits it to its approval chain; each reviewer in turn
 * approves (the last approval approves the worksheet) or sends it back with a comment; a sent-back
 * worksheet is planned again and resubmitted; an approved one is reopened only by whole-company
 * planners, with a comment. A manager may pull a report manager's worksheet up into their own.
 */
export const worksheetWorkflow = defineWorkflow({
  name: 'meritWorksheet',
  subject: 'worksheet',
  states: ['planning', 'in_review', 'sent_back', 'approved', 'pulled_up'],
  labels: { in_review: 'in-review', sent_back: 'sent-back', pulled_up: 'pulled-up' },
  initial: 'planning',
  transitions: [
    {
      action: 'submit',
      from: ['planning', 'sent_back'],
      to: 'in_review',
      pastTense: 'submitted',
      permission: PLANNERS,
      guard: (actor: Caller, worksheet: WorksheetGuardFacts) => actor.userId === worksheet.plannerUserId || plansWholeCompany(actor) || 'Only the worksheet’s planner submits it.',
    },
    { action: 'approveStep', from: ['in_review'], to: 'in_review', pastTense: 'approved', permission: PLANNERS, guard: reviewerGuard },
    { action: 'approve', from: ['in_review'], to: 'approved', pastTense: 'approved', permission: PLANNERS, guard: reviewerGuard },
    { action: 'sendBack', from: ['in_review'], to: 'sent_back', pastTense: 'sent back', permission: PLANNERS, guard: reviewerGuard, needsComment: true },
    { action: 'reopen', from: ['approved'], to: 'planning', pastTense: 'reopened', permission: WHOLE_COMPANY, needsComment: true },
    {
      action: 'pullUp',
      from: ['planning', 'sent_back'],
      to: 'pulled_up',
      pastTense: 'pulled up',
      permission: PLANNERS,
      guard: (actor: Caller, worksheet: WorksheetGuardFacts) => worksheet.callerPlansParent || plansWholeCompany(actor) || 'Only the planner of the worksheet above pulls this one up.',
    },
  ],
});

/** A worksheet's state after "is", as people say it ("The worksheet is in review."). */
export function worksheetStateInWords(state: string): string {
  const words: Record<string, string> = { planning: 'being planned', in_review: 'in review', sent_back: 'sent back', approved: 'approved', pulled_up: 'pulled up' };
  return words[state] ?? state.replace(/_/g, ' ');
}

export const MERIT_CYCLE_SUBJECT = 'meritCycle';
export const WORKSHEET_SUBJECT = 'meritWorksheet';
