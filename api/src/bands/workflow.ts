import { defineWorkflow } from '../workflow/definition.js';

/**
 * A band set's life: a draft is published to live; publishing another draft archives the live one
 * (both in the publishing transaction, each with its history row). Archived sets stay readable and
 * can be duplicated into a new draft.
 */
export const bandSetWorkflow = defineWorkflow({
  name: 'bandSet',
  subject: 'band set',
  states: ['draft', 'live', 'archived'],
  initial: 'draft',
  transitions: [
    { action: 'publish', from: ['draft'], to: 'live', pastTense: 'published', permission: { permission: 'bands', authority: 'edit', scope: 'all' } },
    { action: 'archive', from: ['live'], to: 'archived', pastTense: 'archived', permission: { permission: 'bands', authority: 'edit', scope: 'all' } },
  ],
});

/** What the history names band sets by. */
export const BAND_SET_SUBJECT = 'bandSet';
