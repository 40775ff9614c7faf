import { type StateOf, defineWorkflow } from '../workflow/definition.js';

/**
 * A request for pay information (Article 7): the answer is prepared when the employee files it and
 * waits for HR's review; someone with `payEquity` edit approves it, which delivers it to the
 * employee. A delivered answer is what the employee was told, and does not change.
 */
export const payInformationWorkflow = defineWorkflow({
  name: 'payInformationRequest',
  subject: 'request for pay information',
  states: ['review', 'delivered'],
  labels: { review: 'waiting for review' },
  initial: 'review',
  transitions: [{ action: 'approve', from: ['review'], to: 'delivered', pastTense: 'approved', permission: { permission: 'payEquity', authority: 'edit', scope: 'all' } }],
});

export type PayInformationState = StateOf<typeof payInformationWorkflow>;
export const PAY_INFORMATION_SUBJECT = 'payInformationRequest';
