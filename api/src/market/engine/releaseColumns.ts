import { countWeightBits, countWeightOf, movedAmount, type RecordKeyer } from './disclosure/recordKeys.js';
import { MEASURE_IDS, type MeasureId } from './participants.js';
import type { MarketRelease, ReleaseRecords } from './release.js';

/**
 * The layout of a release's amount columns (MeasureColumn) and how one is made: sorted per (group,
 * run) by moved amount with its record keys, slice statistics and run sums beside it, and the same
 * column sorted by exact amount for queries with disclosure off (exactRelease).
 */

/** A record's company and location in one number (company × 256 + location), as record keys read them. */
export function whoOf(company: number, location: number): number {
  return ((company << 8) | location) >>> 0;
}

/** Companies a release may hold: whoOf keeps 24 bits for the company. */
export const MAX_COMPANIES = 2 ** 24;

/**
 * One amount column, grouped and sorted: the records of group g in run k holding this amount are at
 * places offsets[g × runs + k] .. offsets[g × runs + k + 1] of the column, ascending by amount. A run
 * is one country's places, in its currency (see MarketRelease.runCurrencies). Their amount, company,
 * location and founder type sit at the same places, so a query reads each (group, run) as sequential
 * streams, already sorted, and skips the runs it does not need.
 */
export interface MeasureColumn {
  readonly offsets: Uint32Array;
  /** Each record's moved amount (disclosure/recordKeys.ts, movedAmount), ascending per (group, run): what figures are made of. */
  readonly values: Int32Array;
  /** The exact amount at each place, for exact arithmetic (exactRelease) and cross-checks; never published. */
  readonly exact: Int32Array;
  /**
   * Company and location of each place, packed (whoOf): one read where a selective filter's records
   * lie scattered over the column, instead of two.
   */
  readonly who: Uint32Array;
  /** Founder type code of each place (0 when not recorded), for the founder filter of E9. */
  readonly founder: Uint8Array;
  /**
   * Where every record in physical order sits in this column (its index j above), or NOT_IN_COLUMN
   * when it has no amount: selective filters mark their records' positions and read them back in
   * sorted order, so their values come out sorted without sorting anything.
   */
  readonly position: Uint32Array;
  /**
   * Sample of whole slices, computed once: for group g and a set of the release's first sliceRuns
   * runs (bit k for run k), its distinct companies at [(g × 2^sliceRuns + set) × SLICE_STATS], the
   * records of its largest company at the next index and those of its four largest at the one after.
   */
  readonly sliceStats: Uint32Array;
  /**
   * Each place's record key (disclosure/recordKeys.ts): a keyed PRF of the record's company, place, family,
   * level, amount and measure, computed once when the release is built, never published. Its top
   * four bits are the record's count weight (COUNT_WEIGHT_QUARTERS), the same in every column.
   */
  readonly keys: Int32Array;
  /** Per (group, run): its records' keys summed in 32 bits (see disclosure/recordKeys.ts), for whole slices. */
  readonly runKeys: Int32Array;
  /** Per (group, run): its records of generated (demo) companies, for whole slices. */
  readonly runSynthetic: Uint32Array;
  /** Per (group, run): its records' count weights summed, in quarters (disclosure/cellDraws.ts, perturbedCounts), for whole slices. */
  readonly runWeights: Int32Array;
  /**
   * Per (group, run): the sum of its values as stored (whole numbers, so exact in a double and the
   * same in any order), for the pay-mass checks of whole slices (payMass.ts): a cell's total pay is
   * read from here instead of a pass over its records in every request.
   */
  readonly runPay: Float64Array;
}

/** MeasureColumn.position of a record without this amount. */
export const NOT_IN_COLUMN = 0xffffffff;

/** Numbers per group × set in MeasureColumn.sliceStats. */
export const SLICE_STATS = 3;

/** Slice statistics cover every set of the first runs, up to this many (2^6 sets per group). */
export const MAX_SLICE_RUNS = 6;

