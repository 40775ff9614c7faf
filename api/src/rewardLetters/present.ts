import type { components } from '../contract-types.js';
import { isoTimestampOrNull } from '../db/timestamps.js';
import { changePercentOf } from './letters.js';
import type { LetterRow } from './store.js';

type Schemas = components['schemas'];
export type RewardLetterSummary = Schemas['RewardLetterSummary'];
export type RewardLetterCycle = Schemas['RewardLetterCycle'];
export type RewardLetter = Schemas['RewardLetter'];
export type RewardLetterTemplate = Schemas['RewardLetterTemplate'];

export function presentLetter(row: LetterRow, cycle: { id: string; name: string; effectiveDate: string }, managerName: string | null): RewardLetterSummary {
  const oldBase = Number(row.old_base);
  const newBase = Number(row.new_base);
  return {
    meritCycleId: cycle.id,
    cycleName: cycle.name,
    effectiveDate: cycle.effectiveDate,
    employeeId: row.employee_id,
    name: [row.first_name, row.last_name].filter(Boolean).join(' '),
    jobTitle: row.title,
    managerName,
    oldBase: { amount: oldBase, currency: row.currency },
    newBase: { amount: newBase, currency: row.currency },
    changePercent: changePercentOf(oldBase, newBase),
    enabled: Boolean(row.enabled),
    changesPay: Boolean(row.changes_pay),
    version: Number(row.version),
    documentVersionId: row.document_version_id,
    viewedAt: isoTimestampOrNull(row.viewed_at),
    confirmedAt: isoTimestampOrNull(row.confirmed_at),
    releasedAt: isoTimestampOrNull(row.released_at),
    remindedAt: isoTimestampOrNull(row.reminded_at),
    reminders: Number(row.reminders ?? 0),
  };
}
