/**
 * Vesting arithmetic for equity grants: nothing before the cliff, then everything earned so far at
 * the cliff, then a tranche at each period (monthly, quarterly or annually) until fully vested.
 * Shares are whole: the vested count is rounded down, so the last tranche carries the remainder.
 */

export type VestingFrequency = 'monthly' | 'quarterly' | 'annually';

export interface VestingTerms {
  shares: number;
  vestingStartDate: string;
  vestingMonths: number;
  cliffMonths: number;
  frequency: VestingFrequency;
}

const STEP_MONTHS: Record<VestingFrequency, number> = { monthly: 1, quarterly: 3, annually: 12 };

interface Day {
  year: number;
  month: number; // 1–12
  day: number;
}

function parseDay(date: string): Day {
  const [year, month, day] = date.slice(0, 10).split('-').map(Number);
  return { year: year ?? 1970, month: month ?? 1, day: day ?? 1 };
}

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number): string => String(n).padStart(2, '0');

/** Whole months from `start` to `date`; a month whose day does not exist (31 → 30) ends on its last day. */
export function monthsElapsed(start: string, date: string): number {
  const a = parseDay(start);
  const b = parseDay(date);
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  const lastDayOfB = daysInMonth(b.year, b.month);
  if (b.day < a.day && b.day < lastDayOfB) months -= 1;
  return months;
}

/** `date` plus `months`, clamped to the last day of a shorter month. */
export function addMonths(date: string, months: number): string {
  const d = parseDay(date);
  const index = d.year * 12 + (d.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${year}-${pad(month)}-${pad(Math.min(d.day, daysInMonth(year, month)))}`;
}

/** Shares vested on `date` (inclusive of a tranche falling on that day). */
export function vestedShares(terms: VestingTerms, date: string): number {
  if (date < terms.vestingStartDate.slice(0, 10)) return 0;
  if (terms.vestingMonths <= 0) return terms.shares;
  const elapsed = monthsElapsed(terms.vestingStartDate, date);
  if (elapsed < terms.cliffMonths) return 0;
  const step = STEP_MONTHS[terms.frequency];
  const earned = Math.max(Math.floor(elapsed / step) * step, Math.min(terms.cliffMonths, terms.vestingMonths));
  const months = Math.min(earned, terms.vestingMonths);
  if (months >= terms.vestingMonths) return terms.shares;
  return Math.floor((terms.shares * months) / terms.vestingMonths);
}

export const fullyVestedOn = (terms: VestingTerms): string => addMonths(terms.vestingStartDate, Math.max(terms.vestingMonths, 0));

/** 'YYYY-MM' of a date. */
export const monthOf = (date: string): string => date.slice(0, 7);

/** The last day of a 'YYYY-MM' month. */
export function endOfMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return `${month}-${pad(daysInMonth(year ?? 1970, m ?? 1))}`;
}

/** Every month from `first` to `last` inclusive ('YYYY-MM'). */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year = 1970, month = 1] = first.split('-').map(Number);
  const end = last;
  for (let guard = 0; guard < 1200; guard += 1) {
    const current = `${year}-${pad(month)}`;
    if (current > end) break;
    months.push(current);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
}
