import type { components } from '../../../../openapi.d.ts';
import type { Tone } from '../../ui/Badge';

type State = components['schemas']['PulseSurveyState'];

export type Schemas = components['schemas'];
export type Survey = Schemas['PulseSurvey'];
export type Results = Schemas['PulseSurveyResults'];
export type GroupResult = Schemas['PulseGroupResult'];
export type TargetKind = Schemas['PulseTargetKind'];
export type TrendPoint = Schemas['PulseTrendPoint'];

/** The answer scale, as every screen words it. */
export const SCALE: readonly { score: number; label: string }[] = [
  { score: 1, label: 'Strongly disagree' },
  { score: 2, label: 'Disagree' },
  { score: 3, label: 'Neutral' },
  { score: 4, label: 'Agree' },
  { score: 5, label: 'Strongly agree' },
];

export const STATE_BADGE: Record<State, { text: string; tone: Tone }> = {
  draft: { text: 'Draft', tone: 'neutral' },
  open: { text: 'Open', tone: 'success' },
  closed: { text: 'Closed', tone: 'info' },
};

/** The question people most often start with. */
export const STARTER_QUESTIONS: readonly string[] = ['I understand how my pay is set', 'My pay is fair for the work I do', 'I know what I need to do to grow my pay'];
