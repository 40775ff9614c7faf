import {
  COMPANY_STAGES,
  FOUNDER_TYPES,
  GRANT_TIMING,
  GRANT_TYPES,
  VESTING_CLIFFS,
  VESTING_FREQUENCIES,
  VESTING_SCHEDULES,
  JOB_FAMILIES,
  LEVELS,
  METROS,
  OWNERSHIP_GROUPS,
  SUB_INDUSTRIES,
} from '../../reference/catalog/index.js';

/**
 * Amount columns a release stores. Each comp type (with its equity options) reads one of them;
 * the next-12-months unvested amount backs the unvested timeframe of the same name.
 */
export const MEASURE_IDS = [
  'base',
  'variable',
  'annual_bonus',
  'total_cash',
  'total_equity',
  'new_hire_equity',
  'refresher_equity',
  'promotion_equity',
  'performance_equity',
  'unvested_equity',
  'unvested_equity_next_12_months',
] as const;

export type MeasureId = (typeof MEASURE_IDS)[number];

const measureIds: ReadonlySet<string> = new Set(MEASURE_IDS);

export function isMeasureId(id: string): id is MeasureId {
  return measureIds.has(id);
}

/**
 * Who a record is. The market is employees' pay; contractors' records are kept in the release beside
 * them and a market filter includes them only when it asks (interns never go in).
 */
export const EMPLOYMENT_TYPES = ['employee', 'contractor'] as const;
export type MarketEmploymentType = (typeof EMPLOYMENT_TYPES)[number];
/** What a market filter includes when it names no employment type. */
export const DEFAULT_EMPLOYMENT_TYPES: readonly MarketEmploymentType[] = ['employee'];

const CONTRACTORS_AT = '+contractor';

/**
 * Contractors are located at a place of their own beside their place of work ("us_boston" →
 * "us_boston+contractor"): their records sit in runs of their own, a filter reaches them only by
 * naming contractors, and every path of the engine (whole slices, scans, keys) treats them as a
 * location like any other, so disclosure control covers them as one more filter dimension.
 */
export function contractorPlace(placeId: string): string {
  return `${placeId}${CONTRACTORS_AT}`;
}

/** The place of work of a release location, and whether its records are contractors'. */
export function placeOfLocation(id: string): { placeId: string; contractor: boolean } {
  return id.endsWith(CONTRACTORS_AT) ? { placeId: id.slice(0, -CONTRACTORS_AT.length), contractor: true } : { placeId: id, contractor: false };
}

/** The release locations a filter's places and employment types select. */
export function recordLocationsOf(placeIds: readonly string[], employmentTypes: readonly string[] = DEFAULT_EMPLOYMENT_TYPES): string[] {
  const locations: string[] = [];
  if (employmentTypes.includes('employee')) locations.push(...placeIds);
  if (employmentTypes.includes('contractor')) locations.push(...placeIds.map(contractorPlace));
  return locations;
}

/** Location codes are bytes: a release holds at most this many places. */
export const MAX_PLACES = 256;

/** Marks an amount a record does not have (no variable pay, no refresher grant, …). */
export const NO_AMOUNT = -1;

/**
 * Code tables: a code is the index of its id. A release keeps its own copy, so it stays readable
 * after the catalog grows.
 */
export interface ReleaseDimensions {
  families: readonly string[];
  levels: readonly string[];
  /**
   * Place ids (metros and countries, see PLACES): the demo's metros, then the places contributed
   * records add. Codes are bytes, so a release holds at most MAX_PLACES.
   */
  locations: readonly string[];
  /** ISO 4217 code of each location, by location code. */
  locationCurrencies: readonly string[];
  /** Sub-industry ids. */
  industries: readonly string[];
  stages: readonly string[];
  ownershipGroups: readonly string[];
  /** Founder code 0 means not recorded; code c > 0 is founderTypes[c - 1]. */
  founderTypes: readonly string[];
}

export interface ParticipantCompanies {
  count: number;
  ids: readonly string[];
  names: readonly string[];
  stage: Uint8Array;
  ownership: Uint8Array;
  industry: Uint8Array;
  headquarters: Uint8Array;
  /** Fully diluted valuation at grant time, in USD; prices the percent-of-company view. */
  valuationUsd: Float64Array;
  /** Current share price over the price at grant; turns intended equity value into actual value. */
  priceRatio: Float64Array;
}

