import { PERCENTILES, type MarketPercentile } from '../../../reference/catalog/index.js';
import { countOfRuns, keyAtRankOfRuns, percentileInc, percentileIncOfRuns, placeOf, valueAtRankOfRuns, type SortedRun } from '../percentile.js';
import { intervalOf, medianIntervalRanks, medianUncertainty, type MedianUncertainty } from '../uncertainty.js';
import { draw, SIDE_HALF, SIZE_HALF_OF_INTERVAL_LOWER, SIZE_HALF_OF_INTERVAL_UPPER, type FigureMoves } from './cellDraws.js';
import { RECORD_MOVE_LEAST, RECORD_MOVE_MOST } from './recordKeys.js';

/**
 * The figures a published cell shows (disclosure control: recordKeys.ts, docs/market-privacy.md):
 * percentiles of moved records, each moved on by the cell's draws (cellDraws.ts), a thin cell's kept
 * off the exact ones and a dense cell's spread narrowed, published at three significant figures.
 */

/** Cells of at most this many records are thin: their exact amounts are sorted to keep figures off them. */
export const THIN_CELL = 100;
const thinExact = new Float64Array(THIN_CELL);

/** Sorts the exact amounts of a thin cell's records into thinExact; false when the runs do not carry them. */
function sortThinExact(runs: readonly SortedRun[], n: number): boolean {
  if (n > THIN_CELL || n === 0) return false;
  let at = 0;
  for (const run of runs) {
    const exact = run.exact;
    if (!exact) return false;
    for (let i = run.from; i < run.to; i++) {
      const stored = exact[placeOf(run, i)]!;
      thinExact[at++] = run.divisor === 1 && run.scale === 1 ? stored : (stored / run.divisor) * run.scale;
    }
  }
  // Insertion sort: moved records change places with their neighbours only, so the exact amounts come nearly sorted.
  for (let i = 1; i < n; i++) {
    const value = thinExact[i]!;
    let j = i - 1;
    while (j >= 0 && thinExact[j]! > value) {
      thinExact[j + 1] = thinExact[j]!;
      j--;
    }
    thinExact[j + 1] = value;
  }
  return true;
}

/** Variance of ln(1 ± move) of a record's move, the size uniform in [RECORD_MOVE_LEAST, RECORD_MOVE_MOST] (a second-order value, ±0.5%). */
const MOVE_LOG_VARIANCE = (() => {
  let sum = 0;
  const steps = 1000;
  for (let i = 0; i < steps; i++) {
    const size = RECORD_MOVE_LEAST + ((i + 0.5) / steps) * (RECORD_MOVE_MOST - RECORD_MOVE_LEAST);
    sum += (Math.log(1 + size) ** 2 + Math.log(1 - size) ** 2) / 2;
  }
  return sum / steps;
})();
/** z of the 75th percentile of a normal distribution: the interquartile range is 2 × 0.6745 σ. */
const Z75 = 0.6745;

/**
 * Takes the records' moves back out of a dense cell's spread. Moving every record by its own factor
 * widens a cell's distribution (its log-variance grows by the moves' own), which would push p10 and
 * p90 of a large cell outwards by a percent or two; the figures are drawn back towards the median by
 * the share the moves added, measured from the moved p25 and p75. A function of moved figures only,
 * so it says nothing the moved records do not; thin cells, kept off their exact figures, are left.
 */
function narrowSpread(): void {
  const median = allSeven[MIDDLE]!;
  const p25 = allSeven[SLOT_OF[25]!]!;
  const p75 = allSeven[SLOT_OF[75]!]!;
  if (!(median > 0 && p25 > 0 && p75 > p25)) return;
  const sigma = Math.log(p75 / p25) / (2 * Z75);
  const keep = Math.sqrt(Math.max(0, sigma * sigma - MOVE_LOG_VARIANCE)) / sigma;
  const centre = Math.log(median);
  for (let i = 0; i < allSeven.length; i++) {
    const value = allSeven[i]!;
    if (i !== MIDDLE && value > 0) allSeven[i] = Math.exp(centre + keep * (Math.log(value) - centre));
  }
}

