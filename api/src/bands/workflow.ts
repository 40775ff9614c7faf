import type { Caller } from '../access/caller.js';
import { defineWorkflow } from '../workflow/definition.js';

/** What the approval guards read of a band set: the approvers it waits for now (approvals.ts). */
export interface AwaitingApprovers {
  awaiting: readonly string[];
}

const byAwaitedApprover = (actor: Caller, set: AwaitingApprovers): true | string => set.awaiting.includes(actor.userId) || 'This band set is not waiting for your approval.';
const EDIT = { permission: 'bands', authority: 'edit', scope: 'all' } as const;
const VIEW = { permission: 'bands', authority: 'view' } as const;

/**
 * A band set's life: a draft is published to live; publishing another draft archives the live one
 * (both in the publishing transaction, each with its history row). Where the workflow settings name
 * approvers, publishing submits the draft instead: it waits in `pendingApproval` for each approver in
 * order (`recordApproval` keeps it waiting, the last `approve` makes it live), and a rejection sends
 * it back to draft with the reason; its authors (bands edit over all zones) may withdraw it to draft meanwhile. A draft can instead be published to a merit cycle (`cycle`), which
 * archives the set that cycle had; with approvers it waits for them the same way, and the last
 * approval publishes it to the cycle (`approveToCycle`). Archived sets stay readable and can be duplicated into a new draft.
 */
export const bandSetWorkflow = defineWorkflow({
  name: 'bandSet',
  subject: 'band set',
  states: ['draft', 'pendingApproval', 'live', 'cycle', 'archived'],
  labels: { pendingApproval: 'pending approval', cycle: 'published to a merit cycle' },
  initial: 'draft',
  transitions: [
    { action: 'publish', from: ['draft'], to: 'live', pastTense: 'published', permission: EDIT },
    { action: 'submit', from: ['draft'], to: 'pendingApproval', pastTense: 'submitted for approval', permission: EDIT },
    { action: 'recordApproval', from: ['pendingApproval'], to: 'pendingApproval', pastTense: 'approved', permission: VIEW, guard: byAwaitedApprover },
    { action: 'approve', from: ['pendingApproval'], to: 'live', pastTense: 'approved', permission: VIEW, guard: byAwaitedApprover },
    // The last approval of a submission to a merit cycle publishes it to that cycle.
    { action: 'approveToCycle', from: ['pendingApproval'], to: 'cycle', pastTense: 'approved', permission: VIEW, guard: byAwaitedApprover },
    { action: 'reject', from: ['pendingApproval'], to: 'draft', pastTense: 'rejected', permission: VIEW, guard: byAwaitedApprover, needsComment: true },
    // Its authors can take a submission back (a change to make, an approver away): back to draft, the approvers no longer wait.
    { action: 'withdraw', from: ['pendingApproval'], to: 'draft', pastTense: 'withdrawn', permission: EDIT },
    // A draft published to a merit cycle serves that cycle only; the live set stays as it is.
    { action: 'publishToCycle', from: ['draft'], to: 'cycle', pastTense: 'published to a merit cycle', permission: EDIT },
    { action: 'archive', from: ['live', 'cycle'], to: 'archived', pastTense: 'archived', permission: EDIT },
  ],
});

/** What the history names band sets by. */
export const BAND_SET_SUBJECT = 'bandSet';
