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

/** Per record: its key, from what the record is (wraps around in 32 bits). */
export function recordKey(amount: number, company: number, location: number): number {
  // Two multiplications: this runs for every record a query reads. Quality matters little, since
  // the sum is mixed with the secret before it draws anything (cellKey).
  return Math.imul(amount ^ 0x5bd1e995, 0xcc9e2d51) ^ Math.imul((company << 8) | location, 0x1b873593);
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

/** The records around rank `rank` (0-based, fractional for a blend): from the one below to the second above. */
function spanAround(runs: readonly SortedRun[], n: number, rank: number): number {
  const lower = Math.floor(rank);
  const below = valueAtRankOfRuns(runs, Math.max(0, lower - 1));
  const above = valueAtRankOfRuns(runs, Math.min(n - 1, lower + 2));
  return above - below;
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

/** Which way the figure made of record `rank` moves: down when true. */
function sideOf(runs: readonly SortedRun[], rank: number, moves: FigureMoves, figure: number): boolean {
  const bits = moves.anchored ? finish(Math.imul(storedAtRankOfRuns(runs, rank) | 0, 0x2c1b3c6d) ^ moves.secret) : moves.cell;
  return (finish(bits ^ Math.imul(figure + 1, 0x165667b1)) & 1) === 1;
}

/**
 * A figure of the cell at `rank`, moved, within [floor, ceiling]; amounts are never negative, so
 * neither is a moved one.
 */
function moved(runs: readonly SortedRun[], n: number, rank: number, exact: number, moves: FigureMoves, figure: number, floor: number, ceiling: number): number {
  const span = spanAround(runs, n, rank);
  if (span === 0) return Math.min(Math.max(exact, floor), ceiling);
  const down = sideOf(runs, Math.floor(rank), moves, figure);
  return land(exact, span, Math.max(floor, exact >= 0 ? 0 : -Infinity), ceiling, down, draw(moves.cell, figure));
}

/** The seven moved percentiles of the cell being published (queries are synchronous). */
const allSeven = new Float64Array(PERCENTILES.length);

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
  const figure = (percent: number, floor: number, ceiling: number) => {
    const exact = percentileIncOfRuns(runs, percent);
    return moved(runs, n, ((n - 1) * percent) / 100, exact, moves, percent, floor, ceiling);
  };
  // All seven, whichever were asked for: a figure must not depend on the request, or asking for
  // different subsets would give several moves of the same figure to solve for the exact one. The
  // median first, free, then outwards, each kept on its side of the one inside it (percentiles never
  // cross): the median, where differencing and trackers aim, always moves the way its record says.
  const middle = PERCENTILES.indexOf(50);
  allSeven[middle] = figure(50, -Infinity, Infinity);
  for (let i = middle + 1; i < PERCENTILES.length; i++) allSeven[i] = figure(PERCENTILES[i]!, allSeven[i - 1]!, Infinity);
  for (let i = middle - 1; i >= 0; i--) allSeven[i] = figure(PERCENTILES[i]!, -Infinity, allSeven[i + 1]!);
  const published = percentiles.map((percentile) => ({ percentile, value: allSeven[PERCENTILES.indexOf(percentile)]! }));
  const median = allSeven[PERCENTILES.indexOf(50)]!;
  const ranks = medianIntervalRanks(n);
  const end = (rank: number, tag: number) => moved(runs, n, rank, valueAtRankOfRuns(runs, rank), moves, tag, -Infinity, Infinity);
  const lower = Math.min(end(ranks.lower, INTERVAL_LOWER), median);
  const upper = Math.max(end(ranks.upper, INTERVAL_UPPER), median);
  return { percentiles: published, medianUncertainty: intervalOf(median, lower, upper) };
}

/** The exact statistics, for arithmetic tests and the DuckDB cross-check. */
function exactFigures(runs: readonly SortedRun[], percentiles: readonly MarketPercentile[]): PublishedFigures {
  return {
    percentiles: percentiles.map((percentile) => ({ percentile, value: percentileIncOfRuns(runs, percentile) })),
    medianUncertainty: medianUncertainty(runs),
  };
}
