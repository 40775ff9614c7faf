import type { components } from '../contract-types.js';
import { type Rational, round } from '../money/rational.js';

/*
 * The merit-cycle formulas, pure. Amounts are integers in minor units; percentages are basis points
 * (300 = 3%); every product is taken exactly (BigInt) and rounded once, half to even, like the
 * currency converter. docs/merit-cycles.md states them with worked numbers.
 */

type Schemas = components['schemas'];
export type EligibilityCondition = Schemas['EligibilityCondition'];
export type GuidelineRange = Schemas['GuidelineRange'];
export type RecommendationLogic = Schemas['RecommendationLogic'];
export type MeritMatrix = Schemas['MeritMatrix'];
export type RecommendationVariables = Schemas['RecommendationVariables'];
export type RecommendationFactor = Schemas['RecommendationFactor'];

const DAY_MS = 86_400_000;
const dayNumber = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
const fromDayNumber = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Calendar days from `from` to `to`, both counted. */
export const daysInclusive = (from: string, to: string): number => dayNumber(to) - dayNumber(from) + 1;

export const addDays = (date: string, days: number): string => fromDayNumber(dayNumber(date) + days);

/** The same day `months` later (or earlier), clamped to the month's last day: 2026-03-31 − 1 month = 2026-02-28. */
export function addMonths(date: string, months: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7)) - 1 + months;
  const day = Number(date.slice(8, 10));
  const first = new Date(Date.UTC(year, month, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(day, last))).toISOString().slice(0, 10);
}

export interface Proration {
  daysEmployed: number;
  daysInPeriod: number;
}

/**
 * Days of the period the employee was employed: all of them for a start on or before the period's
 * first day (or none known); from the start date to the period's last day for a start inside it;
 * none for a start after it.
 */
export function prorationOf(startDate: string | null, periodStart: string, periodEnd: string): Proration {
  const daysInPeriod = daysInclusive(periodStart, periodEnd);
  if (!startDate || startDate <= periodStart) return { daysEmployed: daysInPeriod, daysInPeriod };
  if (startDate > periodEnd) return { daysEmployed: 0, daysInPeriod };
  return { daysEmployed: daysInclusive(startDate, periodEnd), daysInPeriod };
}

/** daysEmployed ÷ daysInPeriod to four decimals, for showing. */
export const prorationFactor = (proration: Proration): number => Math.round((proration.daysEmployed / proration.daysInPeriod) * 10_000) / 10_000;

/** n ÷ d for non-negative integers, half to even: in plain numbers while exact, else in BigInt. */
function divideHalfEven(n: number, d: number): number {
  if (n > Number.MAX_SAFE_INTEGER || d > Number.MAX_SAFE_INTEGER || n < 0) return Number(round({ n: BigInt(n), d: BigInt(d) }, 'halfEven'));
  let quotient = Math.floor(n / d);
  let remainder = n - quotient * d;
  // The floating division may land one off; the remainder says which way.
  if (remainder < 0) {
    quotient -= 1;
    remainder += d;
  } else if (remainder >= d) {
    quotient += 1;
    remainder -= d;
  }
  const twice = remainder * 2;
  return twice > d || (twice === d && quotient % 2 === 1) ? quotient + 1 : quotient;
}

/** round(amount × bp ÷ 10,000 × daysEmployed ÷ daysInPeriod), exactly, half to even. */
export function percentOf(amount: number, bp: number, proration: Proration = { daysEmployed: 1, daysInPeriod: 1 }): number {
  if (proration.daysInPeriod <= 0) return 0;
  const n = amount * bp * proration.daysEmployed;
  if (amount >= 0 && Number.isSafeInteger(n)) return divideHalfEven(n, 10_000 * proration.daysInPeriod);
  return Number(round({ n: BigInt(amount) * BigInt(bp) * BigInt(proration.daysEmployed), d: 10_000n * BigInt(proration.daysInPeriod) }, 'halfEven'));
}

/** amount ÷ base in basis points, rounded half to even; 0 without a base. */
export function basisPointsOf(amount: number, base: number): number {
  if (base <= 0) return 0;
  if (amount >= 0 && Number.isSafeInteger(amount * 10_000)) return divideHalfEven(amount * 10_000, base);
  return Number(round({ n: BigInt(amount) * 10_000n, d: BigInt(base) }, 'halfEven'));
}

