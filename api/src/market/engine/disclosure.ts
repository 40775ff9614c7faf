import { randomInt } from 'node:crypto';
import { PERCENTILES, type MarketPercentile } from '../catalog/index.js';
import { countOfRuns, percentileIncOfRuns, storedAtRankOfRuns, valueAtRankOfRuns, type SortedRun } from './percentile.js';
import type { MarketRelease } from './release.js';
import { intervalOf, medianIntervalRanks, medianUncertainty, type MedianUncertainty } from './uncertainty.js';

/**
 * Disclosure control for published market figures, after the privacy rule has let a cell through:
 * the cell key method of flexible table builders (the Australian Bureau of Statistics' TableBuilder),
 * applied to percentiles. See docs/market-privacy.md.
 *
 * - Every record has a key, a hash of what it is (amount, company, location); a cell's key is the sum
 *   of its records' keys, so the same records give the same key however the request reached them
 *   (order, path, currency, an empty location added) and any other set of records another key.
 * - Each published figure is a record or a blend of two neighbouring records of the sorted cell. It
 *   is moved by a deterministic amount drawn from the cell key and a secret: at least an eighth and
 *   at most a half of the span of the records around it (the one below to the second above). The
 *   figure then no longer equals any record, and two cells that differ by one person differ by
 *   noise as large as the gaps around that person: differencing them does not give the person's pay.
 * - Asking again gives the same figure (the key is the same), so repeating a request averages
 *   nothing away; converting to another currency moves the figure by the same share of its span.
 *
 * Where records are dense the span is small and so is the move (a large cell moves by a fraction of
 * a percent); where they are sparse — small cells, the tails — the move is as large as the gaps, which
 * is also how uncertain such a figure is.
 */

/**
 * Per record: its key, from what the record is (wraps around in 32 bits): its amount, and its
 * company and location as whoOf packs them (company × 256 + location).
 */
export function recordKey(amount: number, who: number): number {
  // Two multiplications: this runs for every record a query reads. Quality matters little, since
  // the sum is mixed with the secret before it draws anything (cellKey).
  return Math.imul(amount ^ 0x5bd1e995, 0xcc9e2d51) ^ Math.imul(who, 0x1b873593);
}

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const secrets = new WeakMap<MarketRelease, number>();

/**
 * The secret a served release's figures are moved with: the same on every node (derived from the
 * secrets key), never published. A release without one (built in a test or a benchmark) gets a
 * random secret for the life of the process.
 */
export function setDisclosureSecret(release: MarketRelease, secret: number): void {
  secrets.set(release, secret >>> 0);
}

function secretOf(release: MarketRelease): number {
  let secret = secrets.get(release);
  if (secret === undefined) {
    secret = randomInt(0, 2 ** 32);
    secrets.set(release, secret);
  }
  return secret;
}

/** The key of a cell: its records' keys summed, with how many there are and the release's secret. */
export function cellKey(release: MarketRelease, recordKeySum: number, records: number): number {
  return finish(finish(recordKeySum ^ secretOf(release)) ^ Math.imul(records + 1, 0x9e3779b1));
}

/** How a published cell's figures are moved (see FigureMoves). */
export function figureMoves(release: MarketRelease, recordKeySum: number, records: number, anchored: boolean): FigureMoves {
  return { cell: cellKey(release, recordKeySum, records), secret: secretOf(release), anchored };
}

/** A number in [0, 1) drawn from the cell key for one figure of the cell. */
function draw(key: number, figure: number): number {
  return finish(key ^ Math.imul(figure + 1, 0x27d4eb2f)) / 2 ** 32;
}

/**
 * Where a figure lands: down (true) or up, at `at` of the way from an eighth to a half of its span
 * off the exact value, within [floor, ceiling] (its neighbouring figures, so that percentiles stay in
 * order). When its side has no room left it goes the other way; when neither has, it is the exact
 * value held within the bounds. Plain arithmetic: thousands of cells go through here per request.
 */
