import {
  COMPANY_STAGES,
  FOUNDER_TYPES,
  JOB_FAMILIES,
  LEVELS,
  METROS,
  OWNERSHIP_GROUPS,
  SUB_INDUSTRIES,
} from '../catalog/index.js';

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

/** Marks an amount a record does not have (no variable pay, no refresher grant, …). */
export const NO_AMOUNT = -1;

/**
 * Code tables: a code is the index of its id. A release keeps its own copy, so it stays readable
 * after the catalog grows.
 */
export interface ReleaseDimensions {
  families: readonly string[];
  levels: readonly string[];
  /** Metro ids. */
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
}

/** The market a release is built from: participant companies and their employee records. */
export interface ParticipantMarket {
  dimensions: ReleaseDimensions;
  companies: ParticipantCompanies;
  employees: ParticipantEmployees;
}

/** Code tables taken from the current catalog. */
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
