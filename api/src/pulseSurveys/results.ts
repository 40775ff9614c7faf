import type { components } from '../contract-types.js';
import type { PulseDimension, PulseTallyRow } from './store.js';

type GroupResult = components['schemas']['PulseGroupResult'];
type ScoreSummary = components['schemas']['PulseScoreSummary'];

/** The fewest respondents a group needs before anything of its answers is shown. */
export const MIN_RESPONDENTS = 5;
export const TOO_FEW = `Fewer than ${MIN_RESPONDENTS} answers`;
/** A group hidden with the small ones, so that the total less the shown groups does not give theirs away. */
export const HIDDEN_WITH_SMALL = `Hidden with the groups of fewer than ${MIN_RESPONDENTS} answers, so that theirs cannot be worked out`;

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Mean and distribution of one question in one group, from its counts. */
export function scoreSummary(questionId: string, tallies: readonly PulseTallyRow[]): ScoreSummary {
  const distribution = [0, 0, 0, 0, 0];
  for (const tally of tallies) if (tally.question_id === questionId && tally.score >= 1 && tally.score <= 5) distribution[tally.score - 1] = (distribution[tally.score - 1] ?? 0) + tally.answers;
  const answers = distribution.reduce((sum, n) => sum + n, 0);
  const total = distribution.reduce((sum, n, index) => sum + n * (index + 1), 0);
  return { questionId, average: answers ? round2(total / answers) : null, distribution };
}

export interface GroupInput {
  key: string;
  label: string;
  audience: number;
  respondents: number;
}

/** A group as shown: everything, or only its name, audience and why nothing else. */
export function groupResult(group: GroupInput, questionIds: readonly string[], tallies: readonly PulseTallyRow[], hiddenBecause: string | null): GroupResult {
  if (hiddenBecause) {
    return { key: group.key, label: group.label, audience: group.audience, respondents: null, shown: false, message: hiddenBecause, scores: questionIds.map((questionId) => ({ questionId, average: null, distribution: null })) };
  }
  return { key: group.key, label: group.label, audience: group.audience, respondents: group.respondents, shown: true, message: null, scores: questionIds.map((questionId) => scoreSummary(questionId, tallies)) };
}

/**
 * Which groups of one breakdown are hidden, and why: every group under the minimum, and, when those
 * add up to between 1 and 4 respondents, the smallest shown groups too until they no longer do
 * (complementary suppression: otherwise the whole survey's answers less the shown groups' would be
 * the small groups' answers).
 */
export function hiddenGroups(groups: readonly GroupInput[]): Map<string, string> {
  const hidden = new Map<string, string>();
  let hiddenRespondents = 0;
  for (const group of groups) {
    if (group.respondents < MIN_RESPONDENTS) {
      hidden.set(group.key, TOO_FEW);
      hiddenRespondents += group.respondents;
    }
  }
  const shown = groups.filter((group) => !hidden.has(group.key)).sort((a, b) => a.respondents - b.respondents || a.key.localeCompare(b.key));
  while (hiddenRespondents > 0 && hiddenRespondents < MIN_RESPONDENTS && shown.length) {
    const next = shown.shift() as GroupInput;
    hidden.set(next.key, HIDDEN_WITH_SMALL);
    hiddenRespondents += next.respondents;
  }
  return hidden;
}

export const tallyFor = (tallies: readonly PulseTallyRow[], dimension: PulseDimension, key: string): PulseTallyRow[] =>
  tallies.filter((tally) => tally.dimension === dimension && tally.group_key === key);
