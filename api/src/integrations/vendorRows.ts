/*
 * Pieces every vendor connector needs to turn its system's records into the rows of a people-data
 * import: a cell's text, a pay history as rows, and pay made annual. Which entry of a history is in
 * force is the kernel's rule (kernel/history.ts), the one imports use too.
 */
import { inForce } from '../kernel/history.js';

/** A value from a vendor's JSON as a cell: text as is, numbers and booleans written out, anything else empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/**
 * An employee's pay history as the rows of an import, oldest first: each dated entry once (of two on
 * one day, the later in the system's order: its correction). Without a dated entry, the one in force
 * (or none: one row without pay), so the import reads one row for that employee as before.
 */
export function payHistory<Entry>(entries: readonly Entry[], startOf: (entry: Entry) => string, day: string): (Entry | undefined)[] {
  const byDate = new Map<string, Entry>();
  for (const entry of entries) {
    const start = startOf(entry);
    if (/^\d{4}-\d{2}-\d{2}$/.test(start)) byDate.set(start, entry);
  }
  if (!byDate.size) return [inForce(entries, startOf, day)];
  return [...byDate.keys()].sort().map((date) => byDate.get(date));
}

/** Pay periods in a year, by the words HR systems use for them (hours and days at full time: 40 × 52, 5 × 52). */
const PER_YEAR: Record<string, number> = {
  hour: 2080, hourly: 2080,
  day: 260, daily: 260,
  week: 52, weekly: 52,
  biweekly: 26, 'bi-weekly': 26,
  semimonthly: 24, 'semi-monthly': 24,
  month: 12, monthly: 12,
  quarter: 4, quarterly: 4,
  year: 1, yearly: 1, annual: 1, annually: 1,
};

/** An amount paid per `period` as a year's pay, to the cent; undefined for a period nobody knows. */
export function annualAmount(amount: number, period: string | null | undefined): number | undefined {
  const per = PER_YEAR[(period || 'year').trim().toLowerCase()];
  return per === undefined ? undefined : Math.round(amount * per * 100) / 100;
}
