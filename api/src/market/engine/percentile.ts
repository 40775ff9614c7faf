/**
 * Excel's PERCENTILE.INC (numpy's default 'linear'): the value at rank (n - 1) × p between the
 * closest ranks of the ascending values sorted[0 .. n).
 *
 * For a whole-number percent the rank is split with integer arithmetic, so a rank that lands
 * exactly on a record (n = 11, p10) never picks up a rounding error.
 */
export function percentileInc(sorted: ArrayLike<number>, n: number, percent: number): number {
  const { lower, fraction } = rankOf(n, percent);
  const low = sorted[lower]!;
  if (fraction === 0) return low;
  return low + fraction * (sorted[lower + 1]! - low);
}

/** The closest rank at or below (n - 1) × p, and how far the percentile lies towards the next. */
function rankOf(n: number, percent: number): { lower: number; fraction: number } {
  if (n <= 0) throw new Error('No values to take a percentile of');
  if (!(percent >= 0 && percent <= 100)) throw new Error(`Percentile ${percent} is outside 0–100`);
  if (Number.isInteger(percent)) {
    const scaled = (n - 1) * percent;
    const lower = Math.floor(scaled / 100);
    return { lower, fraction: (scaled - lower * 100) / 100 };
  }
  const rank = ((n - 1) * percent) / 100;
  const lower = Math.floor(rank);
  return { lower, fraction: rank - lower };
}

/**
 * An ascending stretch values[from .. to) whose values count as (value ÷ divisor) × scale: a
 * positive divisor and scale keep it ascending, and converting only the values read gives the same
 * doubles as converting them all.
 */
export interface SortedRun {
  values: ArrayLike<number>;
  /** Record keys of the column the values come from, by place (disclosure/recordKeys.ts), where the values are stored amounts. */
  keys?: Int32Array;
  /** Exact amounts of that column, by place: disclosure control measures a thin cell's figures against them. */
  exact?: Int32Array;
  /** Where each value's record sits in the column; absent when values are the column itself (the index is the place). */
  places?: Int32Array;
  from: number;
  to: number;
  divisor: number;
  scale: number;
}

function valueAt(run: SortedRun, index: number): number {
  const value = run.values[index]!;
  return run.divisor === 1 && run.scale === 1 ? value : (value / run.divisor) * run.scale;
}

/** PERCENTILE.INC over the union of sorted runs, without merging them: the one or two ranks needed are selected across the runs. */
export function percentileIncOfRuns(runs: readonly SortedRun[], percent: number): number {
  const { lower, fraction } = rankOf(countOfRuns(runs), percent);
  const [first, second] = runs;
  if (runs.length === 2 && first && second) {
    const [low, high] = ranksOfTwoRuns(first, second, lower);
    return fraction === 0 ? low : low + fraction * (high - low);
  }
  const low = rankAcrossRuns(runs, lower);
  if (fraction === 0) return low;
  return low + fraction * (rankAcrossRuns(runs, lower + 1) - low);
}

/** How many values the runs hold together. */
export function countOfRuns(runs: readonly SortedRun[]): number {
  let n = 0;
  for (const run of runs) n += run.to - run.from;
  return n;
}

/** The value of 0-based rank k in the union of sorted runs. */
export function valueAtRankOfRuns(runs: readonly SortedRun[], k: number): number {
  const [first, second] = runs;
  if (runs.length === 2 && first && second) return ranksOfTwoRuns(first, second, k)[0];
  return rankAcrossRuns(runs, k);
}

/**
 * Ranks k and k + 1 of two sorted runs, by binary search on how many of the k + 1 smallest come from
 * the first run (O(log n)); rank k + 1 is NaN when k is the last rank.
 */
