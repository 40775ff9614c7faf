import type { Knex } from 'knex';
import { type Caller, companyScope } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { badRequest } from '../../kernel/errors.js';
import {
  COMPANY_STAGES,
  FOUNDER_TYPES,
  JOB_FAMILIES,
  LEVELS,
  OWNERSHIP_GROUPS,
  TOTAL_EQUITY_ID,
  UNITED_STATES_ID,
  findCompensationType,
  findLocation,
  type LevelType,
} from '../../reference/catalog/index.js';
import {
  BENCHMARK_REQUEST_MESSAGES,
  queryRelease,
  toPrecision,
  validateBenchmarkRequest,
  type BenchmarkCell,
  type BenchmarkRequest,
  type BenchmarkRequestInput,
  type MarketRelease,
} from '../engine/index.js';
import { currentRelease } from '../releases.js';
import { currencyForexMapping } from '../service.js';
import { findSettings } from '../store.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];
type Input = Schemas['LocationInsightsRequest'];
type InsightCell = Schemas['LocationInsightCell'];

export const LOCATION_INSIGHT_MESSAGES = {
  compensationType: 'Location insights compare a cash comp type or total equity',
  synthetic: 'Synthetic estimate: the location’s pay index across all roles, applied to this role',
} as const;

const syntheticLabel = (area: string): string => `Synthetic estimate: ${area}’s pay index across all roles, applied to this role`;

/** Below this many roles published in both places, a location's pay index is not estimated at all. */
const MIN_INDEX_GROUPS = 3;

/** The explorer request behind the insight: the reference as market filter 0, each location after it. */
function explorerInput(input: Input): BenchmarkRequestInput {
  const filter = input.marketFilter ?? {};
  const base = {
    companyStages: filter.companyStages ?? COMPANY_STAGES.map((s) => s.id),
    companyOwnershipGroups: filter.companyOwnershipGroups ?? OWNERSHIP_GROUPS.map((o) => o.id),
    industries: filter.industries ?? ['ind_all'],
    // Differentials are about places, whoever founded the company.
    founderTypes: FOUNDER_TYPES.map((f) => f.id),
  };
  const reference = input.referenceLocationId ?? UNITED_STATES_ID;
  return {
    compensationTypes: [input.compensationType ?? 'base'],
    marketFilters: [reference, ...input.locations].map((location) => ({ ...base, locations: [location] })),
    jobFamilies: input.jobFamilies,
    levels: input.levels,
    percentiles: [50],
    currency: 'USD',
  };
}

