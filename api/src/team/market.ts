import type { AppDeps } from '../deps.js';
import {
  ALL_INDUSTRIES_ID,
  COMPANY_STAGES,
  FOUNDER_LEVEL_ID,
  FOUNDER_TYPES,
  INSUFFICIENT_DATA_LABEL,
  OWNERSHIP_GROUPS,
  findJobFamily,
  findLevel,
  findLocation,
} from '../reference/catalog/index.js';
import type { BenchmarkRequest } from '../market/engine/index.js';
import { currentRelease } from '../market/releases.js';
import { checkedRequest, marketData } from '../market/service.js';

/** The market cell an employee is priced against: their family × level × location. */
export interface MarketCell {
  jobFamilyId: string;
  levelId: string;
  locationId: string;
}

export type MarketMedian =
  | { status: 'published'; p50: number; currency: string }
  | { status: 'insufficient_data'; label: string }
  | { status: 'unmatched'; label: string };

export const NO_MARKET_MATCH = 'No market match';

/** The cell of an employee, when the catalog knows their family, level and location. */
export function marketCellOf(employee: { job_family_id: string | null; level_id: string | null; location_id: string | null }): MarketCell | null {
  const { job_family_id: family, level_id: level, location_id: location } = employee;
  if (!family || !level || !location) return null;
  if (!findJobFamily(family) || !findLevel(level) || !findLocation(location)) return null;
  return { jobFamilyId: family, levelId: level, locationId: location };
}

const keyOf = (cell: MarketCell): string => `${cell.jobFamilyId}|${cell.levelId}|${cell.locationId}`;

/**
 * Everything in the market, in one place: the filter the data explorer uses for "all companies in
 * this location". Asking the benchmarking service (not the engine) keeps the answer identical to
 * what `POST /api/benchmarking/market-data` returns for the same cell.
 */
export function marketRequestFor(locationId: string, jobFamilies: string[], levels: string[]): BenchmarkRequest {
  const needsFounders = levels.includes(FOUNDER_LEVEL_ID);
  return checkedRequest({
    compensationTypes: ['base'],
    marketFilters: [
      {
        companyStages: COMPANY_STAGES.map((stage) => stage.id),
        companyOwnershipGroups: OWNERSHIP_GROUPS.map((group) => group.id),
        locations: [locationId],
        industries: [ALL_INDUSTRIES_ID],
        ...(needsFounders ? { founderTypes: FOUNDER_TYPES.map((type) => type.id) } : {}),
      },
    ],
    jobFamilies,
    levels: levels.map((id) => ({ type: 'level', id })),
    percentiles: [50],
    currency: 'local',
  });
}

export interface MarketMedians {
  releaseVersion: string;
  of(cell: MarketCell | null): MarketMedian;
}

/** The market p50 of base salary for each distinct cell, one benchmarking query per location. */
export async function marketMedians(deps: AppDeps, cells: (MarketCell | null)[]): Promise<MarketMedians> {
  const byLocation = new Map<string, { families: Set<string>; levels: Set<string> }>();
  for (const cell of cells) {
    if (!cell) continue;
    const entry = byLocation.get(cell.locationId) ?? { families: new Set<string>(), levels: new Set<string>() };
    entry.families.add(cell.jobFamilyId);
    entry.levels.add(cell.levelId);
    byLocation.set(cell.locationId, entry);
  }
  const answers = new Map<string, MarketMedian>();
  let releaseVersion = '';
  for (const [locationId, entry] of byLocation) {
    const result = await marketData({ deps }, marketRequestFor(locationId, [...entry.families].sort(), [...entry.levels].sort()));
    releaseVersion = result.releaseVersion;
    for (const cell of result.cells) {
      const key = keyOf({ jobFamilyId: cell.jobFamilyId, levelId: cell.levelId, locationId });
      const p50 = cell.percentiles?.find((value) => value.percentile === 50)?.value;
      answers.set(
        key,
        cell.status === 'published' && p50 !== undefined && p50 > 0 && cell.currency
          ? { status: 'published', p50, currency: cell.currency }
          : { status: 'insufficient_data', label: cell.label ?? INSUFFICIENT_DATA_LABEL },
      );
    }
  }
  if (!releaseVersion) releaseVersion = (await currentRelease(deps)).row.version;
  return {
    releaseVersion,
    of: (cell) => (cell ? (answers.get(keyOf(cell)) ?? { status: 'unmatched', label: NO_MARKET_MATCH }) : { status: 'unmatched', label: NO_MARKET_MATCH }),
  };
}
