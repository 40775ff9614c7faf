import type { Caller } from '../access/caller.js';
import { type StateOf, defineWorkflow } from '../workflow/definition.js';

const EDIT = { permission: 'dataLab', authority: 'edit' } as const;

/** Who closes a survey when its closing date has passed, in its history. */
export const SYSTEM_ACTOR = 'system:pulseSurveys';

const bySystem = (actor: Caller): true | string => actor.userId === SYSTEM_ACTOR || 'A survey closes on its own after its closing date; close it yourself with “close”.';

/**
 * A pulse survey's life: a draft is opened (its audience fixed then), an open survey is closed by
 * someone with `dataLab` edit, or on its own after its closing date (`expire`). Nothing goes back:
 * answers given to one set of questions and one audience stay with them.
 */
export const pulseSurveyWorkflow = defineWorkflow({
  name: 'pulseSurvey',
  subject: 'survey',
  states: ['draft', 'open', 'closed'],
  initial: 'draft',
  transitions: [
    { action: 'open', from: ['draft'], to: 'open', pastTense: 'opened', permission: EDIT },
    { action: 'close', from: ['open'], to: 'closed', pastTense: 'closed', permission: EDIT },
    { action: 'expire', from: ['open'], to: 'closed', pastTense: 'closed at its closing date', guard: bySystem },
  ],
});

export type PulseSurveyState = StateOf<typeof pulseSurveyWorkflow>;
export const PULSE_SURVEY_SUBJECT = 'pulseSurvey';
