import type { components } from '../contract-types.js';
import { findLevel, findLocation } from '../reference/catalog/index.js';
import type { PulseDimension, PulseQuestionRow, PulseSurveyRow } from './store.js';
import type { PulseSurveyState } from './workflow.js';

type Schemas = components['schemas'];
type PulseSurvey = Schemas['PulseSurvey'];
type TargetKind = Schemas['PulseTargetKind'];
type Action = Schemas['PulseSurveyAction'];

const iso = (value: string | Date): string => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

export const TARGET_KINDS: readonly TargetKind[] = ['everyone', 'department', 'location', 'level', 'managerSubtree'];
export const isTargetKind = (value: string): value is TargetKind => (TARGET_KINDS as readonly string[]).includes(value);

export function targetValues(row: PulseSurveyRow): string[] {
  const parsed: unknown = JSON.parse(row.target_values);
  return Array.isArray(parsed) ? parsed.filter((value): value is string => typeof value === 'string') : [];
}

/** What a group is called on screen; '' is the group of people the records say nothing about. */
export function groupLabel(dimension: Exclude<PulseDimension, 'all'>, key: string): string {
  switch (dimension) {
    case 'department':
      return key || 'No department';
    case 'location':
      return key ? (findLocation(key)?.paybenchLocationName ?? key) : 'No location';
    case 'level':
      return key ? (findLevel(key)?.extendedDisplayString ?? key) : 'No level';
  }
}

export function targetLabels(kind: TargetKind, values: readonly string[], managerNames: ReadonlyMap<string, string>): string[] {
  switch (kind) {
    case 'everyone':
      return ['Everyone'];
    case 'department':
    case 'location':
    case 'level':
      return values.map((value) => groupLabel(kind, value));
    case 'managerSubtree':
      return values.map((value) => `${managerNames.get(value) ?? 'A former manager'} and everyone below them`);
  }
}

export interface SurveyExtras {
  state: PulseSurveyState;
  questions: readonly PulseQuestionRow[];
  respondents: number;
  managerNames: ReadonlyMap<string, string>;
  actions: readonly Action[];
}

export function presentSurvey(row: PulseSurveyRow, extras: SurveyExtras): PulseSurvey {
  const kind: TargetKind = isTargetKind(row.target_kind) ? row.target_kind : 'everyone';
  const values = targetValues(row);
  return {
    id: row.id,
    title: row.title,
    introduction: row.introduction,
    state: extras.state,
    target: { kind, values, labels: targetLabels(kind, values, extras.managerNames) },
    opensOn: row.opens_on,
    closesOn: row.closes_on,
    questions: extras.questions.map(presentQuestion),
    audienceSize: row.audience_size === null ? null : Number(row.audience_size),
    respondents: extras.respondents,
    remindersSent: Number(row.reminders_sent),
    lastRemindedAt: row.last_reminded_at ? iso(row.last_reminded_at) : null,
    actions: [...extras.actions],
    version: Number(row.version),
    createdAt: iso(row.created_at),
  };
}

export const presentQuestion = (row: PulseQuestionRow): Schemas['PulseQuestion'] => ({ id: row.id, position: Number(row.position), text: row.text });

export function presentQuestionnaire(row: PulseSurveyRow, questions: readonly PulseQuestionRow[], answered: boolean, open: boolean): Schemas['PulseQuestionnaire'] {
  return { id: row.id, title: row.title, introduction: row.introduction, closesOn: row.closes_on, open, answered, questions: questions.map(presentQuestion) };
}