/**
 * A thin cell's figure kept at least max(an eighth of the exact span around its rank, thinFloor of
 * the exact figure) off the exact figure: one closer is moved on, away from the exact one, by between
 * once and twice that (drawn), within [floor, ceiling] where there is room (else to as far on the
 * other side of the exact figure).
 */
function keptOff(figure: number, n: number, percent: number, moves: FigureMoves, floor: number, ceiling: number): number {
  const exact = percentileInc(thinExact, n, percent);
  const lower = Math.floor(((n - 1) * percent) / 100);
  const span = thinExact[Math.min(n - 1, lower + 2)]! - thinExact[Math.max(0, lower - 1)]!;
  const off = Math.max(span / 8, Math.abs(exact) * moves.thin);
  if (Math.abs(figure - exact) >= off) return figure;
  // How far past the floor is drawn (up to twice it), so that a figure kept off does not say where the exact one is.
  const by = off * (1 + draw(moves.draws, SLOT_OF[percent]!));
  // Moved on from where the records put it, not from the exact figure: what it says stays centred on moved pay.
  const up = figure > exact || (figure === exact && (rankKey & 1) === 0);
  const there = up ? figure + by : figure - by;
  const other = up ? exact - by : exact + by;
  if (there >= floor && there <= ceiling && there >= 0) return there;
  if (other >= floor && other <= ceiling && other >= 0) return other;
  return figure;
}

/**
 * Where a figure lands: down (true) or up, at `at` of the way from `least` to `most` off the exact
 * value, within [floor, ceiling] (its neighbouring figures, so that percentiles stay in order). When
 * its side has no room left it goes the other way; when neither has, it is the exact value held
 * within the bounds. Plain arithmetic: thousands of cells go through here per request.
 */
function land(exact: number, least: number, most: number, floor: number, ceiling: number, down: boolean, at: number): number {
  const belowFrom = Math.max(exact - most, floor);
  const belowTo = Math.min(exact - least, ceiling);
  const aboveFrom = Math.max(exact + least, floor);
  const aboveTo = Math.min(exact + most, ceiling);
  const below = belowTo > belowFrom ? belowTo - belowFrom : 0;
  const above = aboveTo > aboveFrom ? aboveTo - aboveFrom : 0;
  if (below + above === 0) return Math.min(Math.max(exact, floor), ceiling);
  if ((down && below > 0) || above === 0) return belowTo - at * below;
  return aboveFrom + at * above;
}

/**
 * The records at one rank of the cell being published, read once per figure: the rank itself and
 * the next (clamped to the cell), and the record key of the record weighing most. Module scratch
 * rather than a returned object: thousands of figures per request.
 */
let rankValue = 0;
let nextValue = 0;
let rankKey = 0;

function readAround(runs: readonly SortedRun[], n: number, lower: number, anchored: boolean, keyed: number): void {
  const next = lower + 1 < n ? lower + 1 : n - 1;
  if (runs.length === 1) {
    // One run (a whole country, or one currency): the ranks are positions.
    const only = runs[0]!;
    const { values, keys, from, divisor, scale } = only;
    const stored = values[from + lower]!;
    rankKey = anchored && keys ? keys[placeOf(only, from + (keyed < n ? keyed : n - 1))]! : 0;
    if (divisor === 1 && scale === 1) {
      rankValue = stored;
      nextValue = values[from + next]!;
    } else {
      // As valueAt in percentile.ts: converted where read.
      rankValue = (stored / divisor) * scale;
      nextValue = (values[from + next]! / divisor) * scale;
    }
    return;
  }
  if (runs.length === 2) {
    readAroundOfTwo(runs[0]!, runs[1]!, lower, next, anchored && keyed < n ? keyed : anchored ? n - 1 : -1);
    return;
  }
  rankValue = valueAtRankOfRuns(runs, lower);
  nextValue = valueAtRankOfRuns(runs, next);
  rankKey = anchored ? keyAtRankOfRuns(runs, keyed < n ? keyed : n - 1) : 0;
}

/** A value of a run as percentile.ts reads it: converted where read. */
function valueOf(run: SortedRun, index: number): number {
  const value = run.values[index]!;
  return run.divisor === 1 && run.scale === 1 ? value : (value / run.divisor) * run.scale;
}

