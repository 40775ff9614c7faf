import type { SortedRun } from './percentile.js';
import type { MarketRelease } from './release.js';
import { insertLargest, NOT_IN_COLUMN, type MeasureColumn } from './releaseColumns.js';
import type { Workspace } from './workspace.js';

/**
 * The values of one cell as they are gathered: sorted runs laid end to end in workspace.values,
 * plus the companies seen. The kernels below are plain loops over typed arrays read in sequence,
 * which is what keeps a million-record scan in milliseconds.
 */
export interface CellGather {
  length: number;
  runEnds: number[];
  /** Per run: its values count as (stored amount ÷ divisor) × scale, converted only where read. */
  runDivisors: number[];
  scale: number;
  companies: number;
  /** Sum of the gathered records' keys (see disclosure/recordKeys.ts), in 32 bits. */
  key: number;
  /** Sum of the gathered records' count weights, in quarters (disclosure/cellDraws.ts, perturbedCounts). */
  weight: number;
  /**
   * The gathered values summed as percentiles read them (each run's stored values × scale ÷ divisor),
   * for the pay-mass checks (payMass.ts), summed in the scan rather than in a second pass. Not summed
   * where a per-company factor makes the values (those cells judge each company's pay in full).
   */
  pay: number;
}

export function startGather(): CellGather {
  return { length: 0, runEnds: [], runDivisors: [], scale: 1, companies: 0, key: 0, weight: 0, pay: 0 };
}

/** What one market filter lets through, by code. */
export interface ScanFilter {
  companyOk: Uint8Array;
  /** 0 for a location outside the filter, else its currency slot (1-based). */
  locationSlot: Uint8Array;
  slotCount: number;
  /** Per slot: amounts are divided by it (1 when they stay local, else the USD rate). */
  slotDivisor: Float64Array;
  /** Per slot: the release's runs (countries) of its currency that the filter selects; slot 0 has none. */
  slotRuns: readonly (readonly number[])[];
  /** Runs per group in the release. */
  runCount: number;
  /** Codes of the selected locations, ascending. */
  locations: Uint8Array;
}

/** Narrows E9 records by founder type: the founder code of each record, and which codes pass. */
export interface FounderFilter {
  founder: Uint8Array;
  founderOk: Uint8Array;
}

/**
 * Companies the last kernel call left in workspace.touched. A module variable rather than a property:
 * the kernels are compiled mid-loop (on-stack replacement), and property writes after that loop
 * had no type feedback yet, which sent V8 back to the interpreter on every call.
 */
let companiesSeen = 0;
/** The records' keys summed by the last kernel call, kept the same way. */
let keySum = 0;
/** The records' count weights summed by the last kernel call (quarters), kept the same way. */
let weightSum = 0;

/**
 * A record key's count weight in quarters (disclosure/recordKeys.ts, COUNT_WEIGHT_QUARTERS) in arithmetic: the
 * size is 5 plus bits 28 … 30, the sign bit 31. No table read and no branch in the kernels' loops
 * (a random sign would be mispredicted half the time).
 */
function countWeight(recordKey: number): number {
  const sign = recordKey >> 31;
  return ((((recordKey >>> 28) & 7) + 5) ^ sign) - sign;
}
/** The values the last kernel call appended, summed as stored (whole numbers: exact in a double). */
let paySum = 0;
/**
 * Whether the kernels tally companies. Off when the cell's companies are already known: the same
 * records were gathered for another amount of the cell (workspace.ts, shared company tallies).
 */
let counting = true;

export function countCompanies(on: boolean): void {
  counting = on;
}

/**
 * Appends one group's records that pass the filter: for each currency of the filter, the group's runs
 * of that currency the filter selects, each already ascending. Amounts stay as stored: a run keeps
 * its divisor and only the few values percentiles read are converted, and disclosure control reads
 * the stored amount a figure is made of (the same in every currency).
 */
