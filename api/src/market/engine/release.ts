import { findLocation } from '../../reference/catalog/index.js';
import { registerDisclosureKey } from './disclosure/cellDraws.js';
import { RecordKeyer } from './disclosure/recordKeys.js';
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
import { MAX_COMPANIES, MAX_SLICE_RUNS, NOT_IN_COLUMN, POSITION_BITS, sortMeasure, type MeasureColumn, type SortLayout } from './releaseColumns.js';

/**
 * The market release and its build: a participant market checked, its records grouped by family ×
 * level and ordered by location, its amount columns sorted (releaseColumns.ts), and everything it
 * holds copied and frozen, so a release never changes once built.
 */

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