/** An exact rate stored as text ("n/d"). */
export interface StoredRate {
  n: string;
  d: string;
  /** Minor-unit digits of the currency converted from. */
  digits: number;
}

const parsedRates = new WeakMap<StoredRate, { n: bigint; d: bigint }>();

/** amount (minor units, `from` digits) × rate → minor units of the target (its digits), half to even. */
export function convertWith(amount: number, rate: StoredRate, targetDigits: number): number {
  let parsed = parsedRates.get(rate);
  if (!parsed) {
    parsed = { n: BigInt(rate.n), d: BigInt(rate.d) * 10n ** BigInt(rate.digits) };
    parsedRates.set(rate, parsed);
  }
  const exact: Rational = { n: BigInt(amount) * parsed.n * 10n ** BigInt(targetDigits), d: parsed.d };
  return Number(round(exact, 'halfEven'));
}

// ---- eligibility --------------------------------------------------------------------------------

export interface EligibilityFacts {
  startDate: string | null;
  /** When the base salary in force was set. */
  lastPayChange: string | null;
  employmentType: string;
  countryCode: string | null;
  department: string | null;
  /** The rating, when it is on the cycle's scale. */
  rating: string | null;
  rawRating: string | null;
  /** A dated leave: its first and last day (null while open). */
  leaveStart: string | null;
  leaveEnd: string | null;
}

/** Whether a leave from `start` to `end` (both counted; open without an end) covers `day`. */
export const onLeaveOn = (start: string | null, end: string | null, day: string): boolean => start !== null && start <= day && (end === null || end >= day);

export interface Verdict {
  pass: boolean;
  /** Why not, rule by rule (empty when it passes). */
  reasons: string[];
}

const list = (values: readonly string[]): string => values.join(', ');

function evaluateOne(condition: EligibilityCondition, facts: EligibilityFacts, effectiveDate: string): Verdict {
  const values = condition.values ?? [];
  const fail = (reason: string): Verdict => ({ pass: false, reasons: [reason] });
  const ok: Verdict = { pass: true, reasons: [] };
  switch (condition.kind) {
    case 'all':
    case 'any': {
      const verdicts = (condition.rules ?? []).map((rule) => evaluateOne(rule, facts, effectiveDate));
      if (!verdicts.length) return ok;
      const pass = condition.kind === 'all' ? verdicts.every((v) => v.pass) : verdicts.some((v) => v.pass);
      return pass ? ok : { pass, reasons: verdicts.flatMap((v) => v.reasons) };
    }
    case 'hiredBefore': {
      const cutoff = condition.date ?? '';
      if (!facts.startDate) return fail('No start date recorded');
      return facts.startDate < cutoff ? ok : fail(`Hired on ${facts.startDate}, not before ${cutoff}`);
    }
    case 'monthsSinceLastPayChange': {
      const months = condition.months ?? 0;
      const latest = addMonths(effectiveDate, -months);
      if (!facts.lastPayChange) return ok;
      return facts.lastPayChange <= latest ? ok : fail(`Base pay last changed on ${facts.lastPayChange}, less than ${months} months before ${effectiveDate}`);
    }
    case 'employmentType':
      return values.includes(facts.employmentType) ? ok : fail(`Employment type ${facts.employmentType.replace(/_/g, '-')} is not one of: ${list(values)}`);
    case 'country':
      return facts.countryCode && values.includes(facts.countryCode) ? ok : fail(`Country ${facts.countryCode ?? '(none)'} is not one of: ${list(values)}`);
    case 'department':
      return facts.department && values.includes(facts.department) ? ok : fail(`Department ${facts.department ?? '(none)'} is not one of: ${list(values)}`);
    case 'ratingPresent':
      if (facts.rating) return ok;
      return fail(facts.rawRating ? `Rating “${facts.rawRating}” is not on the cycle's performance scale` : 'No performance rating');
    case 'onLeave': {
      const day = condition.date ?? effectiveDate;
      const away = onLeaveOn(facts.leaveStart, facts.leaveEnd, day);
      if (away === (condition.onLeave ?? false)) return ok;
      return away ? fail(`On leave on ${day} (from ${facts.leaveStart ?? ''}${facts.leaveEnd ? ` to ${facts.leaveEnd}` : ''})`) : fail(`Not on leave on ${day}`);
    }
  }
}

/** The rules applied to one employee: eligible, or every rule that failed. */
export function evaluateEligibility(rules: EligibilityCondition, facts: EligibilityFacts, effectiveDate: string): Verdict {
  return evaluateOne(rules, facts, effectiveDate);
}

