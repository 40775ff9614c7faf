import { COMPANY_STAGES, JOB_FAMILIES, LEVELS, OWNERSHIP_GROUPS } from '../src/reference/catalog/index.js';
import type { BenchmarkRequest, MarketFilter } from '../src/market/engine/request.js';

/** The five comp types both shapes ask for: three cash, two equity (one with equity options). */
const COMPENSATION_TYPES = ['base', 'annual_bonus', 'total_cash', 'total_equity', 'new_hire_equity'];
const EQUITY = { intendedVsActual: ['intended'], views: ['value'], timeframes: ['annualized'] };

const everyStage = COMPANY_STAGES.map((s) => s.id);
const everyOwnershipGroup = OWNERSHIP_GROUPS.map((o) => o.id);

const venturePeersInTierOne: MarketFilter = {
  companyStages: ['series_b', 'series_c', 'series_d_plus'],
  companyOwnershipGroups: ['venture_backed'],
  locations: ['840_1'],
  industries: ['ind_technology'],
};

/** Spans USD and CAD, so the typical request also converts and merges currencies. */
const northAmerica: MarketFilter = {
  companyStages: everyStage,
  companyOwnershipGroups: everyOwnershipGroup,
  locations: ['840', '124'],
  industries: ['ind_all'],
};

/** E9 is among every level, so the filter names both founder types. */
const allOfUs: MarketFilter = { ...northAmerica, locations: ['840'], founderTypes: ['founder', 'non_founder'] };

/** A typical explorer request: 3 families × 4 levels × 2 market filters × 5 comp types. */
export const TYPICAL_REQUEST: BenchmarkRequest = {
  compensationTypes: COMPENSATION_TYPES,
  equity: EQUITY,
  jobFamilies: ['software_engineering', 'product_management', 'data_science'],
  levels: ['p2', 'p3', 'p4', 'p5'].map((id) => ({ type: 'level', id })),
  marketFilters: [venturePeersInTierOne, northAmerica],
  currency: 'USD',
};

/** A narrow slice: one sub-industry, one stage, one ownership group, all of the US. */
export const NARROW_REQUEST: BenchmarkRequest = {
  compensationTypes: COMPENSATION_TYPES,
  equity: EQUITY,
  jobFamilies: ['software_engineering', 'product_management', 'data_science'],
  levels: ['p2', 'p3', 'p4', 'p5'].map((id) => ({ type: 'level', id })),
  marketFilters: [{ companyStages: ['series_b'], companyOwnershipGroups: ['venture_backed'], locations: ['840'], industries: ['ind_fin_fintech'] }],
  currency: 'USD',
};

/** The broadest: every family × every level, all of the US. */
export const BROAD_REQUEST: BenchmarkRequest = {
  compensationTypes: COMPENSATION_TYPES,
  equity: EQUITY,
  jobFamilies: JOB_FAMILIES.map((f) => f.id),
  levels: LEVELS.map((l) => ({ type: 'level', id: l.id })),
  marketFilters: [allOfUs],
  currency: 'USD',
};
