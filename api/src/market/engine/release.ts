import { findLocation } from '../../reference/catalog/index.js';
import { countWeightBits, countWeightOf, movedAmount, RecordKeyer, registerDisclosureKey } from './disclosure.js';
import { randomDisclosureKey } from './prf.js';
import { placeOfLocation } from './participants.js';
import {
  MAX_PLACES,
  MEASURE_IDS,
  NO_AMOUNT,
  type EquityPractices,
  type MeasureId,
  type ParticipantCompanies,
  type ParticipantMarket,
  type ReleaseDimensions,
} from './participants.js';

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
  /** Each record's moved amount (disclosure.ts, movedAmount), ascending per (group, run): what figures are made of. */
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
   * Each place's record key (disclosure.ts): a keyed PRF of the record's company, place, family,
   * level, amount and measure, computed once when the release is built, never published. Its top
   * four bits are the record's count weight (COUNT_WEIGHT_QUARTERS), the same in every column.
   */
  readonly keys: Int32Array;
  /** Per (group, run): its records' keys summed in 32 bits (see disclosure.ts), for whole slices. */
  readonly runKeys: Int32Array;
  /** Per (group, run): its records of generated (demo) companies, for whole slices. */
  readonly runSynthetic: Uint32Array;
  /** Per (group, run): its records' count weights summed, in quarters (disclosure.ts, perturbedCounts), for whole slices. */
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

/** Per-record dimensions in the release's physical order (grouped by family × level). */
export interface ReleaseRecords {
  readonly family: Uint8Array;
  readonly level: Uint8Array;
  readonly company: Uint32Array;
  readonly location: Uint8Array;
  readonly founder: Uint8Array;
  /** Each record's person tag (ParticipantEmployees.person), 0 when unknown; absent when no record has one. */
  readonly person?: Int32Array;
}

/** An immutable, in-memory, columnar snapshot of the market. */
export interface MarketRelease {
  readonly id: string;
  readonly builtAt: string;
  readonly dimensions: ReleaseDimensions;
  readonly companies: ParticipantCompanies;
  readonly recordCount: number;
  /** Records of group g (= family code × level count + level code) are groupStart[g] .. groupStart[g + 1]. */
  readonly groupStart: Uint32Array;
  /**
   * Within a group, records are ordered by location: those of group g at location l are
   * groupLocationStart[g × locations + l] .. groupLocationStart[g × locations + l + 1].
   */
  readonly groupLocationStart: Uint32Array;
  readonly records: ReleaseRecords;
  readonly measures: Readonly<Record<MeasureId, MeasureColumn>>;
  /** Records per company, to judge how selective a filter is. */
  readonly companyRecords: Uint32Array;
  /**
   * The currency of each run. Runs split records by country and currency: a location's records are
   * in run locationRun[code], so two countries paying in one currency (Germany and Spain) have a
   * run each, and a filter naming whole countries still reads whole runs.
   */
  readonly runCurrencies: readonly string[];
  readonly locationRun: Uint8Array;
  /** Runs 0 … sliceRuns − 1 (the demo's countries first) have slice statistics; 0 when there are none. */
  readonly sliceRuns: number;
  /** How each participant company grants equity; null when the market did not say. */
  readonly equityPractices: EquityPractices | null;
  /** Companies 0 … syntheticCompanies − 1 are generated (demo); the others are participants. */
  readonly syntheticCompanies: number;
}

export interface BuildReleaseOptions {
  id: string;
  builtAt?: string;
  /** Called between steps with the fraction done, for a background job's progress. */
  onProgress?: (fraction: number, step: string) => void;
  /**
   * The key record keys and draws are made with (32 bytes, from the server's secrets key, the same
   * for every release so an unchanged cell moves the same way in each); random when not given.
   */
  disclosureKey?: Uint8Array;
}

// Sort keys pack amount and in-group position into one double: exact while amount < 2^31 and position < 2^22.
const POSITION_BITS = 2 ** 22;

function groupCount(dimensions: ReleaseDimensions): number {
  return dimensions.families.length * dimensions.levels.length;
}

/**
 * Builds the in-memory release from a participant market: records grouped by family × level and
 * ordered by location, every amount column sorted per (group, run), and slice statistics.
 */