export function gatherSortedGroup(
  workspace: Workspace,
  gather: CellGather,
  column: MeasureColumn,
  group: number,
  filter: ScanFilter,
  founders: FounderFilter | null,
  scale: number,
): void {
  for (let slot = 1; slot <= filter.slotCount; slot++) {
    for (const k of filter.slotRuns[slot]!) {
      const run = group * filter.runCount + k;
      const from = column.offsets[run]!;
      const to = column.offsets[run + 1]!;
      if (from === to) continue;
      const start = gather.length;
      companiesSeen = gather.companies;
      keySum = gather.key;
      weightSum = gather.weight;
      // The hot loop has no founder test; founder-filtered E9 groups are few and small.
      const end =
        founders === null
          ? scanRun(column, from, to, filter.companyOk, filter.locationSlot, workspace, start)
          : scanRunOfFounders(column, from, to, filter, founders, workspace, start);
      gather.companies = companiesSeen;
      gather.key = keySum;
      gather.weight = weightSum;
      gather.pay += paySum * (scale / filter.slotDivisor[slot]!);
      gather.length = end;
      gather.scale = scale;
      if (end > start) {
        gather.runEnds.push(end);
        gather.runDivisors.push(filter.slotDivisor[slot]!);
      }
    }
  }
}

function scanRun(
  column: MeasureColumn,
  from: number,
  to: number,
  companyOk: Uint8Array,
  locationSlot: Uint8Array,
  workspace: Workspace,
  start: number,
): number {
  const { values, who, keys } = column;
  const { tally, touched } = workspace;
  const out = workspace.values;
  const placesOut = workspace.places;
  let n = start;
  let seen = companiesSeen;
  let key = keySum;
  let weight = weightSum;
  let pay = 0;
  for (let j = from; j < to; j++) {
    const w = who[j]!;
    const c = w >>> 8;
    if (companyOk[c] === 0 || locationSlot[w & 255] === 0) continue;
    const recordKey = keys[j]!;
    const value = values[j]!;
    placesOut[n] = j;
    out[n++] = value;
    pay += value;
    key = (key + recordKey) | 0;
    weight += countWeight(recordKey);
    if (counting) {
      const before = tally[c]!;
      tally[c] = before + 1;
      if (before === 0) touched[seen++] = c;
    }
  }
  companiesSeen = seen;
  paySum = pay;
  keySum = key;
  weightSum = weight;
  return n;
}

function scanRunOfFounders(
  column: MeasureColumn,
  from: number,
  to: number,
  filter: ScanFilter,
  founders: FounderFilter,
  workspace: Workspace,
  start: number,
): number {
  const { values, who, founder, keys } = column;
  const { companyOk, locationSlot } = filter;
  const { founderOk } = founders;
  const { tally, touched } = workspace;
  const out = workspace.values;
  const placesOut = workspace.places;
  let n = start;
  let seen = companiesSeen;
  let key = keySum;
  let weight = weightSum;
  let pay = 0;
  for (let j = from; j < to; j++) {
    const w = who[j]!;
    const c = w >>> 8;
    if (companyOk[c] === 0 || locationSlot[w & 255] === 0 || founderOk[founder[j]!] !== 1) continue;
    const recordKey = keys[j]!;
    const value = values[j]!;
    placesOut[n] = j;
    out[n++] = value;
    pay += value;
    key = (key + recordKey) | 0;
    weight += countWeight(recordKey);
    if (counting) {
      const before = tally[c]!;
      tally[c] = before + 1;
      if (before === 0) touched[seen++] = c;
    }
  }
  companiesSeen = seen;
  paySum = pay;
  keySum = key;
  weightSum = weight;
  return n;
}

/**
 * Appends one group's passing records with a per-company factor (actual value, percent of company).
 * The factor reorders values, so the cell is sorted afterwards; a zero factor excludes the company.
 */