function ranksOfTwoRuns(a: SortedRun, b: SortedRun, k: number): [number, number] {
  const sizeA = a.to - a.from;
  const sizeB = b.to - b.from;
  let lo = Math.max(0, k + 1 - sizeB);
  let hi = Math.min(k + 1, sizeA);
  for (;;) {
    const i = (lo + hi) >>> 1;
    const j = k + 1 - i;
    if (i < hi && valueAt(b, b.from + j - 1) > valueAt(a, a.from + i)) lo = i + 1;
    else if (i > lo && valueAt(a, a.from + i - 1) > valueAt(b, b.from + j)) hi = i - 1;
    else {
      const lastA = i > 0 ? valueAt(a, a.from + i - 1) : -Infinity;
      const lastB = j > 0 ? valueAt(b, b.from + j - 1) : -Infinity;
      const nextA = i < sizeA ? valueAt(a, a.from + i) : Infinity;
      const nextB = j < sizeB ? valueAt(b, b.from + j) : Infinity;
      const next = Math.min(nextA, nextB);
      return [Math.max(lastA, lastB), next === Infinity ? Number.NaN : next];
    }
  }
}

/**
 * The value of 0-based rank k in the union of sorted runs. With one run it is a lookup. Otherwise
 * each round takes the middle of the widest remaining window as a pivot, counts the values below
 * and up to it in every run by binary search, and keeps only the side holding rank k:
 * O(runs² · log² n), no copying.
 */
function rankAcrossRuns(runs: readonly SortedRun[], k: number): number {
  const only = runs.length === 1 ? runs[0] : undefined;
  if (only) return valueAt(only, only.from + k);
  const low: number[] = [];
  const high: number[] = [];
  for (const run of runs) {
    low.push(run.from);
    high.push(run.to);
  }
  const belowAt = new Array<number>(runs.length).fill(0);
  const upToAt = new Array<number>(runs.length).fill(0);
  for (;;) {
    let widest = -1;
    for (let i = 0; i < runs.length; i++) if (high[i]! > low[i]! && (widest < 0 || high[i]! - low[i]! > high[widest]! - low[widest]!)) widest = i;
    if (widest < 0) throw new Error(`Rank ${k} is outside the runs`);
    const pivot = valueAt(runs[widest]!, (low[widest]! + high[widest]!) >>> 1);
    let below = 0;
    let upTo = 0;
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i]!;
      belowAt[i] = firstAtLeast(run, low[i]!, high[i]!, pivot);
      upToAt[i] = firstAbove(run, belowAt[i]!, high[i]!, pivot);
      below += belowAt[i]! - run.from;
      upTo += upToAt[i]! - run.from;
    }
    if (k >= below && k < upTo) return pivot;
    for (let i = 0; i < runs.length; i++) {
      if (k < below) high[i] = belowAt[i]!;
      else low[i] = upToAt[i]!;
    }
  }
}

/** First index in [from, to) whose value is ≥ target (to when none). */
function firstAtLeast(run: SortedRun, from: number, to: number, target: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (valueAt(run, mid) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [from, to) whose value is > target (to when none). */
function firstAbove(run: SortedRun, from: number, to: number, target: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (valueAt(run, mid) <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where the value at `index` of a run sits in its column. */
export function placeOf(run: SortedRun, index: number): number {
  return run.places ? run.places[index]! : index;
}

/**
 * The record key (disclosure/recordKeys.ts) of the record at 0-based rank k of the union of sorted runs: of the
 * first run holding its value, the same whichever currency the runs are read in; 0 without keys.
 */
export function keyAtRankOfRuns(runs: readonly SortedRun[], k: number): number {
  const only = runs.length === 1 ? runs[0] : undefined;
  if (only) return only.keys ? only.keys[placeOf(only, only.from + k)]! : 0;
  const value = valueAtRankOfRuns(runs, k);
  for (const run of runs) {
    const at = firstAtLeast(run, run.from, run.to, value);
    if (at < run.to && valueAt(run, at) === value) return run.keys ? run.keys[placeOf(run, at)]! : 0;
  }
  throw new Error(`Rank ${k} is outside the runs`);
}