export function buildRelease(market: ParticipantMarket, options: BuildReleaseOptions): MarketRelease {
  const progress = options.onProgress ?? (() => undefined);
  checkMarket(market);
  progress(0, 'grouping records');
  const { groupStart, groupLocationStart, physical } = groupRecords(market);
  const records = reorderRecords(market, physical);
  const { runCurrencies, locationRun } = placeRuns(market.dimensions);
  const recordRun = Uint8Array.from(records.location, (l) => locationRun[l]!);
  const sliceRuns = Math.min(runCurrencies.length, MAX_SLICE_RUNS);
  const layout: SortLayout = {
    physical,
    groupStart,
    records,
    recordRun,
    runCount: runCurrencies.length,
    sliceRuns,
    companyCount: market.companies.count,
    syntheticCompanies: market.syntheticCompanies ?? 0,
    keyer: null as RecordKeyer | null,
    measure: 'base' as MeasureId,
    countBits: new Uint8Array(physical.length),
  };
  const disclosureKey = options.disclosureKey ?? randomDisclosureKey();
  layout.keyer = new RecordKeyer(disclosureKey, { dimensions: market.dimensions, companyIds: market.companies.ids });
  const measures = {} as Record<MeasureId, MeasureColumn>;
  const keys = new Float64Array(market.employees.count);
  const physicalAmounts = new Int32Array(market.employees.count);
  MEASURE_IDS.forEach((id, index) => {
    progress((index + 1) / (MEASURE_IDS.length + 1), `sorting ${id}`);
    layout.measure = id;
    measures[id] = sortMeasure(market.employees.amounts[id], layout, keys, physicalAmounts);
  });
  progress(1, 'done');
  const release: MarketRelease = Object.freeze({
    id: options.id,
    builtAt: options.builtAt ?? new Date().toISOString(),
    dimensions: freezeDimensions(market.dimensions),
    companies: copyCompanies(market.companies),
    recordCount: market.employees.count,
    groupStart,
    groupLocationStart,
    records: Object.freeze(records),
    measures: Object.freeze(measures),
    companyRecords: recordsPerCompany(records.company, market.companies.count),
    runCurrencies: Object.freeze(runCurrencies),
    locationRun,
    sliceRuns,
    equityPractices: market.equityPractices ? copyPractices(market.equityPractices, market.companies.count) : null,
    syntheticCompanies: market.syntheticCompanies ?? 0,
  });
  registerDisclosureKey(release, disclosureKey);
  return release;
}

/** One run per country, currency and employment type, in the order the locations first name them. */
function placeRuns(dimensions: ReleaseDimensions): { runCurrencies: string[]; locationRun: Uint8Array } {
  const runs = new Map<string, number>();
  const runCurrencies: string[] = [];
  const locationRun = Uint8Array.from(dimensions.locations, (id, code) => {
    const currency = dimensions.locationCurrencies[code]!;
    const { placeId, contractor } = placeOfLocation(id);
    // Contractors' runs are apart from employees': a filter of employees still reads whole runs.
    const key = `${findLocation(placeId)?.country ?? placeId} ${currency}${contractor ? ' contractors' : ''}`;
    let run = runs.get(key);
    if (run === undefined) {
      run = runCurrencies.push(currency) - 1;
      runs.set(key, run);
    }
    return run;
  });
  return { runCurrencies, locationRun };
}

function copyPractices(practices: EquityPractices, companies: number): EquityPractices {
  const columns = [practices.grantsEquity, practices.grantType, practices.vestingSchedule, practices.cliff, practices.vestingFrequency, practices.grantTiming];
  if (columns.some((column) => column.length !== companies)) throw new Error('Equity practice columns differ in length from the companies');
  const copy = (ids: readonly string[]): readonly string[] => Object.freeze([...ids]);
  return Object.freeze({
    tables: Object.freeze({
      grantTypes: copy(practices.tables.grantTypes),
      vestingSchedules: copy(practices.tables.vestingSchedules),
      cliffs: copy(practices.tables.cliffs),
      vestingFrequencies: copy(practices.tables.vestingFrequencies),
      grantTimings: copy(practices.tables.grantTimings),
    }),
    grantsEquity: practices.grantsEquity.slice(),
    grantType: practices.grantType.slice(),
    vestingSchedule: practices.vestingSchedule.slice(),
    cliff: practices.cliff.slice(),
    vestingFrequency: practices.vestingFrequency.slice(),
    grantTiming: practices.grantTiming.slice(),
  });
}

function recordsPerCompany(company: Uint32Array, companies: number): Uint32Array {
  const counts = new Uint32Array(companies);
  for (let r = 0; r < company.length; r++) counts[company[r]!]!++;
  return counts;
}

/** The release owns its data: later changes to the participant market cannot reach it. */
function copyCompanies(companies: ParticipantCompanies): ParticipantCompanies {
  return Object.freeze({
    count: companies.count,
    ids: Object.freeze([...companies.ids]),
    names: Object.freeze([...companies.names]),
    stage: companies.stage.slice(),
    ownership: companies.ownership.slice(),
    industry: companies.industry.slice(),
    headquarters: companies.headquarters.slice(),
    valuationUsd: companies.valuationUsd.slice(),
    priceRatio: companies.priceRatio.slice(),
  });
}

/**
 * Counting sort of record indices by group, then location within the group; stable, so records of
 * one place keep the input order (a company's records stay together).
 */