// Sort keys pack amount and in-group position into one double: exact while amount < 2^31 and position < 2^22.
export const POSITION_BITS = 2 ** 22;

export interface SortLayout {
  physical: Uint32Array;
  groupStart: Uint32Array;
  records: ReleaseRecords;
  recordRun: Uint8Array;
  runCount: number;
  sliceRuns: number;
  companyCount: number;
  syntheticCompanies: number;
  /** Record keys of the column being sorted. */
  keyer: RecordKeyer | null;
  measure: MeasureId;
  /**
   * Each record's count-weight bits (disclosure/recordKeys.ts, countWeightBits), in physical order: drawn with
   * base pay, which every record has and which is sorted first, and kept in every column's keys, so
   * a person weighs the same in the head count of every amount.
   */
  countBits: Uint8Array;
}

/** Sorts one amount column; `keys` and `physicalAmounts` are scratch space shared by every column. */
export function sortMeasure(amounts: Int32Array, layout: SortLayout, keys: Float64Array, physicalAmounts: Int32Array): MeasureColumn {
  const { physical, groupStart, records, recordRun, runCount } = layout;
  const groups = groupStart.length - 1;
  const offsets = new Uint32Array(groups * runCount + 1);
  // Amounts in physical order, for the sort below; the column keeps positions instead.
  for (let r = 0; r < physical.length; r++) physicalAmounts[r] = amounts[physical[r]!]!;
  const place = new Uint32Array(physical.length).fill(NOT_IN_COLUMN);
  // Per group: count each run's amounts, lay the runs end to end, place every key in its run, sort each run.
  const cursor = new Uint32Array(runCount);
  let present = 0;
  for (let g = 0; g < groups; g++) {
    const start = groupStart[g]!;
    const end = groupStart[g + 1]!;
    cursor.fill(0);
    for (let r = start; r < end; r++) if (physicalAmounts[r]! >= 0) cursor[recordRun[r]!]!++;
    for (let k = 0; k < runCount; k++) {
      const size = cursor[k]!;
      cursor[k] = present;
      present += size;
      offsets[g * runCount + k + 1] = present;
    }
    for (let r = start; r < end; r++) {
      const amount = physicalAmounts[r]!;
      if (amount >= 0) keys[cursor[recordRun[r]!]!++] = amount * POSITION_BITS + (r - start);
    }
    for (let k = 0; k < runCount; k++) {
      const from = offsets[g * runCount + k]!;
      const to = offsets[g * runCount + k + 1]!;
      if (to - from > 1) keys.subarray(from, to).sort();
    }
  }
  const runKeys = new Int32Array(groups * runCount);
  const runSynthetic = new Uint32Array(groups * runCount);
  const runWeights = new Int32Array(groups * runCount);
  const keyer = layout.keyer!;
  // Record keys and identity draws in the order of exact amounts (a company's records ranked by pay).
  const exactKeys = new Int32Array(present);
  const draws = new Int32Array(present);
  const physicalAt = new Uint32Array(present);
  const exactAt = new Int32Array(present);
  keyer.column(layout.measure, exactKeys, draws);
  const ranks = new Map<number, number>();
  for (let g = 0; g < groups; g++) {
    const start = groupStart[g]!;
    ranks.clear();
    for (let j = offsets[g * runCount]!; j < offsets[(g + 1) * runCount]!; j++) {
      const key = keys[j]!;
      const position = key % POSITION_BITS;
      const r = start + position;
      const amount = (key - position) / POSITION_BITS;
      physicalAt[j] = r;
      exactAt[j] = amount;
      const who = whoOf(records.company[r]!, records.location[r]!);
      const rank = ranks.get(who) ?? 0;
      ranks.set(who, rank + 1);
      keyer.add({ family: records.family[r]!, level: records.level[r]!, company: records.company[r]!, location: records.location[r]!, amount, rank, person: records.person?.[r] ?? 0 });
    }
  }
  keyer.finish();
  if (layout.measure === 'base') {
    for (let j = 0; j < present; j++) layout.countBits[physicalAt[j]!] = countWeightBits(draws[j]!);
  }
  // Every record moved by its own draw, then each run sorted again by the moved amounts: the release
  // answers from these, so every figure is made of moved records (docs/market-privacy.md).
  const moved = new Int32Array(present);
  for (let j = 0; j < present; j++) moved[j] = movedAmount(exactAt[j]!, draws[j]!);
  for (let run = 0; run < groups * runCount; run++) {
    const from = offsets[run]!;
    const to = offsets[run + 1]!;
    for (let j = from; j < to; j++) keys[j] = moved[j]! * POSITION_BITS + (j - from);
    if (to - from > 1) keys.subarray(from, to).sort();
  }
  const values = new Int32Array(present);
  const exact = new Int32Array(present);
  const who = new Uint32Array(present);
  const founder = new Uint8Array(present);
  const recordKeys = new Int32Array(present);
  for (let run = 0; run < groups * runCount; run++) {
    const from = offsets[run]!;
    for (let j = from; j < offsets[run + 1]!; j++) {
      const key = keys[j]!;
      const at = from + (key % POSITION_BITS);
      const r = physicalAt[at]!;
      place[r] = j;
      values[j] = moved[at]!;
      exact[j] = exactAt[at]!;
      who[j] = whoOf(records.company[r]!, records.location[r]!);
      founder[j] = records.founder[r]!;
      // The key's lowest bit is the side its record moved (the moved amount's parity): a figure made of it moves on.
      // Its top four bits are its count weight, drawn with base pay: the same person weighs the same in every column.
      recordKeys[j] = (exactKeys[at]! & 0x0ffffffe) | (layout.countBits[r]! << 28) | (values[j]! & 1);
    }
  }
  for (let g = 0; g < groups; g++) {
    for (let k = 0; k < runCount; k++) {
      let key = 0;
      let synthetic = 0;
      let weight = 0;
      for (let j = offsets[g * runCount + k]!; j < offsets[g * runCount + k + 1]!; j++) {
        key = (key + recordKeys[j]!) | 0;
        weight += countWeightOf(recordKeys[j]!);
        if (who[j]! >>> 8 < layout.syntheticCompanies) synthetic++;
      }
      runKeys[g * runCount + k] = key;
      runWeights[g * runCount + k] = weight;
      runSynthetic[g * runCount + k] = synthetic;
    }
  }
  const sliceStats = sliceStatistics(offsets, who, groups, runCount, layout.sliceRuns, layout.companyCount);
  return { offsets, values, exact, who, founder, position: place, sliceStats, keys: recordKeys, runKeys, runSynthetic, runWeights, runPay: payPerRun(offsets, values) };
}