function land(exact: number, span: number, floor: number, ceiling: number, down: boolean, at: number): number {
  const belowFrom = Math.max(exact - span / 2, floor);
  const belowTo = Math.min(exact - span / 8, ceiling);
  const aboveFrom = Math.max(exact + span / 8, floor);
  const aboveTo = Math.min(exact + span / 2, ceiling);
  const below = belowTo > belowFrom ? belowTo - belowFrom : 0;
  const above = aboveTo > aboveFrom ? aboveTo - aboveFrom : 0;
  if (below + above === 0) return Math.min(Math.max(exact, floor), ceiling);
  if ((down && below > 0) || above === 0) return belowTo - at * below;
  return aboveFrom + at * above;
}

/**
 * What a figure is moved with. `cell` (the cell key) draws how far; `side` says which way: drawn
 * from the stored amount of the record the figure is made of (the lower one of a blend) and the
 * secret, so that a person standing at a figure in many cells moves it the same way in all of them.
 */
export interface FigureMoves {
  cell: number;
  secret: number;
  /** Whether the runs hold stored amounts (false where a per-company factor made new values: then the cell key draws the side too). */
  anchored: boolean;
}

/**
 * The records around one rank of the cell being published, read once per figure: the one below,
 * the rank itself, the next and the second above (each clamped to the cell), and the stored amount
 * at the rank. Module scratch rather than a returned object: thousands of figures per request.
 */
let belowValue = 0;
let rankValue = 0;
let nextValue = 0;
let aboveValue = 0;
let storedValue = 0;

function readAround(runs: readonly SortedRun[], n: number, lower: number, anchored: boolean): void {
  const below = lower > 0 ? lower - 1 : 0;
  const next = lower + 1 < n ? lower + 1 : n - 1;
  const above = lower + 2 < n ? lower + 2 : n - 1;
  if (runs.length === 1) {
    // One run (a whole country, or one currency): the ranks are positions.
    const { values, from, divisor, scale } = runs[0]!;
    storedValue = values[from + lower]!;
    if (divisor === 1 && scale === 1) {
      belowValue = values[from + below]!;
      rankValue = storedValue;
      nextValue = values[from + next]!;
      aboveValue = values[from + above]!;
    } else {
      // As valueAt in percentile.ts: converted where read.
      belowValue = (values[from + below]! / divisor) * scale;
      rankValue = (storedValue / divisor) * scale;
      nextValue = (values[from + next]! / divisor) * scale;
      aboveValue = (values[from + above]! / divisor) * scale;
    }
    return;
  }
  if (runs.length === 2) {
    readAroundOfTwo(runs[0]!, runs[1]!, below, lower, next, above, anchored);
    return;
  }
  belowValue = valueAtRankOfRuns(runs, below);
  rankValue = valueAtRankOfRuns(runs, lower);
  nextValue = valueAtRankOfRuns(runs, next);
  aboveValue = valueAtRankOfRuns(runs, above);
  storedValue = anchored ? storedAtRankOfRuns(runs, lower) : 0;
}

/** A value of a run as percentile.ts reads it: converted where read. */
function valueOf(run: SortedRun, index: number): number {
  const value = run.values[index]!;
  return run.divisor === 1 && run.scale === 1 ? value : (value / run.divisor) * run.scale;
}

/**
 * readAround over two runs (two currencies): one binary search finds how many of the `below`
 * smallest values lie in each run, and the ranks up to `above` follow by merging a few steps (ties
 * taken from the first run). The stored amount at `lower` is that of the first run holding its value,
 * as storedAtRankOfRuns says.
 */
function readAroundOfTwo(a: SortedRun, b: SortedRun, below: number, lower: number, next: number, above: number, anchored: boolean): void {
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
  for (let rank = below; rank <= above; rank++) {
    const fromA = j >= sizeB || (i < sizeA && valueOf(a, a.from + i) <= valueOf(b, b.from + j));
    const value = fromA ? valueOf(a, a.from + i) : valueOf(b, b.from + j);
    if (rank === lower) {
      rankValue = value;
      if (anchored) {
        if (fromA) storedValue = a.values[a.from + i]!;
        else storedValue = i > 0 && valueOf(a, a.from + i - 1) === value ? a.values[a.from + i - 1]! : b.values[b.from + j]!;
      } else storedValue = 0;
    }
    if (rank === below) belowValue = value;
    if (rank === next) nextValue = value;
    if (rank === above) aboveValue = value;
    if (fromA) i++;
    else j++;
  }
}