export function gatherWithCompanyFactor(
  workspace: Workspace,
  gather: CellGather,
  column: MeasureColumn,
  group: number,
  filter: ScanFilter,
  founders: FounderFilter | null,
  slotDivisor: Float64Array,
  scale: number,
  companyFactor: Float64Array,
): void {
  companiesSeen = gather.companies;
  keySum = gather.key;
  weightSum = gather.weight;
  gather.length = scanWithFactor(
    column,
    column.offsets[group * filter.runCount]!,
    column.offsets[(group + 1) * filter.runCount]!,
    filter,
    founders?.founderOk ?? null,
    slotDivisor,
    scale,
    companyFactor,
    workspace,
    gather.length,
  );
  gather.companies = companiesSeen;
  gather.key = keySum;
  gather.weight = weightSum;
}

function scanWithFactor(
  column: MeasureColumn,
  from: number,
  to: number,
  filter: ScanFilter,
  founderOk: Uint8Array | null,
  slotDivisor: Float64Array,
  scale: number,
  companyFactor: Float64Array,
  workspace: Workspace,
  start: number,
): number {
  const { values, who, founder, keys } = column;
  const { companyOk, locationSlot } = filter;
  const { tally, touched } = workspace;
  const out = workspace.values;
  const placesOut = workspace.places;
  let n = start;
  let seen = companiesSeen;
  let key = keySum;
  let weight = weightSum;
  for (let j = from; j < to; j++) {
    const w = who[j]!;
    const c = w >>> 8;
    const slot = locationSlot[w & 255]!;
    const factor = companyFactor[c]!;
    if (slot === 0 || companyOk[c] === 0 || factor === 0) continue;
    if (founderOk !== null && founderOk[founder[j]!] !== 1) continue;
    const value = values[j]!;
    // Its place too, until the values are sorted: the pay-mass checks sum each company's pay (payMass.ts).
    placesOut[n] = j;
    out[n++] = (value / slotDivisor[slot]!) * scale * factor;
    const recordKey = keys[j]!;
    key = (key + recordKey) | 0;
    weight += countWeight(recordKey);
    const before = tally[c]!;
    tally[c] = before + 1;
    if (before === 0) touched[seen++] = c;
  }
  companiesSeen = seen;
  keySum = key;
  weightSum = weight;
  return n;
}

/**
 * Collects the records of one group that pass the filter into workspace.matched, from the group's
 * start; returns where they end. Records are ordered by location within the group, so only the
 * filter's locations are read. Done once per market filter and group, then shared by every
 * measure: worth it when few records pass.
 */
export function collectMatched(
  workspace: Workspace,
  release: MarketRelease,
  group: number,
  filter: ScanFilter,
  founders: FounderFilter | null,
): number {
  const locations = filter.locationSlot.length;
  const { company, founder } = release.records;
  let end = release.groupStart[group]!;
  for (const l of filter.locations) {
    const from = release.groupLocationStart[group * locations + l]!;
    const to = release.groupLocationStart[group * locations + l + 1]!;
    if (from < to) end = scanMatches(company, founders?.founderOk ?? null, founder, from, to, filter.companyOk, workspace.matched, end);
  }
  return end;
}

function scanMatches(
  company: Uint32Array,
  founderOk: Uint8Array | null,
  founder: Uint8Array,
  from: number,
  to: number,
  companyOk: Uint8Array,
  matched: Uint32Array,
  start: number,
): number {
  let end = start;
  for (let r = from; r < to; r++) {
    if (companyOk[company[r]!] === 0) continue;
    if (founderOk !== null && founderOk[founder[r]!] !== 1) continue;
    matched[end++] = r;
  }
  return end;
}

/**
 * Appends one measure's amounts for the matched records, sorted without sorting: each matched
 * record's place in the measure's sorted column is marked in a bitmap over the group, and the
 * marks are read back in column order, run by run, so the values come out ascending (read in that
 * order, the column streams through the cache; read in the records' order, every value would be a
 * miss). One sorted run per currency (the runs of a currency's countries merged), converted where read.
 */