function groupRecords(market: ParticipantMarket): { groupStart: Uint32Array; groupLocationStart: Uint32Array; physical: Uint32Array } {
  const { family, level, location, count } = market.employees;
  const levels = market.dimensions.levels.length;
  const locations = market.dimensions.locations.length;
  const groups = groupCount(market.dimensions);
  const keyOf = (i: number): number => ((family[i] ?? 0) * levels + (level[i] ?? 0)) * locations + (location[i] ?? 0);
  const groupLocationStart = new Uint32Array(groups * locations + 1);
  for (let i = 0; i < count; i++) groupLocationStart[keyOf(i) + 1]!++;
  for (let k = 0; k < groups * locations; k++) groupLocationStart[k + 1]! += groupLocationStart[k]!;
  const cursor = groupLocationStart.slice(0, groups * locations);
  const physical = new Uint32Array(count);
  for (let i = 0; i < count; i++) physical[cursor[keyOf(i)]!++] = i;
  const groupStart = Uint32Array.from({ length: groups + 1 }, (_, g) => groupLocationStart[g * locations]!);
  for (let g = 0; g < groups; g++) {
    if (groupStart[g + 1]! - groupStart[g]! >= POSITION_BITS) throw new Error('A family × level group exceeds 4,194,303 records');
  }
  return { groupStart, groupLocationStart, physical };
}

function reorderRecords(market: ParticipantMarket, physical: Uint32Array): ReleaseRecords {
  const source = market.employees;
  const count = source.count;
  const records = {
    family: new Uint8Array(count),
    level: new Uint8Array(count),
    company: new Uint32Array(count),
    location: new Uint8Array(count),
    founder: new Uint8Array(count),
  };
  for (let r = 0; r < count; r++) {
    const i = physical[r]!;
    records.family[r] = source.family[i]!;
    records.level[r] = source.level[i]!;
    records.company[r] = source.company[i]!;
    records.location[r] = source.location[i]!;
    records.founder[r] = source.founder[i]!;
  }
  const person = source.person;
  if (!person || !person.some((p) => p !== 0)) return records;
  return { ...records, person: Int32Array.from(physical, (i) => person[i]!) };
}

interface SortLayout {
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
   * Each record's count-weight bits (disclosure.ts, countWeightBits), in physical order: drawn with
   * base pay, which every record has and which is sorted first, and kept in every column's keys, so
   * a person weighs the same in the head count of every amount.
   */
  countBits: Uint8Array;
}

/** Sorts one amount column; `keys` and `physicalAmounts` are scratch space shared by every column. */
function sortMeasure(amounts: Int32Array, layout: SortLayout, keys: Float64Array, physicalAmounts: Int32Array): MeasureColumn {
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

function freezeDimensions(dimensions: ReleaseDimensions): ReleaseDimensions {
  const copy = (ids: readonly string[]): readonly string[] => Object.freeze([...ids]);
  return Object.freeze({
    families: copy(dimensions.families),
    levels: copy(dimensions.levels),
    locations: copy(dimensions.locations),
    locationCurrencies: copy(dimensions.locationCurrencies),
    industries: copy(dimensions.industries),
    stages: copy(dimensions.stages),
    ownershipGroups: copy(dimensions.ownershipGroups),
    founderTypes: copy(dimensions.founderTypes),
  });
}

function checkMarket(market: ParticipantMarket): void {
  const { dimensions, companies, employees } = market;
  const count = employees.count;
  const columns = [employees.company, employees.family, employees.level, employees.location, employees.founder];
  if (columns.some((column) => column.length !== count)) throw new Error('Employee columns differ in length');
  checkCodes(employees.family, dimensions.families.length, 'family');
  checkCodes(employees.level, dimensions.levels.length, 'level');
  if (dimensions.locations.length > MAX_PLACES) throw new Error(`A release holds at most ${MAX_PLACES} places, not ${dimensions.locations.length}`);
  checkCodes(employees.location, dimensions.locations.length, 'location');
  if (companies.count > MAX_COMPANIES) throw new Error(`A release holds at most ${MAX_COMPANIES} companies, not ${companies.count}`);
  checkCodes(employees.company, companies.count, 'company');
  checkCodes(employees.founder, dimensions.founderTypes.length + 1, 'founder type');
  checkCodes(companies.stage, dimensions.stages.length, 'company stage');
  checkCodes(companies.ownership, dimensions.ownershipGroups.length, 'ownership group');
  checkCodes(companies.industry, dimensions.industries.length, 'industry');
  const absent = NO_AMOUNT;
  for (const id of MEASURE_IDS) {
    const amounts = employees.amounts[id];
    if (amounts.length !== count) throw new Error(`Amount column ${id} differs in length`);
    for (let i = 0; i < count; i++) {
      const amount = amounts[i]!;
      if (amount < 0 && amount !== absent) throw new Error(`Amount ${amount} of ${id} is negative`);
    }
  }
}

function checkCodes(codes: Uint8Array | Uint32Array, size: number, what: string): void {
  for (let i = 0; i < codes.length; i++) {
    if (codes[i]! >= size) throw new Error(`Unknown ${what} code ${codes[i]} at record ${i}`);
  }
}

/** The exact amounts of one measure per record in physical order, NO_AMOUNT where absent (for exports and cross-checks). */
export function amountColumn(release: MarketRelease, measure: MeasureId): Int32Array {
  const { position, exact } = release.measures[measure];
  const amounts = new Int32Array(position.length);
  for (let r = 0; r < position.length; r++) {
    const j = position[r]!;
    amounts[r] = j === NOT_IN_COLUMN ? NO_AMOUNT : exact[j]!;
  }
  return amounts;
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
