import type { Caller } from '../access/caller.js';
import { defineWorkflow, type StateOf } from '../workflow/definition.js';

/** Who acts for the candidate (by their link) or for the product (expiry) in an offer's history. */
export const CANDIDATE_ACTOR = 'candidate:';
export const SYSTEM_ACTOR = 'system:offers';

const EDIT = { permission: 'offers', authority: 'edit' } as const;
const VIEW = { permission: 'offers', authority: 'view' } as const;

const byCandidate = (actor: Caller): true | string => actor.userId.startsWith(CANDIDATE_ACTOR) || 'Only the candidate can answer an offer.';
const bySystem = (actor: Caller): true | string => actor.userId === SYSTEM_ACTOR || 'An offer expires on its own, at the end of its expiry date.';

/** What the approve and reject guards read of the offer: the approvers it waits for now. */
export interface AwaitingApprovers {
  awaiting: readonly string[];
}

const byAwaitedApprover = (actor: Caller, offer: AwaitingApprovers): true | string =>
  offer.awaiting.includes(actor.userId) || 'This offer is not waiting for your approval.';

/**
 * An offer's life. A draft is submitted: to pending approval when it is out of range and a rule
 * names approvers, else straight to approved (`clear`). Approvers approve in order or N of M (the
 * intermediate ones are `recordApproval`, which keeps it pending); a rejection sends it back to draft.
 * An approved offer is sent; the candidate's first read opens it; they accept or decline. Editing a
 * pending, approved, sent or opened offer revises it back to draft. A sent or opened offer expires
 * after its expiry date; an approved, sent or opened one can be rescinded. An accepted offer's hire
 * can be cancelled before its start date.
 */
export const offerWorkflow = defineWorkflow({
  name: 'offer',
  subject: 'offer',
  states: ['draft', 'pendingApproval', 'approved', 'sent', 'opened', 'accepted', 'declined', 'expired', 'rescinded', 'hireCancelled'],
  labels: { pendingApproval: 'pending', hireCancelled: 'hire cancelled' },
  initial: 'draft',
  transitions: [
    { action: 'submit', from: ['draft'], to: 'pendingApproval', pastTense: 'submitted for approval', permission: EDIT },
    { action: 'clear', from: ['draft'], to: 'approved', pastTense: 'submitted', permission: EDIT },
    { action: 'recordApproval', from: ['pendingApproval'], to: 'pendingApproval', pastTense: 'approved', permission: VIEW, guard: byAwaitedApprover },
    { action: 'approve', from: ['pendingApproval'], to: 'approved', pastTense: 'approved', permission: VIEW, guard: byAwaitedApprover },
    { action: 'reject', from: ['pendingApproval'], to: 'draft', pastTense: 'rejected', permission: VIEW, guard: byAwaitedApprover, needsComment: true },
    { action: 'revise', from: ['pendingApproval', 'approved', 'sent', 'opened'], to: 'draft', pastTense: 'edited', permission: EDIT },
    { action: 'send', from: ['approved'], to: 'sent', pastTense: 'sent', permission: EDIT },
    { action: 'open', from: ['sent'], to: 'opened', pastTense: 'opened', guard: byCandidate },
    { action: 'accept', from: ['sent', 'opened'], to: 'accepted', pastTense: 'accepted', guard: byCandidate },
    { action: 'decline', from: ['sent', 'opened'], to: 'declined', pastTense: 'declined', guard: byCandidate, needsComment: true },
    { action: 'expire', from: ['sent', 'opened'], to: 'expired', pastTense: 'expired', guard: bySystem },
    { action: 'rescind', from: ['approved', 'sent', 'opened'], to: 'rescinded', pastTense: 'rescinded', permission: EDIT, needsComment: true },
    // Before the start date only (the service checks the hire has not started), with why.
    { action: 'cancelHire', from: ['accepted'], to: 'hireCancelled', pastTense: 'cancelled the hire', permission: EDIT, needsComment: true },
  ],
});

export type OfferState = StateOf<typeof offerWorkflow>;

/** What the history names offers by. */
export const OFFER_SUBJECT = 'offer';

/** States whose letter opens. */
export const OPEN_LETTER_STATES: readonly OfferState[] = ['sent', 'opened'];
/** States that end an offer: the letter no longer opens and nothing changes any more. */
export const CLOSED_STATES: readonly OfferState[] = ['accepted', 'declined', 'expired', 'rescinded', 'hireCancelled'];
