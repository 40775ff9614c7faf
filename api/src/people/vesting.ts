/**
 * Equity vesting and value, as pure functions of a grant's terms and a date.
 *
 * A schedule vests in events: at the cliff, everything accrued up to it; then every `frequency`
 * months; and the rest at the end. The standard four-year grant with a one-year cliff vests 25% at
 * twelve months and 1/48 a month after that. Cumulative vested shares are floor(shares × months ÷
 * vestingMonths), so rounding never drifts and the last event vests exactly what is left.
 * Event dates keep the start's day of the month, clamped to the month's last day (31 Jan → 28 Feb).
 */
import { round } from '../money/rational.js';

export type VestingFrequency = 'monthly' | 'quarterly' | 'annually';

export const FREQUENCY_MONTHS: Record<VestingFrequency, number> = { monthly: 1, quarterly: 3, annually: 12 };

export interface VestingTerms {
  shares: number;
  /** YYYY-MM-DD */
  vestingStartDate: string;
  vestingMonths: number;
  cliffMonths: number;
  frequency: VestingFrequency;
}

export interface VestingEvent {
  date: string;
  /** Months after the vesting start. */
  month: number;
  shares: number;
  cumulativeShares: number;
}

export interface VestingStatus {
  asOf: string;
  vestedShares: number;
  unvestedShares: number;
  /** 0–100, two decimals. */
  vestedPercent: number;
  nextVestingDate: string | null;
  fullyVestedDate: string;
  /** The date vesting stopped (a termination) when it stopped before the end and on or before `asOf`. */
  vestingEndedOn: string | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(date: string): [number, number, number] {
  const match = DATE.exec(date);
  if (!match) throw new Error(`Not a date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** `date` plus whole months, keeping its day of the month where the target month has it. */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = parts(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return `${pad(targetYear, 4)}-${pad(targetMonth)}-${pad(Math.min(day, daysInMonth(targetYear, targetMonth)))}`;
}

/** The months after the start at which shares vest, in order. */
export function eventMonths(terms: Pick<VestingTerms, 'vestingMonths' | 'cliffMonths' | 'frequency'>): number[] {
  const total = terms.vestingMonths;
  if (total <= 0) return [0];
  const step = FREQUENCY_MONTHS[terms.frequency];
  const cliff = Math.min(Math.max(terms.cliffMonths, 0), total);
  const months = cliff > 0 ? [cliff] : [];
  for (let month = step; month < total; month += step) if (month > cliff) months.push(month);
  if (months.at(-1) !== total) months.push(total);
  return months;
}

/** Every vesting event of a grant, with the shares each vests; events that would vest nothing are left out. */
export function vestingEvents(terms: VestingTerms): VestingEvent[] {
  const events: VestingEvent[] = [];
  let previous = 0;
  for (const month of eventMonths(terms)) {
    const cumulative = terms.vestingMonths <= 0 ? terms.shares : Math.floor((terms.shares * month) / terms.vestingMonths);
    if (cumulative > previous) {
      events.push({ date: addMonths(terms.vestingStartDate, month), month, shares: cumulative - previous, cumulativeShares: cumulative });
      previous = cumulative;
    }
  }
  return events;
}

/** The day the last shares vest. */
export const fullyVestedDate = (terms: Pick<VestingTerms, 'vestingStartDate' | 'vestingMonths'>): string => addMonths(terms.vestingStartDate, Math.max(terms.vestingMonths, 0));

/**
 * What has vested on `asOf`. Vesting stops on `stopsOn` (a termination date) when given: later
 * events never vest.
 */
export function vestingStatus(terms: VestingTerms, asOf: string, stopsOn: string | null = null): VestingStatus {
  const events = vestingEvents(terms);
  const effective = stopsOn && stopsOn < asOf ? stopsOn : asOf;
  let vested = 0;
  for (const event of events) if (event.date <= effective) vested = event.cumulativeShares;
  const next = events.find((event) => event.date > asOf && (!stopsOn || event.date <= stopsOn));
  const stoppedEarly = stopsOn !== null && stopsOn <= asOf && vested < terms.shares;
  return {
    asOf,
    vestedShares: vested,
    unvestedShares: terms.shares - vested,
    vestedPercent: terms.shares > 0 ? Math.round((vested / terms.shares) * 10_000) / 100 : 0,
    nextVestingDate: next?.date ?? null,
    fullyVestedDate: fullyVestedDate(terms),
    vestingEndedOn: stoppedEarly ? stopsOn : null,
  };
}

/**
 * shares × the spread per share (share price − strike, in millionths of the currency), never
 * below zero, exactly, rounded half-even to minor units once.
 */
export function sharesValue(shares: number, spreadMicros: bigint, minorUnit: number): number {
  const perShare = spreadMicros > 0n ? spreadMicros : 0n;
  return Number(round({ n: BigInt(shares) * perShare * 10n ** BigInt(minorUnit), d: 1_000_000n }, 'halfEven'));
}
