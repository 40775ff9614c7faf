import type { components } from '../../../../openapi.d.ts';

export type Schemas = components['schemas'];
export type LetterSummary = Schemas['RewardLetterSummary'];
export type RewardLetter = Schemas['RewardLetter'];
export type LettersOfCycle = Schemas['RewardLetterCycle'];

/** "4.0" → "+4.0%", "-1.5" → "−1.5%". */
export function changeText(percent: string): string {
  return percent.startsWith('-') ? `−${percent.slice(1)}%` : `+${percent}%`;
}

/** A moment as people read it: "3 Apr 2026, 14:05". */
export function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export const STATE_LABELS: Record<Schemas['RewardLetterState'], string> = {
  draft: 'Draft: planners only',
  managers: 'Released to managers',
  released: 'Released to employees',
};