export interface ParticipantEmployees {
  count: number;
  company: Uint32Array;
  family: Uint8Array;
  level: Uint8Array;
  location: Uint8Array;
  founder: Uint8Array;
  /** Whole units of the location's currency, or NO_AMOUNT. */
  amounts: Record<MeasureId, Int32Array>;
  /**
   * Who each record is (a participant's keyed person tag, see ContributedRecord.person), 0 when not
   * known (generated records): the record's move is drawn from it instead of its rank in its company.
   */
  person?: Int32Array;
}

/** Marks a practice a company did not report. */
export const UNKNOWN_PRACTICE = 255;

/** `grantsEquity` of a company that neither said whether it grants equity nor showed grants. */
export const EQUITY_PROGRAMME_UNKNOWN = 2;

/**
 * How each participant company grants equity, as codes into the tables beside them (a release keeps
 * its own copy of the tables, like its dimensions). Companies without an equity programme have
 * grantsEquity 0 and unknown practices; companies not known either way EQUITY_PROGRAMME_UNKNOWN.
 */
export interface EquityPractices {
  tables: {
    grantTypes: readonly string[];
    vestingSchedules: readonly string[];
    cliffs: readonly string[];
    vestingFrequencies: readonly string[];
    grantTimings: readonly string[];
  };
  grantsEquity: Uint8Array;
  grantType: Uint8Array;
  vestingSchedule: Uint8Array;
  cliff: Uint8Array;
  vestingFrequency: Uint8Array;
  /** Bit k set when the company grants at grantTimings[k]. */
  grantTiming: Uint8Array;
}

/** The market a release is built from: participant companies and their employee records. */
export interface ParticipantMarket {
  dimensions: ReleaseDimensions;
  companies: ParticipantCompanies;
  employees: ParticipantEmployees;
  /** Absent for markets built before practices were generated; the release then has none. */
  equityPractices?: EquityPractices;
  /**
   * Companies 0 … syntheticCompanies − 1 are generated (the demo market), the rest are participants;
   * absent means none is generated.
   */
  syntheticCompanies?: number;
}

/** A market with no company yet: what a release of participants alone starts from. */
export function emptyMarket(): ParticipantMarket {
  return {
    dimensions: catalogDimensions(),
    companies: {
      count: 0,
      ids: [],
      names: [],
      stage: new Uint8Array(0),
      ownership: new Uint8Array(0),
      industry: new Uint8Array(0),
      headquarters: new Uint8Array(0),
      valuationUsd: new Float64Array(0),
      priceRatio: new Float64Array(0),
    },
    employees: {
      count: 0,
      company: new Uint32Array(0),
      family: new Uint8Array(0),
      level: new Uint8Array(0),
      location: new Uint8Array(0),
      founder: new Uint8Array(0),
      amounts: emptyAmounts(0),
    },
    syntheticCompanies: 0,
  };
}

/** Code tables of equity practices, from the current catalog. */
export function catalogPracticeTables(): EquityPractices['tables'] {
  return {
    grantTypes: GRANT_TYPES.map((t) => t.id),
    vestingSchedules: VESTING_SCHEDULES.map((v) => v.id),
    cliffs: VESTING_CLIFFS.map((c) => c.id),
    vestingFrequencies: VESTING_FREQUENCIES.map((f) => f.id),
    grantTimings: GRANT_TIMING.map((g) => g.id),
  };
}

/** Code tables taken from the current catalog; the places are the metros, where the demo market lies. */
export function catalogDimensions(): ReleaseDimensions {
  return {
    families: JOB_FAMILIES.map((f) => f.id),
    levels: LEVELS.map((l) => l.id),
    locations: METROS.map((m) => m.paybenchLocationId),
    locationCurrencies: METROS.map((m) => m.currencyCode),
    industries: SUB_INDUSTRIES.map((s) => s.upstreamId),
    stages: COMPANY_STAGES.map((s) => s.id),
    ownershipGroups: OWNERSHIP_GROUPS.map((o) => o.id),
    founderTypes: FOUNDER_TYPES.map((f) => f.id),
  };
}

export function emptyAmounts(count: number): Record<MeasureId, Int32Array> {
  const amounts = {} as Record<MeasureId, Int32Array>;
  for (const id of MEASURE_IDS) amounts[id] = new Int32Array(count).fill(NO_AMOUNT);
  return amounts;
}
