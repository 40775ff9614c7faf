import {
  BELOW_THRESHOLD_BUCKET,
  COMPANY_COUNT_BUCKETS,
  EMPLOYEE_COUNT_BUCKETS,
  LOCATIONS,
  bucketOf,
  placesOf,
  type CompensationCategory,
  type SampleBucket,
} from '../../reference/catalog/index.js';
import { DEFAULT_EMPLOYMENT_TYPES, EMPLOYMENT_TYPES, placeOfLocation, recordLocationsOf, type MarketEmploymentType } from './participants.js';
import { DEFAULT_PRIVACY_RULE, meetsMinimums, type PrivacyRule } from './privacy.js';
import type { MarketRelease } from './release.js';

/** How much of the market one value of a dimension holds, exactly: never published as it is (see `disclose`). */
export interface CompositionEntry {
  id: string;
  companies: number;
  employees: number;
}

/** A family's coverage per broad comp type: records with base pay (cash) or any equity (equity). */
export interface FamilyCoverage extends CompositionEntry {
  broadCompType: CompensationCategory;
}

/** What a release holds, for data composition, coverage labels and the participants list. */
export interface ReleaseComposition {
  releaseId: string;
  builtAt: string;
  companies: number;
  employees: number;
  jobFamilies: CompositionEntry[];
  levels: CompositionEntry[];
  /** Every catalog location the release has records in: places (metros, countries), and the tiers, countries and regions they roll up to. */
  locations: CompositionEntry[];
  industries: CompositionEntry[];
  companyStages: CompositionEntry[];
  ownershipGroups: CompositionEntry[];
  familyCoverage: FamilyCoverage[];
  participants: { id: string; name: string; employees: number }[];
}

/** A composition group as it may be published: counts only when the group passes the privacy rule. */
export interface DisclosedEntry {
  id: string;
  belowThreshold: boolean;
  /** Rounded down (roundDownCount); null below the threshold. */
  companies: number | null;
  employees: number | null;
  /** Of the rounded counts; the below-threshold bucket below the threshold. */
  companyBucket: SampleBucket;
  employeeBucket: SampleBucket;
}

/**
 * A published composition count, rounded down: to a multiple of five under 100 (7 → 5, 45 → 45,
 * 99 → 95), to two significant figures from 100 (799 → 790, 1,345 → 1,300). Exact counts would let
 * two overlapping groups be differenced: the United States minus its one published metro would give
 * a below-threshold metro's companies and employees exactly. Differences of published counts are
 * multiples of five (of ten from 100), so a group of one to four is never their difference.
 */
export function roundDownCount(count: number): number {
  if (count < 100) return COMPOSITION_COUNT_BASE * Math.floor(count / COMPOSITION_COUNT_BASE);
  const unit = 10 ** (Math.floor(Math.log10(count)) - 1);
  return Math.floor(count / unit) * unit;
}

/** Composition counts under 100 are multiples of this (as cells' counts are, disclosure/cellDraws.ts COUNT_BASE). */
export const COMPOSITION_COUNT_BASE = 5;

/**
 * The published form of a group: one with fewer companies or employees than the privacy rule's
 * minimums is said to be below the threshold, with no number and no finer bucket; the others are
 * rounded down (roundDownCount).
 */
export function disclose(entry: CompositionEntry, rule: PrivacyRule = DEFAULT_PRIVACY_RULE): DisclosedEntry {
  if (!meetsMinimums(rule, entry)) {
    return { id: entry.id, belowThreshold: true, companies: null, employees: null, companyBucket: BELOW_THRESHOLD_BUCKET, employeeBucket: BELOW_THRESHOLD_BUCKET };
  }
  const companies = roundDownCount(entry.companies);
  const employees = roundDownCount(entry.employees);
  return {
    id: entry.id,
    belowThreshold: false,
    companies,
    employees,
    companyBucket: bucketOf(COMPANY_COUNT_BUCKETS, companies),
    employeeBucket: bucketOf(EMPLOYEE_COUNT_BUCKETS, employees),
  };
}

/** Companies and employees of one group, from its records per company. */
function entryOf(id: string, perCompany: ArrayLike<number>): CompositionEntry {
  let companies = 0;
  let employees = 0;
  for (let c = 0; c < perCompany.length; c++) {
    const count = perCompany[c]!;
    if (count === 0) continue;
    companies++;
    employees += count;
  }
  return { id, companies, employees };
}

const compositions = new WeakMap<MarketRelease, Map<string, ReleaseComposition>>();

/**
 * Counts per dimension, computed once per release and population (a release never changes). Every
 * count of one composition stands on the same records: employees, as the market is, unless the
 * caller asks for contractors as a market filter does (`employmentTypes`); the totals, the
 * locations, the families, the industries and the coverage alike.
 */
export function describeRelease(release: MarketRelease, employmentTypes: readonly MarketEmploymentType[] = DEFAULT_EMPLOYMENT_TYPES): ReleaseComposition {
  const population = EMPLOYMENT_TYPES.filter((type) => employmentTypes.includes(type));
  const key = population.join(',');
  let known = compositions.get(release);
  if (!known) {
    known = new Map();
    compositions.set(release, known);
  }
  const cached = known.get(key);
  if (cached) return cached;
  const composition = compose(release, population);
  known.set(key, composition);
  return composition;
}

