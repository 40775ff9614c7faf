import { createCipheriv, createHmac, type Cipher } from 'node:crypto';
import { PERCENTILES, type MarketPercentile } from '../../reference/catalog/index.js';
import type { MeasureId, ReleaseDimensions } from './participants.js';
import { countOfRuns, keyAtRankOfRuns, percentileInc, percentileIncOfRuns, placeOf, valueAtRankOfRuns, type SortedRun } from './percentile.js';
import { KeyedPrf } from './prf.js';
import type { MarketRelease } from './release.js';
import { intervalOf, medianIntervalRanks, medianUncertainty, type MedianUncertainty } from './uncertainty.js';

/**
 * Disclosure control for published market figures, after the privacy rule has let a cell through:
 * the cell key method of flexible table builders (the Australian Bureau of Statistics' TableBuilder),
 * applied to percentiles. See docs/market-privacy.md.
 *
 * - Every record has a key, a PRF output (AES-256 under a subkey of the 256-bit disclosure key) of
 *   what it is (company, place, family × level × measure, amount), computed when the release is
 *   built; a cell's key is the sum of its records' keys, so the same records give the same key however
 *   the request reached them (order, path, currency, an empty location added), in every release.
 * - Every record is moved when the release is built by its own factor, 1 ± 7.5–13%, drawn from a PRF
 *   of who it is (movedAmount), and the columns are sorted by the moved amounts: every figure is a
 *   percentile of moved pay, and a person moves the same way in every cell and release.
 * - A cell's draws are HMAC-SHA-256 of its key and size. Each figure then moves on by one to three
 *   relative floors (small) on the side its record moved; a thin cell's figure is kept off the exact
 *   one; a dense cell's spread is narrowed by what the moves added. Figures are published at three
 *   significant figures, intervals rounded outward; counts are rounded to multiples of five by a keyed draw.
 * - Asking again gives the same figure (the key is the same), so repeating a request averages
 *   nothing away; converting to another currency converts the same moved figure.
 */

/** The 256-bit subkeys of one disclosure key, each for one use (domain separation). */
function subkey(key: Uint8Array, purpose: string): Buffer {
  return createHmac('sha256', key).update(`paybench market disclosure: ${purpose}`).digest();
}

/** A 32-bit PRF tag of an identifier (a company, place, family × level × measure), stable across releases. */
function tagOf(tags: Buffer, what: string): number {
  return createHmac('sha256', tags).update(what).digest().readInt32LE(0);
}

/** Records keyed per AES call: one update of 128 KiB. */
const KEY_BATCH = 4096;
/** 'whom', marking the identity block (in its family × level × measure tag's place), which a tag cannot be told from otherwise. */
const IDENTITY_BLOCK = 0x77686f6d;
/**
 * 'prsn', marking the identity block of a record known by its person tag rather than its rank: the
 * tag and the measure alone, so the move follows the person to another place, family or level.
 */
const PERSON_BLOCK = 0x7072736e;

/**
 * A participant's person tag: HMAC-SHA-256 under a subkey of the disclosure key of its company's id
 * and its employee's id, 32 bits, never 0 (0 is "unknown"). Stable across releases, so a person's
 * move is the same in each; nothing outside the server can compute or invert it.
 */
export function personTag(key: Uint8Array, companyId: string, employeeId: string): number {
  return createHmac('sha256', subkey(key, 'participant persons')).update(`${companyId}\u0000${employeeId}`).digest().readInt32LE(0) || 1;
}

/**
 * Each record's own move, applied when the release is built (docs/market-privacy.md, moving records):
 * its amount is multiplied by 1 ± (RECORD_MOVE_LEAST … RECORD_MOVE_MOST), the side and the size drawn
 * from a PRF of who the record is, not of its amount, so the same person moves the same way in every
 * cell and every release, and nothing a colluder knows about anyone else tells them how far the
 * target moved. Every figure is then made of moved amounts.
 */
export const RECORD_MOVE_LEAST = 0.075;
export const RECORD_MOVE_MOST = 0.13;

/**
 * The moved amount of a record from its identity draw (32 bits: bit 0 the side, 1 down; bits 16 … 31
 * the size). Its parity is its side, so records that end at one moved amount move a figure made of
 * them the same way whichever of them a read path puts at the figure's rank. Zero stays zero.
 */
