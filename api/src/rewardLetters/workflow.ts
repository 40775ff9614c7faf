import { defineWorkflow } from '../workflow/definition.js';

const WHOLE_COMPANY = { permission: 'compensationPlanning', authority: 'edit', scope: 'all' } as const;

/**
 * A cycle's letters: rendered as a draft when the cycle closes (planners edit the template and
 * preview), released to managers (who read their reports' letters), then to employees. Releasing to
 * employees straight from the draft skips the managers' preview.
 */
export const rewardLettersWorkflow = defineWorkflow({
  name: 'rewardLetters',
  subject: 'set of reward letters',
  states: ['draft', 'managers', 'released'],
  labels: { managers: 'released-to-managers' },
  initial: 'draft',
  transitions: [
    { action: 'releaseToManagers', from: ['draft'], to: 'managers', pastTense: 'released to managers', permission: WHOLE_COMPANY },
    { action: 'releaseToEmployees', from: ['draft', 'managers'], to: 'released', pastTense: 'released to employees', permission: WHOLE_COMPANY },
  ],
});

export type RewardLettersState = 'draft' | 'managers' | 'released';
export type RewardLettersAction = 'releaseToManagers' | 'releaseToEmployees';

export const REWARD_LETTERS_SUBJECT = 'rewardLetters';