function compose(release: MarketRelease, employmentTypes: readonly MarketEmploymentType[]): ReleaseComposition {
  const { dimensions, records, companies } = release;
  // Per release location: whether its records are in the population (contractors sit at places of their own).
  const counted = Uint8Array.from(dimensions.locations, (id) => (employmentTypes.includes(placeOfLocation(id).contractor ? 'contractor' : 'employee') ? 1 : 0));
  const perCompany = new Uint32Array(companies.count);
  let employees = 0;
  for (let r = 0; r < release.recordCount; r++) {
    if (counted[records.location[r]!] === 0) continue;
    perCompany[records.company[r]!]!++;
    employees++;
  }
  const byCompanyAttribute = (codes: Uint8Array, ids: readonly string[]): CompositionEntry[] =>
    entries(ids, companies.count, (add) => {
      for (let c = 0; c < companies.count; c++) if (perCompany[c]! > 0) add(codes[c]!, c, perCompany[c]!);
    });
  const byRecordCounts = (codes: Uint8Array, size: number): Uint32Array =>
    countsPerCompany(size, companies.count, (add) => {
      for (let r = 0; r < release.recordCount; r++) if (counted[records.location[r]!] === 1) add(codes[r]!, records.company[r]!, 1);
    });
  return {
    releaseId: release.id,
    builtAt: release.builtAt,
    companies: entryOf('all', perCompany).companies,
    employees,
    jobFamilies: entriesFrom(dimensions.families, companies.count, byRecordCounts(records.family, dimensions.families.length)),
    levels: entriesFrom(dimensions.levels, companies.count, byRecordCounts(records.level, dimensions.levels.length)),
    locations: rollUpLocations(dimensions.locations, companies.count, byRecordCounts(records.location, dimensions.locations.length), employmentTypes),
    industries: byCompanyAttribute(companies.industry, dimensions.industries),
    companyStages: byCompanyAttribute(companies.stage, dimensions.stages),
    ownershipGroups: byCompanyAttribute(companies.ownership, dimensions.ownershipGroups),
    familyCoverage: familyCoverage(release, counted),
    participants: companies.ids.map((id, c) => ({ id, name: companies.names[c] ?? id, employees: perCompany[c]! })).filter((p) => p.employees > 0),
  };
}

type Add = (code: number, company: number, employees: number) => void;

/** Records per code × company (row `code` of `companyCount` counts), from whatever the walk adds. */
function countsPerCompany(codeCount: number, companyCount: number, walk: (add: Add) => void): Uint32Array {
  const counts = new Uint32Array(codeCount * companyCount);
  walk((code, company, employees) => {
    counts[code * companyCount + company]! += employees;
  });
  return counts;
}

/** One entry per code that holds any record. */
function entriesFrom(ids: readonly string[], companyCount: number, counts: Uint32Array): CompositionEntry[] {
  return ids.map((id, code) => entryOf(id, counts.subarray(code * companyCount, (code + 1) * companyCount))).filter((e) => e.employees > 0);
}

function entries(ids: readonly string[], companyCount: number, walk: (add: Add) => void): CompositionEntry[] {
  return entriesFrom(ids, companyCount, countsPerCompany(ids.length, companyCount, walk));
}

/**
 * Every location holds the records of its places (placesOf), as a market filter naming it reads
 * them: a metro its own, a country its own and its metros', tiers and regions theirs, and with
 * contractors the contractors' places beside them; per company, so companies are distinct, not summed.
 */
function rollUpLocations(placeIds: readonly string[], companyCount: number, counts: Uint32Array, employmentTypes: readonly MarketEmploymentType[]): CompositionEntry[] {
  const rowOf = new Map(placeIds.map((id, code) => [id, counts.subarray(code * companyCount, (code + 1) * companyCount)]));
  const rolled: CompositionEntry[] = [];
  for (const location of LOCATIONS) {
    const rows = recordLocationsOf(placesOf(location.paybenchLocationId), employmentTypes).flatMap((id) => rowOf.get(id) ?? []);
    if (rows.length === 0) continue;
    let sum = rows[0]!;
    if (rows.length > 1) {
      sum = new Uint32Array(companyCount);
      for (const row of rows) for (let c = 0; c < companyCount; c++) sum[c]! += row[c]!;
    }
    const entry = entryOf(location.paybenchLocationId, sum);
    if (entry.employees > 0) rolled.push(entry);
  }
  return rolled;
}

function familyCoverage(release: MarketRelease, counted: Uint8Array): FamilyCoverage[] {
  const coverage: FamilyCoverage[] = [];
  const levels = release.dimensions.levels.length;
  const runs = release.runCurrencies.length;
  const measures = { cash: release.measures.base, equity: release.measures.total_equity } as const;
  const perCompany = new Uint32Array(release.companies.count);
  for (const broadCompType of ['cash', 'equity'] as const) {
    const column = measures[broadCompType];
    release.dimensions.families.forEach((id, family) => {
      const from = column.offsets[family * levels * runs]!;
      const to = column.offsets[(family + 1) * levels * runs]!;
      if (from === to) return;
      perCompany.fill(0);
      for (let j = from; j < to; j++) {
        const who = column.who[j]!;
        if (counted[who & 255] === 1) perCompany[who >>> 8]!++;
      }
      const entry = entryOf(id, perCompany);
      if (entry.employees > 0) coverage.push({ ...entry, broadCompType });
    });
  }
  return coverage;
}