/** The sum of each run's values (MeasureColumn.runPay). */
function payPerRun(offsets: Uint32Array, values: Int32Array): Float64Array {
  const pay = new Float64Array(offsets.length - 1);
  for (let run = 0; run < pay.length; run++) {
    let sum = 0;
    for (let j = offsets[run]!; j < offsets[run + 1]!; j++) sum += values[j]!;
    pay[run] = sum;
  }
  return pay;
}

/** Distinct companies and largest company of every group × set of the first `covered` runs (see MeasureColumn.sliceStats). */
function sliceStatistics(offsets: Uint32Array, who: Uint32Array, groups: number, runs: number, covered: number, companies: number): Uint32Array {
  const sets = 1 << covered;
  const stats = new Uint32Array(groups * sets * SLICE_STATS);
  // The four largest companies' records of each set of the group being read, largest first.
  const four = new Uint32Array(sets * 4);
  if (covered === 0) return stats;
  const counts = new Uint32Array(companies * covered);
  const touched = new Uint32Array(companies);
  const sums = new Uint32Array(sets);
  for (let g = 0; g < groups; g++) {
    let seen = 0;
    for (let k = 0; k < covered; k++) {
      for (let j = offsets[g * runs + k]!; j < offsets[g * runs + k + 1]!; j++) {
        const c = who[j]! >>> 8;
        let total = 0;
        for (let q = 0; q < covered; q++) total += counts[c * covered + q]!;
        if (total === 0) touched[seen++] = c;
        counts[c * covered + k]!++;
      }
    }
    four.fill(0);
    for (let t = 0; t < seen; t++) {
      const c = touched[t]!;
      for (let set = 1; set < sets; set++) {
        // A set's count is the count without its lowest run plus that run's.
        const lowest = 31 - Math.clz32(set & -set);
        sums[set] = sums[set & (set - 1)]! + counts[c * covered + lowest]!;
        if (sums[set] === 0) continue;
        const at = (g * sets + set) * SLICE_STATS;
        stats[at]!++;
        insertLargest(four, set * 4, sums[set]!);
      }
      for (let q = 0; q < covered; q++) counts[c * covered + q] = 0;
    }
    for (let set = 1; set < sets; set++) {
      const at = (g * sets + set) * SLICE_STATS;
      stats[at + 1] = four[set * 4]!;
      stats[at + 2] = four[set * 4]! + four[set * 4 + 1]! + four[set * 4 + 2]! + four[set * 4 + 3]!;
    }
  }
  return stats;
}

