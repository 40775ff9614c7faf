/*
 * The band formulas, pure. Amounts in major units (floats) until rounded; the service turns them
 * into integer minor units of the set's currency.
 */

export type WidthKind = 'plusMinus' | 'spread';

export interface Width {
  kind: WidthKind;
  /** Percent: ±20 → min = mid × 0.8, max = mid × 1.2; spread 50 → (max − min) ÷ min = 0.5. */
  percent: number;
}

export interface Figures {
  min: number;
  mid: number;
  max: number;
}

/** The zone's mid from the anchor's: anchor × (1 + differential), the differential in basis points. */
export function applyDifferential(anchorMid: number, differentialBp: number): number {
  return anchorMid * (1 + differentialBp / 10_000);
}

/**
 * Min and max around a mid. ± p: mid × (1 − p) and mid × (1 + p). Spread s = (max − min) ÷ min with
 * the mid in the middle: min = 2 × mid ÷ (2 + s), max = min × (1 + s).
 */
export function widthAround(mid: number, width: Width): Figures {
  const p = width.percent / 100;
  if (width.kind === 'plusMinus') return { min: Math.max(0, mid * (1 - p)), mid, max: mid * (1 + p) };
  const min = (2 * mid) / (2 + p);
  return { min, mid, max: min * (1 + p) };
}

/** To the nearest `unit` (halves up). */
export function roundTo(value: number, unit: number): number {
  return Math.round(value / unit) * unit;
}

/** Each figure rounded to the nearest unit; rounding is monotonic, so min ≤ mid ≤ max still holds. */
export function roundFigures(figures: Figures, unit: number): Figures {
  return { min: roundTo(figures.min, unit), mid: roundTo(figures.mid, unit), max: roundTo(figures.max, unit) };
}

/** compa-ratio = base ÷ mid, to four decimals. */
export function compaRatio(base: number, mid: number): number {
  return Math.round((base / mid) * 10_000) / 10_000;
}

/** range penetration = (base − min) ÷ (max − min), to four decimals; null for a band of no width. */
export function rangePenetration(base: number, min: number, max: number): number | null {
  if (max <= min) return null;
  return Math.round(((base - min) / (max - min)) * 10_000) / 10_000;
}

export function positionIn(base: number, min: number, max: number): 'below' | 'inside' | 'above' {
  return base < min ? 'below' : base > max ? 'above' : 'inside';
}

/** (max − min) ÷ min, to four decimals; null when min is 0. */
export function spreadOf(min: number, max: number): number | null {
  return min > 0 ? Math.round(((max - min) / min) * 10_000) / 10_000 : null;
}

/** next ÷ mid − 1, to four decimals. */
export function progressionOf(mid: number, nextMid: number): number | null {
  return mid > 0 ? Math.round((nextMid / mid - 1) * 10_000) / 10_000 : null;
}

export interface LadderBand<Id> {
  id: Id;
  /** The level's rank (P3 → 3); gaps are missing levels. */
  rank: number;
  /** Integer amounts (minor units). */
  min: number;
  mid: number;
  max: number;
}

/**
 * Autosmoothing of one ladder (a family × track × zone): mid = c × (1 + p)^rank, where c keeps the
 * geometric mean of the mids (least squares on logarithms); min and max keep their ratio to the mid.
 * Figures are rounded to `unit`; a step rounding leaves flat (or inverted) is raised to one unit above
 * the level below, so the result strictly increases with rank. Bands of one rank share a figure.
 */
export function smoothLadder<Id>(bands: readonly LadderBand<Id>[], progressionPercent: number, unit: number): Map<Id, Figures> {
  const out = new Map<Id, Figures>();
  const priced = bands.filter((band) => band.mid > 0);
  if (priced.length === 0) return out;
  const logStep = Math.log(1 + progressionPercent / 100);
  const logC = priced.reduce((sum, band) => sum + Math.log(band.mid) - band.rank * logStep, 0) / priced.length;
  // A ladder already on the curve (rounded figures, each mid within one rounding unit of it, rising
  // with rank) is left as it is: smoothing what was just smoothed changes nothing, although rounding
  // moved the mean the curve is fitted through.
  const rounded = (band: LadderBand<Id>) => band.min % unit === 0 && band.mid % unit === 0 && band.max % unit === 0;
  const onCurve = priced.every((band) => rounded(band) && Math.abs(band.mid - Math.exp(logC + band.rank * logStep)) <= unit) && risesWithRank(priced);
  if (onCurve) return new Map(priced.map((band) => [band.id, { min: band.min, mid: band.mid, max: band.max }]));
  const ranks = [...new Set(priced.map((band) => band.rank))].sort((a, b) => a - b);
  const midOfRank = new Map<number, number>();
  let previous = -Infinity;
  for (const rank of ranks) {
    let mid = Math.max(unit, roundTo(Math.exp(logC + rank * logStep), unit));
    if (mid <= previous) mid = previous + unit;
    midOfRank.set(rank, mid);
    previous = mid;
  }
  for (const band of priced) {
    const mid = midOfRank.get(band.rank) ?? band.mid;
    const min = Math.min(mid, Math.max(0, roundTo((mid * band.min) / band.mid, unit)));
    const max = Math.max(mid, roundTo((mid * band.max) / band.mid, unit));
    out.set(band.id, { min, mid, max });
  }
  return out;
}

