import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../../reference/catalog/index.js';
import { catalogDimensions, contractorPlace, emptyAmounts, type MeasureId, type ParticipantMarket, type ReleaseDimensions } from './participants.js';
import type { BenchmarkRequest, MarketFilter } from './request.js';

/** Hand-made markets for the attack battery (attacks/) and the engine's tests: every record spelled out, defaults for what a test does not care about. */
export const dimensions = catalogDimensions();
export const code = (ids: readonly string[], id: string): number => {
  const index = ids.indexOf(id);
  if (index < 0) throw new Error(`no code for ${id}`);
  return index;
};

export interface CompanySpec {
  stage?: string;
  ownership?: string;
  industry?: string;
  valuationUsd?: number;
  priceRatio?: number;
}

export interface RecordSpec {
  company: number;
  base: number;
  family?: string;
  level?: string;
  location?: string;
  founder?: 'founder' | 'non_founder';
  /** A contractor's record, read only by filters that include contractors. */
  contractor?: boolean;
  amounts?: Partial<Record<MeasureId, number>>;
  /** A participant's person tag (ParticipantEmployees.person); absent: told apart by rank. */
  person?: number;
}

/** A hand-made market: every record spelled out, defaults for what a test does not care about. */
export function marketOf(companies: CompanySpec[], records: RecordSpec[]): ParticipantMarket {
  const n = records.length;
  const dimensions = withContractorPlaces(records);
  const amounts = emptyAmounts(n);
  const employees = {
    count: n,
    company: Uint32Array.from(records, (r) => r.company),
    family: Uint8Array.from(records, (r) => code(dimensions.families, r.family ?? 'software_engineering')),
    level: Uint8Array.from(records, (r) => code(dimensions.levels, r.level ?? 'p3')),
    location: Uint8Array.from(records, (r) => code(dimensions.locations, locationOf(r))),
    founder: Uint8Array.from(records, (r) => (r.founder ? code(dimensions.founderTypes, r.founder) + 1 : 0)),
    amounts,
    person: Int32Array.from(records, (r) => r.person ?? 0),
  };
  records.forEach((record, i) => {
    amounts.base[i] = record.base;
    for (const [measure, value] of Object.entries(record.amounts ?? {}) as [MeasureId, number][]) amounts[measure][i] = value;
  });
  return {
    dimensions,
    companies: {
      count: companies.length,
      ids: companies.map((_, i) => `company_${i}`),
      names: companies.map((_, i) => `Company ${i}`),
      stage: Uint8Array.from(companies, (c) => code(dimensions.stages, c.stage ?? 'series_b')),
      ownership: Uint8Array.from(companies, (c) => code(dimensions.ownershipGroups, c.ownership ?? 'venture_backed')),
      industry: Uint8Array.from(companies, (c) => code(dimensions.industries, c.industry ?? 'ind_tech_saas')),
      headquarters: new Uint8Array(companies.length),
      valuationUsd: Float64Array.from(companies, (c) => c.valuationUsd ?? 100e6),
      priceRatio: Float64Array.from(companies, (c) => c.priceRatio ?? 1),
    },
    employees,
  };
}

function locationOf(record: RecordSpec): string {
  const place = record.location ?? 'us_sf_bay_area';
  return record.contractor ? contractorPlace(place) : place;
}

/** The catalog's places, and the contractors' places the records need after them. */
function withContractorPlaces(records: RecordSpec[]): ReleaseDimensions {
  const added = [...new Set(records.filter((r) => r.contractor).map(locationOf))];
  if (added.length === 0) return dimensions;
  const currencyOf = (id: string): string => dimensions.locationCurrencies[code(dimensions.locations, id.slice(0, id.indexOf('+')))]!;
  return { ...dimensions, locations: [...dimensions.locations, ...added], locationCurrencies: [...dimensions.locationCurrencies, ...added.map(currencyOf)] };
}

/** Records spread over companies: sizes[i] records for company i, bases counting up from `from`. */
export function recordsFor(sizes: number[], from = 100_000, step = 1_000, extra: Partial<RecordSpec> = {}): RecordSpec[] {
  const records: RecordSpec[] = [];
  sizes.forEach((size, company) => {
    for (let k = 0; k < size; k++) records.push({ company, base: from + step * records.length, ...extra });
  });
  return records;
}

export const EVERYWHERE: MarketFilter = {
  companyStages: COMPANY_STAGES.map((s) => s.id),
  companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id),
  locations: ['840', '124', '150'],
  industries: ['ind_all'],
};

export function request(overrides: Partial<BenchmarkRequest> = {}): BenchmarkRequest {
  return {
    compensationTypes: ['base'],
    marketFilters: [EVERYWHERE],
    jobFamilies: ['software_engineering'],
    levels: [{ type: 'level', id: 'p3' }],
    ...overrides,
  };
}

export const FOREX = { USD: 1, CAD: 1.35, GBP: 0.8, EUR: 0.92 };