export function movedAmount(amount: number, draw: number): number {
  if (amount <= 0) return amount;
  const down = draw & 1;
  const size = RECORD_MOVE_LEAST + ((draw >>> 16) / 65536) * (RECORD_MOVE_MOST - RECORD_MOVE_LEAST);
  const moved = amount * (down === 1 ? 1 - size : 1 + size);
  return Math.min(2 ** 31 - 1 - 1, 2 * Math.floor(moved / 2)) + down;
}

/**
 * Record keys and record moves of one amount column, computed while the release is built: AES-256
 * (a PRP, so a PRF on one 16-byte block, as AES-CMAC-PRF is) under a subkey of the disclosure key of
 * two blocks per record. The first, the record's company tag, place tag, family × level × measure tag
 * and amount, gives its key (which cells sum); the second gives its move (movedAmount): the person's
 * tag and the measure's, or for a record without one (generated, or stored before tags) the same
 * tags as the key and its rank among its company's records of that place and family × level (by
 * amount). Either is a person's identity, which a pay rise or the aging of pay between builds does
 * not change. The
 * key's lowest bit is then the moved amount's side. The tags are HMAC-SHA-256 of the identifiers, so
 * an unchanged record has the same key and move in every release. Batched through one cipher: ten
 * million records cost seconds, not the minutes one HMAC each would.
 */
export class RecordKeyer {
  private readonly tags: Buffer;
  private readonly recordSubkey: Buffer;
  private cipher: Cipher;
  private readonly companyTags: Int32Array;
  private readonly places: readonly string[];
  private readonly placeTags: Int32Array;
  private readonly placeTagged: Uint8Array;
  private readonly families: readonly string[];
  private readonly levelIds: readonly string[];
  private readonly groupTags: Int32Array;
  private readonly groupTagged: Uint8Array;
  private readonly levels: number;
  private measure: MeasureId = 'base';
  private measureTag = 0;
  private readonly batch = Buffer.alloc(KEY_BATCH * 32);
  private pending = 0;
  private written = 0;
  private out: Int32Array = new Int32Array(0);
  private draws: Int32Array = new Int32Array(0);

  constructor(key: Uint8Array, of: { dimensions: ReleaseDimensions; companyIds: readonly string[] }) {
    this.tags = subkey(key, 'identifier tags');
    this.recordSubkey = subkey(key, 'record keys');
    this.cipher = this.newCipher();
    this.companyTags = Int32Array.from(of.companyIds, (id) => tagOf(this.tags, `company ${id}`));
    // Tags of places and family × level are made when a record first needs them: a release names 256 places and hundreds of jobs.
    this.places = of.dimensions.locations;
    this.placeTags = new Int32Array(this.places.length);
    this.placeTagged = new Uint8Array(this.places.length);
    this.families = of.dimensions.families;
    this.levelIds = of.dimensions.levels;
    this.levels = of.dimensions.levels.length;
    this.groupTags = new Int32Array(this.families.length * this.levels);
    this.groupTagged = new Uint8Array(this.families.length * this.levels);
  }

  /** Starts the keys (into `out`) and identity draws (into `draws`, see movedAmount) of one amount column. */
  column(measure: MeasureId, out: Int32Array, draws: Int32Array): void {
    this.measure = measure;
    this.measureTag = tagOf(this.tags, `measure ${measure}`);
    this.groupTagged.fill(0);
    this.out = out;
    this.draws = draws;
    this.written = 0;
    this.pending = 0;
  }

  private newCipher(): Cipher {
    return createCipheriv('aes-256-ecb', this.recordSubkey, null).setAutoPadding(false);
  }

  private placeTag(location: number): number {
    if (this.placeTagged[location] === 0) {
      this.placeTags[location] = tagOf(this.tags, `place ${this.places[location]}`);
      this.placeTagged[location] = 1;
    }
    return this.placeTags[location]!;
  }

  private groupTag(family: number, level: number): number {
    const group = family * this.levels + level;
    if (this.groupTagged[group] === 0) {
      this.groupTags[group] = tagOf(this.tags, `${this.measure} ${this.families[family]} ${this.levelIds[level]}`);
      this.groupTagged[group] = 1;
    }
    return this.groupTags[group]!;
  }