/** Bands of a higher rank have a higher mid; bands of one rank share theirs. */
function risesWithRank<Id>(bands: readonly LadderBand<Id>[]): boolean {
  const byRank = [...bands].sort((a, b) => a.rank - b.rank);
  return byRank.every((band, at) => {
    const below = byRank[at - 1];
    return !below || (below.rank === band.rank ? below.mid === band.mid : below.mid < band.mid);
  });
}

/**
 * The progression a ladder's own mids fit best, in percent: ln(mid) fitted to the rank by least
 * squares, p = e^slope − 1. The fitted curve of smoothing. Null when fewer than two ranks are priced:
 * one level sets no slope. Negative when the mids fall with the level.
 */
export function fittedProgression<Id>(bands: readonly LadderBand<Id>[]): number | null {
  const priced = bands.filter((band) => band.mid > 0);
  if (new Set(priced.map((band) => band.rank)).size < 2) return null;
  const meanRank = priced.reduce((sum, band) => sum + band.rank, 0) / priced.length;
  const meanLog = priced.reduce((sum, band) => sum + Math.log(band.mid), 0) / priced.length;
  let covariance = 0;
  let variance = 0;
  for (const band of priced) {
    covariance += (band.rank - meanRank) * (Math.log(band.mid) - meanLog);
    variance += (band.rank - meanRank) ** 2;
  }
  return (Math.exp(covariance / variance) - 1) * 100;
}

// ---- composite benchmarks ---------------------------------------------------------------------

const parseDay = (date: string): [number, number, number] => {
  const [year, month, day] = date.split('-').map(Number);
  return [year ?? 1970, month ?? 1, day ?? 1];
};
const utc = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day);
const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The date `months` calendar months after `date`, its day kept or clamped to the month's last (Jan 31 + 1 → Feb 28/29), as UTC ms. */
function addMonths(date: string, months: number): number {
  const [year, month, day] = parseDay(date);
  const total = year * 12 + (month - 1) + months;
  const [toYear, toMonth] = [Math.floor(total / 12), (total % 12) + 1];
  return utc(toYear, toMonth, Math.min(day, daysIn(toYear, toMonth)));
}

/**
 * Months from one date to another (negative when `to` is earlier): the whole calendar months, then the
 * days left as a fraction of the month that follows (2025-01-01 → 2026-01-01 is 12; → 2026-01-16 is 12.5).
 */
export function monthsBetween(from: string, to: string): number {
  if (to < from) return -monthsBetween(to, from);
  const [fromYear, fromMonth] = parseDay(from);
  const [toYear, toMonth, toDay] = parseDay(to);
  const end = utc(toYear, toMonth, toDay);
  let whole = (toYear - fromYear) * 12 + (toMonth - fromMonth);
  while (whole > 0 && addMonths(from, whole) > end) whole -= 1;
  const start = addMonths(from, whole);
  const next = addMonths(from, whole + 1);
  return whole + (end - start) / (next - start);
}

/** aged = value × (1 + r)^(months ÷ 12), r the annual rate in basis points; rounded to a minor unit, halves up. */
export function agedAmount(amount: number, agingRateBp: number, months: number): number {
  return roundHalfUp(amount * (1 + agingRateBp / 10_000) ** (months / 12));
}

/** To the nearest integer, halves away from zero (amounts in minor units are never negative here). */
export function roundHalfUp(value: number): number {
  // A product such as 100,000 × 1.03 lands at 102,999.99999…: snap within a millionth before rounding.
  const snapped = Math.round(value * 1e6) / 1e6;
  return Math.sign(snapped) * Math.round(Math.abs(snapped));
}

export interface WeightedAmount {
  amount: number;
  weight: number;
}

/** Σ weight × amount ÷ Σ weight, rounded to a minor unit (halves up); null without any weight. */
export function blend(parts: readonly WeightedAmount[]): number | null {
  const weights = parts.reduce((sum, part) => sum + part.weight, 0);
  if (!parts.length || weights <= 0) return null;
  return roundHalfUp(parts.reduce((sum, part) => sum + part.weight * part.amount, 0) / weights);
}

/** A zone's benchmark: the anchor's × (1 + differential), rounded to a minor unit (halves up). */
export function zoneBenchmark(anchor: number, differentialBp: number): number {
  return roundHalfUp(anchor * (1 + differentialBp / 10_000));
}

/** mid ÷ benchmark − 1, to four decimals; null without a benchmark. */
export function deltaFrom(mid: number, benchmark: number | null): number | null {
  return benchmark && benchmark > 0 ? Math.round((mid / benchmark - 1) * 10_000) / 10_000 : null;
}