/** Keeps largest[at … at + 3] the four largest counts seen, largest first. */
export function insertLargest(largest: Uint32Array, at: number, count: number): void {
  if (count <= largest[at + 3]!) return;
  let i = at + 3;
  while (i > at && largest[i - 1]! < count) {
    largest[i] = largest[i - 1]!;
    i--;
  }
  largest[i] = count;
}

const exactReleases = new WeakMap<MarketRelease, MarketRelease>();

/**
 * The release with its columns sorted by the exact amounts instead of the moved ones: what queries
 * with disclosure switched off answer from (arithmetic tests, the DuckDB cross-check, the scorecard's
 * utility). Made on first use and kept beside the release; no route asks for it.
 */
export function exactRelease(release: MarketRelease): MarketRelease {
  const known = exactReleases.get(release);
  if (known) return known;
  const measures = {} as Record<MeasureId, MeasureColumn>;
  for (const id of MEASURE_IDS) measures[id] = byExactAmount(release.measures[id]);
  const exact: MarketRelease = Object.freeze({ ...release, measures: Object.freeze(measures) });
  exactReleases.set(release, exact);
  return exact;
}

function byExactAmount(column: MeasureColumn): MeasureColumn {
  const present = column.values.length;
  const recordAt = new Uint32Array(present);
  for (let r = 0; r < column.position.length; r++) if (column.position[r] !== NOT_IN_COLUMN) recordAt[column.position[r]!] = r;
  const order = new Float64Array(present);
  const runs = column.offsets.length - 1;
  for (let run = 0; run < runs; run++) {
    const from = column.offsets[run]!;
    const to = column.offsets[run + 1]!;
    for (let j = from; j < to; j++) order[j] = column.exact[j]! * POSITION_BITS + (j - from);
    if (to - from > 1) order.subarray(from, to).sort();
  }
  const values = new Int32Array(present);
  const who = new Uint32Array(present);
  const founder = new Uint8Array(present);
  const keys = new Int32Array(present);
  const position = new Uint32Array(column.position.length).fill(NOT_IN_COLUMN);
  for (let run = 0; run < runs; run++) {
    const from = column.offsets[run]!;
    for (let j = from; j < column.offsets[run + 1]!; j++) {
      const at = from + (order[j]! % POSITION_BITS);
      values[j] = column.exact[at]!;
      who[j] = column.who[at]!;
      founder[j] = column.founder[at]!;
      keys[j] = column.keys[at]!;
      position[recordAt[at]!] = j;
    }
  }
  return { ...column, values, exact: values, who, founder, keys, position, runPay: payPerRun(column.offsets, values) };
}