/** The explorer's checks, reported against this request's own fields. */
function check(input: Input): BenchmarkRequest {
  const explorer = explorerInput(input);
  const issues: { field: string; message: string }[] = [];
  const type = findCompensationType(input.compensationType ?? 'base');
  if (type && type.category === 'equity' && type.id !== TOTAL_EQUITY_ID) issues.push({ field: 'body.compensationType', message: LOCATION_INSIGHT_MESSAGES.compensationType });
  if (input.locations.length === 0) issues.push({ field: 'body.locations', message: BENCHMARK_REQUEST_MESSAGES.locations });
  for (const issue of validateBenchmarkRequest(explorer)) {
    const filter = /^marketFilters\[(\d+)\]\.(\w+)$/.exec(issue.field);
    let field = issue.field === 'compensationTypes' ? 'compensationType' : issue.field;
    if (filter) field = filter[2] === 'locations' ? (filter[1] === '0' ? 'referenceLocationId' : 'locations') : `marketFilter.${filter[2]}`;
    issues.push({ field: `body.${field}`, message: issue.message });
  }
  const unique = issues.filter((issue, i) => issues.findIndex((o) => o.field === issue.field && o.message === issue.message) === i);
  if (unique.length) throw badRequest(unique[0]?.message ?? 'The request is not valid', unique);
  return explorer as BenchmarkRequest;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const p50 = (cell: BenchmarkCell | undefined): number | null => (cell?.status === 'published' ? (cell.percentiles?.[0]?.value ?? null) : null);

const indexes = new WeakMap<MarketRelease, Map<string, number | null>>();

/**
 * A location's pay index against the reference: the median, over every family × level published in
 * both places across the whole market, of the ratio of their medians. Built only from cells the
 * privacy rule publishes, so it reveals nothing a thin cell would.
 */
function payIndex(release: MarketRelease, forex: Readonly<Record<string, number>>, compensationType: string, reference: string, location: string): number | null {
  let cache = indexes.get(release);
  if (!cache) indexes.set(release, (cache = new Map()));
  const key = `${compensationType}|${reference}|${location}`;
  if (cache.has(key)) return cache.get(key) ?? null;
  const everywhere = { companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'], founderTypes: FOUNDER_TYPES.map((f) => f.id) };
  const result = queryRelease(
    release,
    {
      compensationTypes: [compensationType],
      marketFilters: [{ ...everywhere, locations: [reference] }, { ...everywhere, locations: [location] }],
      jobFamilies: JOB_FAMILIES.map((f) => f.id),
      levels: LEVELS.map((l) => ({ type: 'level' as LevelType, id: l.id })),
      percentiles: [50],
      currency: 'USD',
    },
    { forex },
  );
  const half = result.cells.length / 2;
  const ratios: number[] = [];
  for (let i = 0; i < half; i++) {
    const there = p50(result.cells[half + i]);
    const here = p50(result.cells[i]);
    if (there !== null && here !== null && here > 0) ratios.push(there / here);
  }
  const index = ratios.length >= MIN_INDEX_GROUPS ? median(ratios) : null;
  cache.set(key, index);
  return index;
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

function locationName(id: string): string {
  return findLocation(id)?.paybenchLocationName ?? id;
}

function marketCell(cell: BenchmarkCell, locationId: string, referenceP50: number | null): InsightCell {
  const value = p50(cell);
  const differential = value !== null && referenceP50 ? value / referenceP50 : null;
  return {
    locationId,
    locationName: locationName(locationId),
    status: cell.status,
    source: cell.status === 'published' ? 'market' : null,
    label: cell.label,
    insufficientReason: cell.insufficientReason,
    p50: value,
    differential: differential === null ? null : round(differential, 4),
    differentialPercent: differential === null ? null : round((differential - 1) * 100, 1),
    sample: cell.sample,
  };
}

/**
 * The pay index of the location, or of the nearest area it belongs to (a metro's tier or country,
 * a country's region) when the location itself has too little published data for one.
 */
export function nearestIndex(release: MarketRelease, forex: Readonly<Record<string, number>>, compensationType: string, reference: string, location: string): { index: number; area: string } | null {
  for (let id: string | null | undefined = location; id; id = findLocation(id)?.parentId) {
    const index = payIndex(release, forex, compensationType, reference, id);
    if (index !== null) return { index, area: locationName(id) };
  }
  return null;
}

function syntheticCell(cell: InsightCell, { index, area }: { index: number; area: string }, referenceP50: number | null): InsightCell {
  return {
    ...cell,
    status: 'synthetic',
    source: 'synthetic',
    label: syntheticLabel(area),
    // A published local median stays; only a withheld one is estimated.
    // Published as market figures are: at three significant figures.
    p50: cell.p50 ?? (referenceP50 === null ? null : toPrecision(referenceP50 * index, 'nearest')),
    differential: round(index, 4),
    differentialPercent: round((index - 1) * 100, 1),
  };
}

/** Candidates never load the company's benchmarking settings; for them synthetic data is simply off. */
async function syntheticEnabled(db: Knex, caller: Caller): Promise<boolean> {
  if (caller.isCandidate) return false;
  return Boolean((await findSettings(db, companyScope(caller)))?.use_synthetic_location_insights_data);
}

/**
 * Each location's median against the reference location's, per family × level, in USD so places
 * paying in different currencies compare. A withheld location cell stays "Insufficient data" unless
 * the company chose synthetic location data, which fills it from the location's pay index, labelled.
 */
export async function locationInsights(ctx: Pick<ServiceContext, 'deps' | 'caller'>, input: Input): Promise<Schemas['LocationInsights']> {
  const { deps, caller } = ctx;
  const request = check(input);
  const synthetic = await syntheticEnabled(deps.db, caller);
  const served = await currentRelease(deps);
  const forex = await currencyForexMapping(deps.db);
  const result = queryRelease(served.release, request, { forex });
  const referenceId = input.referenceLocationId ?? UNITED_STATES_ID;
  const compensationType = request.compensationTypes[0] ?? 'base';
  const perFilter = result.cells.length / request.marketFilters.length;
  let used = false;
  const rows = Array.from({ length: perFilter }, (_, i) => {
    const referenceCell = result.cells[i]!;
    const referenceP50 = p50(referenceCell);
    const locations = input.locations.map((locationId, k) => {
      const cell = marketCell(result.cells[(k + 1) * perFilter + i]!, locationId, referenceP50);
      if (cell.status === 'published' && referenceP50 !== null) return cell;
      if (!synthetic) return cell;
      const index = nearestIndex(served.release, forex, compensationType, referenceId, locationId);
      if (index === null) return cell;
      used = true;
      return syntheticCell(cell, index, referenceP50);
    });
    return {
      jobFamilyId: referenceCell.jobFamilyId,
      levelType: referenceCell.levelType,
      levelId: referenceCell.levelId,
      reference: marketCell(referenceCell, referenceId, referenceP50),
      locations,
    };
  });
  return {
    releaseId: served.release.id,
    releaseVersion: served.row.version,
    compensationTypeId: compensationType,
    currency: 'USD',
    referenceLocation: { id: referenceId, name: locationName(referenceId) },
    synthetic: { enabled: synthetic, used, label: LOCATION_INSIGHT_MESSAGES.synthetic },
    rows,
  };
}
