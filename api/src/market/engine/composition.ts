import {
  COMPANY_COUNT_BUCKETS,
  EMPLOYEE_COUNT_BUCKETS,
  LOCATIONS,
  bucketOf,
  metrosOf,
  type CompensationCategory,
  type SampleBucket,
} from '../catalog/index.js';
import type { MarketRelease } from './release.js';

/** How much of the market one value of a dimension holds. */
export interface CompositionEntry {
  id: string;
  companies: number;
  employees: number;
  companyBucket: SampleBucket;
  employeeBucket: SampleBucket;
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
  /** Every catalog location the release has records in: metros, and the tiers, countries and regions they roll up to. */
  locations: CompositionEntry[];
  industries: CompositionEntry[];
  companyStages: CompositionEntry[];
  ownershipGroups: CompositionEntry[];
  familyCoverage: FamilyCoverage[];
  participants: { id: string; name: string; employees: number }[];
}

const compositions = new WeakMap<MarketRelease, ReleaseComposition>();

/** Counts per dimension, computed once per release (a release never changes). */
export function describeRelease(release: MarketRelease): ReleaseComposition {
  const known = compositions.get(release);
  if (known) return known;
  const { dimensions, records, companies } = release;
  const perCompany = release.companyRecords;
  const byCompanyAttribute = (codes: Uint8Array, ids: readonly string[]): CompositionEntry[] =>
    tally(ids, companies.count, (add) => {
      for (let c = 0; c < companies.count; c++) if (perCompany[c]! > 0) add(codes[c]!, c, perCompany[c]!);
    });
  const byRecord = (codes: Uint8Array, ids: readonly string[]): CompositionEntry[] =>
    tally(ids, companies.count, (add) => {
      for (let r = 0; r < release.recordCount; r++) add(codes[r]!, records.company[r]!, 1);
    });
  const composition: ReleaseComposition = {
    releaseId: release.id,
    builtAt: release.builtAt,
    companies: perCompany.reduce((n, count) => n + (count > 0 ? 1 : 0), 0),
    employees: release.recordCount,
    jobFamilies: byRecord(records.family, dimensions.families),
    levels: byRecord(records.level, dimensions.levels),
    locations: rollUpLocations(byRecord(records.location, dimensions.locations), release),
    industries: byCompanyAttribute(companies.industry, dimensions.industries),
    companyStages: byCompanyAttribute(companies.stage, dimensions.stages),
    ownershipGroups: byCompanyAttribute(companies.ownership, dimensions.ownershipGroups),
    familyCoverage: familyCoverage(release),
    participants: companies.ids.map((id, c) => ({ id, name: companies.names[c] ?? id, employees: perCompany[c]! })).filter((p) => p.employees > 0),
  };
  compositions.set(release, composition);
  return composition;
}

function entry(id: string, companies: number, employees: number): CompositionEntry {
  return {
    id,
    companies,
    employees,
    companyBucket: bucketOf(COMPANY_COUNT_BUCKETS, companies),
    employeeBucket: bucketOf(EMPLOYEE_COUNT_BUCKETS, employees),
  };
}

type Add = (code: number, company: number, employees: number) => void;

/** Employees and distinct companies per code, from whatever the walk adds. */
function tally(ids: readonly string[], companyCount: number, walk: (add: Add) => void): CompositionEntry[] {
  const employees = new Float64Array(ids.length);
  const seen = new Uint8Array(ids.length * companyCount);
  const companies = new Uint32Array(ids.length);
  walk((code, company, count) => {
    employees[code]! += count;
    if (seen[code * companyCount + company] === 0) {
      seen[code * companyCount + company] = 1;
      companies[code]!++;
    }
  });
  return ids.map((id, code) => entry(id, companies[code]!, employees[code]!)).filter((e) => e.employees > 0);
}

/** Tiers, countries and regions hold the distinct companies of their metros, not the sum. */
function rollUpLocations(metros: CompositionEntry[], release: MarketRelease): CompositionEntry[] {
  const byMetro = new Map(metros.map((m) => [m.id, m]));
  const companiesAt = new Map<string, Set<number>>();
  const { records, dimensions } = release;
  for (let r = 0; r < release.recordCount; r++) {
    const metro = dimensions.locations[records.location[r]!]!;
    let set = companiesAt.get(metro);
    if (!set) companiesAt.set(metro, (set = new Set()));
    set.add(records.company[r]!);
  }
  const rolled: CompositionEntry[] = [];
  for (const location of LOCATIONS) {
    if (location.kind === 'metro') {
      const metro = byMetro.get(location.paybenchLocationId);
      if (metro) rolled.push(metro);
      continue;
    }
    const members = metrosOf(location.paybenchLocationId);
    const employees = members.reduce((n, id) => n + (byMetro.get(id)?.employees ?? 0), 0);
    if (employees === 0) continue;
    const companies = new Set(members.flatMap((id) => [...(companiesAt.get(id) ?? [])]));
    rolled.push(entry(location.paybenchLocationId, companies.size, employees));
  }
  return rolled;
}

function familyCoverage(release: MarketRelease): FamilyCoverage[] {
  const coverage: FamilyCoverage[] = [];
  const levels = release.dimensions.levels.length;
  const currencies = release.currencies.length;
  const measures = { cash: release.measures.base, equity: release.measures.total_equity } as const;
  for (const broadCompType of ['cash', 'equity'] as const) {
    const column = measures[broadCompType];
    release.dimensions.families.forEach((id, family) => {
      const from = column.offsets[family * levels * currencies]!;
      const to = column.offsets[(family + 1) * levels * currencies]!;
      if (from === to) return;
      const companies = new Set<number>();
      for (let j = from; j < to; j++) companies.add(column.company[j]!);
      coverage.push({ ...entry(id, companies.size, to - from), broadCompType });
    });
  }
  return coverage;
}