export function gatherMatchedGroup(
  workspace: Workspace,
  gather: CellGather,
  column: MeasureColumn,
  group: number,
  matchedFrom: number,
  matchedTo: number,
  filter: ScanFilter,
  scale: number,
): void {
  const runCount = filter.runCount;
  const base = column.offsets[group * runCount]!;
  const marks = reserveMarks(workspace, column.offsets[(group + 1) * runCount]! - base);
  markPositions(column.position, workspace.matched, matchedFrom, matchedTo, base, marks);
  for (let slot = 1; slot <= filter.slotCount; slot++) {
    companiesSeen = gather.companies;
    keySum = gather.key;
    weightSum = gather.weight;
    const start = gather.length;
    let end = start;
    let pieces = 0;
    let slotPay = 0;
    for (const k of filter.slotRuns[slot]!) {
      const from = column.offsets[group * runCount + k]!;
      const to = column.offsets[group * runCount + k + 1]!;
      if (from === to) continue;
      const before = end;
      end = readMarked(column, marks, base, from, to, workspace, end);
      slotPay += paySum;
      if (end > before) workspace.pieceEnds[pieces++] = end;
    }
    gather.companies = companiesSeen;
    gather.key = keySum;
    gather.weight = weightSum;
    gather.pay += slotPay * (scale / filter.slotDivisor[slot]!);
    if (end === start) continue;
    if (pieces > 1) mergePieces(workspace, start, pieces);
    gather.length = end;
    gather.scale = scale;
    gather.runEnds.push(end);
    gather.runDivisors.push(filter.slotDivisor[slot]!);
  }
}

/** A zeroed bitmap of at least `size` bits; readMarked leaves it zeroed again. */
function reserveMarks(workspace: Workspace, size: number): Int32Array {
  const words = (size >>> 5) + 1;
  if (workspace.marks.length < words) workspace.marks = new Int32Array(Math.max(words, workspace.marks.length * 2));
  return workspace.marks;
}

/** Marks the places of the matched records that hold an amount. */
function markPositions(position: Uint32Array, matched: Uint32Array, from: number, to: number, base: number, marks: Int32Array): void {
  for (let k = from; k < to; k++) {
    const j = position[matched[k]!]!;
    if (j === NOT_IN_COLUMN) continue;
    const bit = j - base;
    marks[bit >>> 5]! |= 1 << (bit & 31);
  }
}

/**
 * Appends the values of the marked places in [from, to) of the column, ascending (the column's
 * order), counting their companies and summing their keys; clears the marks it reads.
 */
function readMarked(
  column: MeasureColumn,
  marks: Int32Array,
  base: number,
  from: number,
  to: number,
  workspace: Workspace,
  start: number,
): number {
  const { values, who, keys } = column;
  const { tally, touched } = workspace;
  const out = workspace.values;
  const placesOut = workspace.places;
  let n = start;
  let seen = companiesSeen;
  let key = keySum;
  let weight = weightSum;
  let pay = 0;
  const firstBit = from - base;
  const lastBit = to - base - 1;
  const firstWord = firstBit >>> 5;
  const lastWord = lastBit >>> 5;
  for (let w = firstWord; w <= lastWord; w++) {
    let bits = marks[w]!;
    if (bits === 0) continue;
    // The first and last words may hold marks of the neighbouring runs: keep only this run's.
    if (w === firstWord) bits &= -1 << (firstBit & 31);
    if (w === lastWord && (lastBit & 31) !== 31) bits &= (1 << ((lastBit & 31) + 1)) - 1;
    marks[w] = marks[w]! & ~bits;
    const wordBase = base + (w << 5);
    while (bits !== 0) {
      const lowest = bits & -bits;
      const j = wordBase + 31 - Math.clz32(lowest);
      bits ^= lowest;
      const value = values[j]!;
      placesOut[n] = j;
      out[n++] = value;
      pay += value;
      const recordKey = keys[j]!;
    key = (key + recordKey) | 0;
    weight += countWeight(recordKey);
      if (counting) {
        const c = who[j]! >>> 8;
        const before = tally[c]!;
        tally[c] = before + 1;
        if (before === 0) touched[seen++] = c;
      }
    }
  }
  companiesSeen = seen;
  paySum = pay;
  keySum = key;
  weightSum = weight;
  return n;
}