  /**
   * A record: `rank` is its place among its company's records of this place and family × level, by
   * amount; `person` its person tag (personTag), 0 when unknown. A record with a person tag draws its
   * move from it and the measure, not from its rank or where it sits: colleagues joining, leaving or
   * passing it in pay change nothing, nor does the person's move to another place, family or level.
   */
  add(record: { family: number; level: number; company: number; location: number; amount: number; rank: number; person: number }): void {
    const at = this.pending * 32;
    const group = this.groupTag(record.family, record.level);
    const company = this.companyTags[record.company]!;
    const place = this.placeTag(record.location);
    this.batch.writeInt32LE(company, at);
    this.batch.writeInt32LE(place, at + 4);
    this.batch.writeInt32LE(group, at + 8);
    this.batch.writeInt32LE(record.amount | 0, at + 12);
    if (record.person === 0) {
      this.batch.writeInt32LE(company, at + 16);
      this.batch.writeInt32LE(place, at + 20);
      this.batch.writeInt32LE(IDENTITY_BLOCK, at + 24);
      this.batch.writeInt32LE((group ^ Math.imul(record.rank, 0x9e3779b1)) | 0, at + 28);
    } else {
      // The company's code is left out: participants are numbered afresh in every release; the tag holds the company.
      this.batch.writeInt32LE(record.person, at + 16);
      this.batch.writeInt32LE(this.measureTag, at + 20);
      this.batch.writeInt32LE(PERSON_BLOCK, at + 24);
      this.batch.writeInt32LE(0, at + 28);
    }
    if (++this.pending === KEY_BATCH) this.flush();
  }

  finish(): void {
    this.flush();
    this.cipher.final();
    this.cipher = this.newCipher();
  }

  private flush(): void {
    if (this.pending === 0) return;
    const sealed = this.cipher.update(this.batch.subarray(0, this.pending * 32));
    for (let i = 0; i < this.pending; i++) {
      this.draws[this.written] = sealed.readInt32LE(i * 32 + 16);
      this.out[this.written++] = sealed.readInt32LE(i * 32);
    }
    this.pending = 0;
  }
}

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

/** A number in [0, 1) from the 16-bit half `half` (0 … 15) of the cell's draws. */
function draw(draws: Int32Array, half: number): number {
  const word = draws[half >>> 1]!;
  return ((half & 1) === 0 ? word & 0xffff : word >>> 16) / 65536;
}

/** Which half of the draws sizes each figure: the percentile's slot, the interval's ends after. */
const SIZE_HALF_OF_INTERVAL_LOWER = 7;
const SIZE_HALF_OF_INTERVAL_UPPER = 8;
/** Halves 9 … 15 give the side of figures without a record key (a per-company factor); 15 the counts. */
const SIDE_HALF = 9;
const COUNT_HALF = 15;

/** Published counts are multiples of this: a difference of one person or one company is never published. */
export const COUNT_BASE = 5;

/**
 * Each record's own weight in published head counts, on top of its 1 (docs/market-privacy.md,
 * counts): ±1.25 … 3 records in quarters, from four bits of the record's identity draw of base pay
 * (who it is, not its amount or the amount asked for), kept in the top four bits of its record key in
 * every column. A cell's head count is published from its records plus their weights, so two cells
 * that differ by one person differ, before rounding, by 1 plus that person's weight, the same in every
 * cell, request and release: averaging any number of differenced pairs converges on 1 + weight
 * (−2 … −0.25 or 2.25 … 4), never on 1. The record's 1 is the count; the weight is what no average removes.
 */
export const COUNT_WEIGHT_QUARTERS = Int8Array.from({ length: 16 }, (_, bits) => ((bits & 8) === 0 ? 1 : -1) * (5 + (bits & 7)));

/** The four count-weight bits of an identity draw (bits 1 … 4: movedAmount reads bit 0 and bits 16 … 31). */
export function countWeightBits(draw: number): number {
  return (draw >>> 1) & 15;
}

/** A record key's count weight in quarters (its top four bits). */
export const countWeightOf = (recordKey: number): number => COUNT_WEIGHT_QUARTERS[recordKey >>> 28]!;

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
