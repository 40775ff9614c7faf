import type { LevelType, MarketPercentile } from '../../reference/catalog/index.js';
import type { MarketEmploymentType } from './participants.js';

/** 'local', or the ISO 4217 code every amount is converted to (one the reference rates hold). */
export type CurrencyMode = string;

export interface LevelSelection {
  type: LevelType;
  id: string;
}

/** One slice of the market: every list is a union, and the lists intersect. */
export interface MarketFilter {
  companyStages: string[];
  companyOwnershipGroups: string[];
  /** Metros, US tiers, countries or regions; each expands to its places (metros and countries). */
  locations: string[];
  /** Industry groups, sub-industries, or the all-industries id. */
  industries: string[];
  /** Needed when E9 is selected; narrows only the E9 records. */
  founderTypes?: string[];
  /** 'employee', 'contractor' or both; employees only when absent (contractors only on request). */
  employmentTypes?: MarketEmploymentType[];
}

/** Options applied to every equity comp type other than total equity. */
export interface EquitySelection {
  intendedVsActual?: string[];
  views?: string[];
  timeframes?: string[];
  /** Timeframes for unvested equity, which has its own. */
  unvestedTimeframes?: string[];
}

/** The data explorer's request: every family × level × market filter × comp type is one cell. */
export interface BenchmarkRequest {
  compensationTypes: string[];
  marketFilters: MarketFilter[];
  /** Job families or family blend groups. */
  jobFamilies: string[];
  levels: LevelSelection[];
  equity?: EquitySelection;
  /** Some of the catalog's seven percentiles (no other is published); all seven when omitted. */
  percentiles?: MarketPercentile[];
  /** Local currency (default) or an ISO 4217 code. */
  currency?: CurrencyMode;
}

/** The same request as it arrives, before anything is known to be present. */
export interface BenchmarkRequestInput {
  compensationTypes?: string[] | null;
  marketFilters?: Partial<MarketFilter>[] | null;
  jobFamilies?: string[] | null;
  levels?: { type?: string; id?: string }[] | null;
  equity?: EquitySelection | null;
  percentiles?: number[] | null;
  currency?: string | null;
}

export interface ValidationIssue {
  field: string;
  message: string;
}
