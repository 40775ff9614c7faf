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
