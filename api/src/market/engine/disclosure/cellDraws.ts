import { KeyedPrf } from '../prf.js';
import type { MarketRelease } from '../release.js';
import { subkey } from './recordKeys.js';

/**
 * What a published cell draws (disclosure control: recordKeys.ts, docs/market-privacy.md): the
 * release's disclosure key, the cell's draws and how far its figures move, and its published counts.
 *
 * - A cell's draws are HMAC-SHA-256 of its key and size. Each figure then moves on by one to three
 *   relative floors (small) on the side its record moved; a thin cell's figure is kept off the exact
 *   one; a dense cell's spread is narrowed by what the moves added. Figures are published at three
 *   significant figures, intervals rounded outward; counts are rounded to multiples of five by a keyed draw.
 * - Asking again gives the same figure (the key is the same), so repeating a request averages
 *   nothing away; converting to another currency converts the same moved figure.
 */

/**
 * What a release's cells draw with: HMAC-SHA-256 under the cell subkey of the release's disclosure
 * key, and the draws of cells asked lately (2^14 slots of: filled, key sum, records, eight words).
 */
const prfs = new WeakMap<MarketRelease, { prf: KeyedPrf; cache: Int32Array }>();
const DRAW_CACHE_BITS = 14;
const DRAW_SLOT = 11;

/**
 * Registers the disclosure key a release was built with (the release itself never holds it). The
 * server derives it from its secrets key, the same for every release (see releases.ts); a release
 * built in a test or a benchmark gets a random one. Without it no draw can be computed or searched:
 * record keys and draws are PRF outputs under 256-bit keys.
 */
export function registerDisclosureKey(release: MarketRelease, key: Uint8Array): void {
  prfs.set(release, { prf: new KeyedPrf(subkey(key, 'cell draws')), cache: new Int32Array(2 ** DRAW_CACHE_BITS * DRAW_SLOT) });
}

function drawsOf(release: MarketRelease): { prf: KeyedPrf; cache: Int32Array } {
  const known = prfs.get(release);
  if (!known) throw new Error(`Release ${release.id} has no disclosure key`);
  return known;
}

/** 'cell', as a message word: keeps cell draws apart from any other use of the subkey. */
const CELL_DRAW = 0x63656c6c;

/**
 * The relative floor of a figure's move on top of its records' own moves: a small share of the figure,
 * larger the fewer records stand outside the cell's four largest companies: 0.4% with 3 or fewer
 * outside, 0.12% with 10, never under 0.02%. The records' moves (movedAmount) are what protect a
 * person; this keeps a figure off the exact moved amount of the record it is made of.
 */
export function relativeFloor(outsideFour: number): number {
  return Math.min(MAX_RELATIVE_FLOOR, Math.max(MIN_RELATIVE_FLOOR, 0.012 / Math.max(1, outsideFour)));
}
export const MAX_RELATIVE_FLOOR = 0.004;
const MIN_RELATIVE_FLOOR = 0.0002;

/**
 * How a published cell's figures are moved (see FigureMoves): the cell's draws are one HMAC-SHA-256
 * of its records' keys summed and its size, so the same records draw the same moves in every request
 * and every release, and any other set of records draws independent ones.
 */
export function figureMoves(release: MarketRelease, cell: { keySum: number; records: number; outsideFour: number; anchored: boolean }): FigureMoves {
  const known = drawsOf(release);
  // A cell asked before reads its draws back: the HMAC is most of a cell's cost.
  const slot = (Math.imul(cell.keySum ^ Math.imul(cell.records, 0x9e3779b1), 0x85ebca6b) >>> (32 - DRAW_CACHE_BITS)) * DRAW_SLOT;
  const cache = known.cache;
  if (cache[slot] === 1 && cache[slot + 1] === cell.keySum && cache[slot + 2] === cell.records) {
    cellMoves.draws.set(cache.subarray(slot + 3, slot + DRAW_SLOT));
  } else {
    const prf = known.prf;
    prf.message[0] = CELL_DRAW;
    prf.message[1] = cell.keySum;
    prf.message[2] = cell.records;
    prf.digest(3);
    cellMoves.draws.set(prf.out);
    cache[slot] = 1;
    cache[slot + 1] = cell.keySum;
    cache[slot + 2] = cell.records;
    cache.set(prf.out, slot + 3);
  }
  // One object reused: queries are synchronous and a cell's moves are used before the next cell's.
  cellMoves.anchored = cell.anchored;
  cellMoves.relative = relativeFloor(cell.outsideFour);
  cellMoves.thin = thinFloor(cell.outsideFour);
  return cellMoves;
}