/**
 * The figure at the rank readAround last read (exact value `exact`), moved within [floor, ceiling]:
 * by the span from the record below to the second above, the side from the stored amount at the
 * rank; amounts are never negative, so neither is a moved one.
 */
function movedFigure(exact: number, moves: FigureMoves, figure: number, floor: number, ceiling: number): number {
  const span = aboveValue - belowValue;
  if (span === 0) return Math.min(Math.max(exact, floor), ceiling);
  const bits = moves.anchored ? finish(Math.imul(storedValue | 0, 0x2c1b3c6d) ^ moves.secret) : moves.cell;
  const down = (finish(bits ^ Math.imul(figure + 1, 0x165667b1)) & 1) === 1;
  return land(exact, span, Math.max(floor, exact >= 0 ? 0 : -Infinity), ceiling, down, draw(moves.cell, figure));
}

/** Percentile `percent` of the n records, moved within [floor, ceiling] (PERCENTILE.INC, as percentileIncOfRuns). */
function movedPercentile(runs: readonly SortedRun[], n: number, percent: number, moves: FigureMoves, floor: number, ceiling: number): number {
  const scaled = (n - 1) * percent;
  const lower = Math.floor(scaled / 100);
  const fraction = (scaled - lower * 100) / 100;
  readAround(runs, n, lower, moves.anchored);
  const exact = fraction === 0 ? rankValue : rankValue + fraction * (nextValue - rankValue);
  return movedFigure(exact, moves, percent, floor, ceiling);
}

/** The record at `rank`, moved (the median interval's ends). */
function movedRecord(runs: readonly SortedRun[], n: number, rank: number, moves: FigureMoves, figure: number): number {
  readAround(runs, n, rank, moves.anchored);
  return movedFigure(rankValue, moves, figure, -Infinity, Infinity);
}

/** The seven moved percentiles of the cell being published (queries are synchronous). */
const allSeven = new Float64Array(PERCENTILES.length);
const MIDDLE = PERCENTILES.indexOf(50);
/** Where each percentile sits in allSeven, by its percent. */
const SLOT_OF = new Int8Array(101).fill(-1);
PERCENTILES.forEach((percent, slot) => (SLOT_OF[percent] = slot));

/** Figure tags of the median interval's ends, apart from the percentiles' own (their percent). */
const INTERVAL_LOWER = 101;
const INTERVAL_UPPER = 102;

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
  // All seven, whichever were asked for: a figure must not depend on the request, or asking for
  // different subsets would give several moves of the same figure to solve for the exact one. The
  // median first, free, then outwards, each kept on its side of the one inside it (percentiles never
  // cross): the median, where differencing and trackers aim, always moves the way its record says.
  allSeven[MIDDLE] = movedPercentile(runs, n, 50, moves, -Infinity, Infinity);
  for (let i = MIDDLE + 1; i < PERCENTILES.length; i++) allSeven[i] = movedPercentile(runs, n, PERCENTILES[i]!, moves, allSeven[i - 1]!, Infinity);
  for (let i = MIDDLE - 1; i >= 0; i--) allSeven[i] = movedPercentile(runs, n, PERCENTILES[i]!, moves, -Infinity, allSeven[i + 1]!);
  const published: { percentile: MarketPercentile; value: number }[] = [];
  for (const percentile of percentiles) published.push({ percentile, value: allSeven[SLOT_OF[percentile]!]! });
  const median = allSeven[MIDDLE]!;
  const ranks = medianIntervalRanks(n);
  const lower = Math.min(movedRecord(runs, n, ranks.lower, moves, INTERVAL_LOWER), median);
  const upper = Math.max(movedRecord(runs, n, ranks.upper, moves, INTERVAL_UPPER), median);
  return { percentiles: published, medianUncertainty: intervalOf(median, lower, upper) };
}

/** The exact statistics, for arithmetic tests and the DuckDB cross-check. */
function exactFigures(runs: readonly SortedRun[], percentiles: readonly MarketPercentile[]): PublishedFigures {
  return {
    percentiles: percentiles.map((percentile) => ({ percentile, value: percentileIncOfRuns(runs, percentile) })),
    medianUncertainty: medianUncertainty(runs),
  };
}