// ---- band position and the merit matrix -----------------------------------------------------------

/** compa-ratio = base ÷ mid, to four decimals. */
export const compaRatioOf = (base: number, mid: number): number | null => (mid > 0 ? Math.round((base / mid) * 10_000) / 10_000 : null);

/** range penetration = (base − min) ÷ (max − min), to four decimals; null for a band of no width. */
export const penetrationOf = (base: number, min: number, max: number): number | null => (max > min ? Math.round(((base - min) / (max - min)) * 10_000) / 10_000 : null);

/** The matrix column (1–4): 1 below the first threshold, 4 at or above the third. */
export function columnOf(value: number | null, thresholds: readonly number[]): number | null {
  if (value === null) return null;
  let column = 1;
  for (const threshold of thresholds) if (value >= threshold) column += 1;
  return column;
}

/**
 * The guideline for one employee: the flat range, the matrix cell of their rating × column, or the
 * sum of the several variables; the fallback when the matrix has no cell for them (no rating, no
 * band); null when nothing applies.
 */
export function guidelineFor(logic: RecommendationLogic, rating: string | null, column: number | null, variables?: VariableFacts): GuidelineRange | null {
  if (logic.kind === 'flat') return logic.flat ?? null;
  if (logic.kind === 'variables') return logic.variables && variables ? variablesGuideline(logic.variables, variables) : (logic.fallback ?? null);
  const cell = rating !== null && column !== null ? logic.matrix?.cells.find((candidate) => candidate.rating === rating && candidate.column === column) : undefined;
  if (cell) return { minBp: cell.minBp, targetBp: cell.targetBp, maxBp: cell.maxBp };
  return logic.fallback ?? null;
}

// ---- several variables ----------------------------------------------------------------------------

/** What the several-variables logic reads of one employee (null: no value, so that variable adds nothing). */
export interface VariableFacts {
  rating: string | null;
  compaRatio: number | null;
  rangePenetration: number | null;
  /** Whole months from the base in force to the effective date. */
  monthsSinceLastIncrease: number | null;
}

/** Whole months from `from` to `to`: the most months that, added to `from` (month ends clamped), do not pass `to`. */
export function wholeMonthsBetween(from: string, to: string): number {
  let months = (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + (Number(to.slice(5, 7)) - Number(from.slice(5, 7)));
  while (months > 0 && addMonths(from, months) > to) months -= 1;
  return Math.max(0, months);
}

/** One factor's adjustment for the employee: its step (or rating) weighted, rounded half to even to a basis point. */
export function factorAdjustment(factor: RecommendationFactor, facts: VariableFacts): number {
  let adjustment: number;
  if (factor.variable === 'rating') {
    adjustment = (facts.rating !== null ? factor.ratings?.find((entry) => entry.rating === facts.rating)?.adjustmentBp : undefined) ?? 0;
  } else {
    const value = facts[factor.variable];
    const step = value === null ? undefined : factor.steps?.find((candidate) => (candidate.from === undefined || value >= candidate.from) && (candidate.to === undefined || value < candidate.to));
    adjustment = step?.adjustmentBp ?? 0;
  }
  return Number(round({ n: BigInt(adjustment) * BigInt(factor.weightPercent), d: 100n }, 'halfEven'));
}

/** target = base + Σ weighted adjustments, within the caps and never below 0; min and max around it. */
export function variablesGuideline(variables: RecommendationVariables, facts: VariableFacts): GuidelineRange {
  let target = variables.baseBp;
  for (const factor of variables.factors) target += factorAdjustment(factor, facts);
  if (variables.capMaxBp !== undefined) target = Math.min(target, variables.capMaxBp);
  if (variables.capMinBp !== undefined) target = Math.max(target, variables.capMinBp);
  target = Math.max(0, target);
  return { minBp: Math.max(0, target - variables.belowTargetBp), targetBp: target, maxBp: target + variables.aboveTargetBp };
}

// ---- budgets ---------------------------------------------------------------------------------------

/** A row's share of the top-down budget: base (cycle currency) × percent × proration. */
export const budgetShare = (baseInCycle: number, percentBp: number, proration: Proration): number => percentOf(baseInCycle, percentBp, proration);

/** Median of integers (the lower middle for an even count, so it is one of the values). */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? null;
}