const cellMoves: FigureMoves = { draws: new Int32Array(8), anchored: true, relative: 0, thin: 0 };

/**
 * How far a figure of a thin cell stays from the exact figure at least, as a share of it: 6% with 3
 * or fewer records outside the four largest companies, 1.8% with 10, 0.6% with 30. Moved records can
 * change places: a neighbour's moved pay can land on a person's own, so a thin cell's figures are
 * also kept off the exact ones (by this and an eighth of the span of the exact records around them).
 */
export function thinFloor(outsideFour: number): number {
  return Math.min(0.06, 0.18 / Math.max(1, outsideFour));
}

/**
 * What a figure is moved with: the cell's draws (how far), whether the runs hold record keys (the
 * side then comes from the key of the record the figure is made of, so that a person standing at a
 * figure moves it the same way in every cell and release; else from the draws), and the relative
 * floor of the move.
 */
export interface FigureMoves {
  draws: Int32Array;
  /** Whether the runs hold stored amounts with their record keys (false where a per-company factor made new values). */
  anchored: boolean;
  /** The least move as a share of the figure (relativeFloor). */
  relative: number;
  /** In a thin cell, how far a figure stays from the exact one at least, as a share of it (thinFloor). */
  thin: number;
}

/** A number in [0, 1) from the 16-bit half `half` (0 … 15) of the cell's draws. */
export function draw(draws: Int32Array, half: number): number {
  const word = draws[half >>> 1]!;
  return ((half & 1) === 0 ? word & 0xffff : word >>> 16) / 65536;
}

/** Which half of the draws sizes each figure: the percentile's slot, the interval's ends after. */
export const SIZE_HALF_OF_INTERVAL_LOWER = 7;
export const SIZE_HALF_OF_INTERVAL_UPPER = 8;
/** Halves 9 … 15 give the side of figures without a record key (a per-company factor); 15 the counts. */
export const SIDE_HALF = 9;
const COUNT_HALF = 15;

/** Published counts are multiples of this: a difference of one person or one company is never published. */
export const COUNT_BASE = 5;

/**
 * Published counts, by the cell key method for counts as keyed random rounding: the head count plus
 * its records' weights (`weight`, in quarters of a record, COUNT_WEIGHT_QUARTERS; 0 where none are
 * kept) is rounded to a multiple of COUNT_BASE, up with a chance of its remainder ÷ COUNT_BASE, the
 * offset drawn from the cell's draws, so the same records give the same counts in every request and
 * release; never below the rule's minimums. Two cells that differ by one person or one company
 * publish counts that differ by 0 or a multiple of five, never by one, and many such pairs averaged
 * give 1 plus the person's weight, not 1.
 */
export function perturbedCounts(moves: FigureMoves, counts: { companies: number; employees: number; weight: number }, minimums: { companies: number; employees: number }): { companies: number; employees: number } {
  const word = moves.draws[COUNT_HALF >>> 1]! >>> 16;
  const weighted = counts.employees + counts.weight / 4;
  const employees = Math.max(minimums.employees, COUNT_BASE * Math.floor((weighted + COUNT_BASE * ((word & 0xfff) / 4096)) / COUNT_BASE));
  const companies = Math.max(minimums.companies, roundedToBase(counts.companies, Math.floor(word / COUNT_BASE) % COUNT_BASE));
  return { companies, employees };
}

/** The multiple of COUNT_BASE at or below count + offset (offset 0 … COUNT_BASE − 1). */
function roundedToBase(count: number, offset: number): number {
  return COUNT_BASE * Math.floor((count + offset) / COUNT_BASE);
}
