import { defineWorkflow } from '../definition.js';

/** What the sample cycle's guard needs of the record, besides its state. */
export interface SampleCycle {
  launchedBy: string;
}

/** A workflow shaped like a merit cycle, for the tests: not started → active → paused/approved → closed. */
export const sampleCycle = defineWorkflow({
  name: 'sampleMeritCycle',
  subject: 'cycle',
  states: ['not_started', 'active', 'paused', 'approved', 'closed'],
  initial: 'not_started',
  transitions: [
    { action: 'start', from: ['not_started'], to: 'active', pastTense: 'started', permission: { permission: 'compensationPlanning', authority: 'edit' } },
    { action: 'pause', from: ['active'], to: 'paused', pastTense: 'paused', permission: { permission: 'compensationPlanning', authority: 'edit' } },
    { action: 'resume', from: ['paused'], to: 'active', pastTense: 'resumed', permission: { permission: 'compensationPlanning', authority: 'edit' } },
    {
      action: 'approve',
      from: ['active'],
      to: 'approved',
      pastTense: 'approved',
      permission: { permission: 'compensationPlanning', authority: 'edit', scope: 'all' },
      // Four eyes: whoever launched the cycle does not approve it.
      guard: (actor, cycle: SampleCycle) => actor.userId !== cycle.launchedBy || 'The person who launched a cycle cannot approve it.',
    },
    { action: 'reopen', from: ['approved'], to: 'active', pastTense: 'reopened', needsComment: true, permission: { permission: 'compensationPlanning', authority: 'edit' } },
    { action: 'close', from: ['approved', 'paused'], to: 'closed', pastTense: 'closed', permission: { permission: 'compensationPlanning', authority: 'edit' } },
  ],
});