/** Merges the ascending pieces values[start .. pieceEnds[0]), [pieceEnds[0] .. pieceEnds[1]), … into one ascending run. */
function mergePieces(workspace: Workspace, start: number, pieces: number): void {
  const { values, places: keys } = workspace;
  const end = workspace.pieceEnds[pieces - 1]!;
  if (workspace.mergeSpace.length < end - start) {
    const length = Math.max(end - start, workspace.mergeSpace.length * 2);
    workspace.mergeSpace = new Float64Array(length);
    workspace.mergeKeySpace = new Int32Array(length);
  }
  const space = workspace.mergeSpace;
  const keySpace = workspace.mergeKeySpace;
  let merged = workspace.pieceEnds[0]!;
  for (let p = 1; p < pieces; p++) {
    const next = workspace.pieceEnds[p]!;
    let a = start;
    let b = merged;
    let o = 0;
    // Each value takes its record's place in the column along.
    while (a < merged && b < next) {
      const fromB = values[b]! < values[a]!;
      const at = fromB ? b++ : a++;
      keySpace[o] = keys[at]!;
      space[o++] = values[at]!;
    }
    while (a < merged) {
      keySpace[o] = keys[a]!;
      space[o++] = values[a++]!;
    }
    while (b < next) {
      keySpace[o] = keys[b]!;
      space[o++] = values[b++]!;
    }
    values.set(space.subarray(0, o), start);
    keys.set(keySpace.subarray(0, o), start);
    merged = next;
  }
}

/**
 * Makes the gathered values ready for percentiles: sorted runs stay as they are (percentiles are
 * selected across them); values gathered out of order are sorted into one run.
 */
export function finishRuns(workspace: Workspace, gather: CellGather, column: MeasureColumn, unordered: boolean): SortedRun[] {
  const values = workspace.values;
  if (unordered) {
    // Values a per-company factor made: no record stands at a figure, the cell's draws give its side.
    values.subarray(0, gather.length).sort();
    return [{ values, from: 0, to: gather.length, divisor: 1, scale: 1 }];
  }
  const runs: SortedRun[] = [];
  let from = 0;
  const places = workspace.places;
  gather.runEnds.forEach((to, i) => {
    runs.push({ values, places, keys: column.keys, exact: column.exact, from, to, divisor: gather.runDivisors[i]!, scale: gather.scale });
    from = to;
  });
  return runs;
}

const four = new Uint32Array(4);

/**
 * Distinct companies of the cell, the records of the largest, of the four largest and the records of generated companies
 * (those numbered below `syntheticCompanies`); resets the tally for the next cell.
 */
export function closeCompanies(
  workspace: Workspace,
  gather: CellGather,
  syntheticCompanies: number,
): { companies: number; largest: number; topFour: number; synthetic: number } {
  const { tally, touched } = workspace;
  let synthetic = 0;
  four.fill(0);
  for (let i = 0; i < gather.companies; i++) {
    const c = touched[i]!;
    const n = tally[c]!;
    insertLargest(four, 0, n);
    if (c < syntheticCompanies) synthetic += n;
    tally[c] = 0;
  }
  return { companies: gather.companies, largest: four[0]!, topFour: four[0]! + four[1]! + four[2]! + four[3]!, synthetic };
}