/**
 * readAround over two runs (two currencies): one binary search finds how many of the `lower`
 * smallest values lie in each run, and the next rank follows by one merge step (ties taken from the
 * first run). The record key at `keyed` is that of the first run holding its value, as
 * keyAtRankOfRuns says.
 */
function readAroundOfTwo(a: SortedRun, b: SortedRun, lower: number, next: number, keyed: number): void {
  const below = lower;
  const above = next;
  const sizeA = a.to - a.from;
  const sizeB = b.to - b.from;
  // The smallest i (values taken from a) such that a[i] is not below the last of b's below − i.
  let lo = Math.max(0, below - sizeB);
  let hi = Math.min(below, sizeA);
  while (lo < hi) {
    const i = (lo + hi) >>> 1;
    const j = below - i;
    if (j > 0 && valueOf(a, a.from + i) < valueOf(b, b.from + j - 1)) lo = i + 1;
    else hi = i;
  }
  let i = lo;
  let j = below - lo;
  if (keyed < 0) rankKey = 0;
  for (let rank = below; rank <= above; rank++) {
    const fromA = j >= sizeB || (i < sizeA && valueOf(a, a.from + i) <= valueOf(b, b.from + j));
    const value = fromA ? valueOf(a, a.from + i) : valueOf(b, b.from + j);
    if (rank === lower) rankValue = value;
    if (rank === keyed) {
      if (a.keys && b.keys) {
        if (fromA) rankKey = a.keys[placeOf(a, a.from + i)]!;
        else rankKey = i > 0 && valueOf(a, a.from + i - 1) === value ? a.keys[placeOf(a, a.from + i - 1)]! : b.keys[placeOf(b, b.from + j)]!;
      } else rankKey = 0;
    }
    if (rank === next) nextValue = value;
    if (fromA) i++;
    else j++;
  }
}

/**
 * The figure at the rank readAround last read (its value `exact`, made of moved records), moved on
 * within [floor, ceiling] by one to three times the relative floor of the figure, the side the record
 * at the rank moved (its key's lowest bit), so the figure never moves back towards a record's own
 * pay. Amounts are never negative, so neither is a moved one.
 */
function movedFigure(exact: number, moves: FigureMoves, half: number, floor: number, ceiling: number): number {
  const least = Math.abs(exact) * moves.relative;
  const most = 3 * least;
  if (most === 0) return Math.min(Math.max(exact, floor), ceiling);
  const down = moves.anchored ? (rankKey & 1) === 1 : draw(moves.draws, SIDE_HALF + (half % 6)) < 0.5;
  return land(exact, least, most, Math.max(floor, exact >= 0 ? 0 : -Infinity), ceiling, down, draw(moves.draws, half));
}

/** Percentile `percent` of the n records, moved within [floor, ceiling] (PERCENTILE.INC, as percentileIncOfRuns). */
function movedPercentile(runs: readonly SortedRun[], n: number, percent: number, moves: FigureMoves, floor: number, ceiling: number): number {
  const scaled = (n - 1) * percent;
  const lower = Math.floor(scaled / 100);
  const fraction = (scaled - lower * 100) / 100;
  // The side comes from the record weighing most in the figure: a person's pay moves every figure
  // made mostly of it the same way, whoever stands next to them in each cell.
  readAround(runs, n, lower, moves.anchored, fraction > 0.5 ? lower + 1 : lower);
  const exact = fraction === 0 ? rankValue : rankValue + fraction * (nextValue - rankValue);
  const figure = movedFigure(exact, moves, SLOT_OF[percent]!, floor, ceiling);
  return thinSorted ? keptOff(figure, n, percent, moves, floor, ceiling) : figure;
}

/** The record at `rank`, moved (the median interval's ends). */
function movedRecord(runs: readonly SortedRun[], n: number, rank: number, moves: FigureMoves, half: number): number {
  readAround(runs, n, rank, moves.anchored, rank);
  return movedFigure(rankValue, moves, half, -Infinity, Infinity);
}

/** The seven moved percentiles of the cell being published (queries are synchronous). */
const allSeven = new Float64Array(PERCENTILES.length);
/** Whether the cell being published is thin and thinExact holds its exact amounts. */
let thinSorted = false;
const MIDDLE = PERCENTILES.indexOf(50);
/** Where each percentile sits in allSeven, by its percent. */
const SLOT_OF = new Int8Array(101).fill(-1);
PERCENTILES.forEach((percent, slot) => (SLOT_OF[percent] = slot));

export interface PublishedFigures {
  percentiles: { percentile: MarketPercentile; value: number }[];
  medianUncertainty: MedianUncertainty;
}

/**
 * The figures a published cell shows, each moved off its records: the percentiles asked for (kept in
 * ascending order, as percentiles are) and the median's 95% interval, whose relative error is
 * measured on the moved figures. `moves` null leaves every figure exact (tests and cross-checks only).
 */
export function publishedFigures(runs: readonly SortedRun[], percentiles: readonly MarketPercentile[], moves: FigureMoves | null): PublishedFigures {
  if (moves === null) return exactFigures(runs, percentiles);
  const n = countOfRuns(runs);
  thinSorted = sortThinExact(runs, n);
  // All seven, whichever were asked for: a figure must not depend on the request, or asking for
  // different subsets would give several moves of the same figure to solve for the exact one. The
  // median first, free, then outwards, each kept on its side of the one inside it (percentiles never
  // cross): the median, where differencing and trackers aim, always moves the way its record says.
  allSeven[MIDDLE] = movedPercentile(runs, n, 50, moves, -Infinity, Infinity);
  for (let i = MIDDLE + 1; i < PERCENTILES.length; i++) allSeven[i] = movedPercentile(runs, n, PERCENTILES[i]!, moves, allSeven[i - 1]!, Infinity);
  for (let i = MIDDLE - 1; i >= 0; i--) allSeven[i] = movedPercentile(runs, n, PERCENTILES[i]!, moves, -Infinity, allSeven[i + 1]!);
  if (!thinSorted && moves.anchored) narrowSpread();
  // Published at three significant figures: what a move is cannot be read back from its last digits.
  const published: { percentile: MarketPercentile; value: number }[] = [];
  for (const percentile of percentiles) published.push({ percentile, value: toPrecision(allSeven[SLOT_OF[percentile]!]!, 'nearest') });
  const median = allSeven[MIDDLE]!;
  const ranks = medianIntervalRanks(n);
  const lower = Math.min(movedRecord(runs, n, ranks.lower, moves, SIZE_HALF_OF_INTERVAL_LOWER), median);
  const upper = Math.max(movedRecord(runs, n, ranks.upper, moves, SIZE_HALF_OF_INTERVAL_UPPER), median);
  const shown = toPrecision(median, 'nearest');
  return { percentiles: published, medianUncertainty: intervalOf(shown, toPrecision(lower, 'down'), toPrecision(upper, 'up')) };
}

/** Significant figures every published market figure is rounded to. */
export const PUBLISHED_SIGNIFICANT_FIGURES = 3;
const POWERS = Array.from({ length: 40 }, (_, i) => 10 ** (i - 20));

/**
 * A figure at three significant figures (123,456 → 123,000; 0.012345 → 0.0123): to the nearest, or
 * outward for an interval's ends. Arithmetic, not toPrecision: thousands of figures per request.
 */
export function toPrecision(value: number, direction: 'nearest' | 'down' | 'up'): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const exponent = Math.floor(Math.log10(Math.abs(value))) - (PUBLISHED_SIGNIFICANT_FIGURES - 1);
  const round = direction === 'nearest' ? Math.round : direction === 'down' ? Math.floor : Math.ceil;
  if (exponent < 0) {
    // Divide by a power of ten rather than multiply by its inverse: 123 / 10,000 is 0.0123 exactly as printed.
    const scale = POWERS[20 - exponent] ?? 10 ** -exponent;
    return round(value * scale) / scale;
  }
  const unit = POWERS[20 + exponent] ?? 10 ** exponent;
  return round(value / unit) * unit;
}

/** The exact statistics, for arithmetic tests and the DuckDB cross-check. */
function exactFigures(runs: readonly SortedRun[], percentiles: readonly MarketPercentile[]): PublishedFigures {
  return {
    percentiles: percentiles.map((percentile) => ({ percentile, value: percentileIncOfRuns(runs, percentile) })),
    medianUncertainty: medianUncertainty(runs),
  };
}
