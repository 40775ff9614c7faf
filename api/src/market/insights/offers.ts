import type { components } from '../../contract-types.js';
import { badRequest } from '../../kernel/errors.js';
import { COMPANY_STAGES, FOUNDER_TYPES, OWNERSHIP_GROUPS, REPORT_PERCENTILES } from '../../reference/catalog/index.js';
import { queryRelease, validateBenchmarkRequest, type BenchmarkCell, type BenchmarkRequest, type BenchmarkRequestInput } from '../engine/index.js';
import { currentRelease } from '../releases.js';
import { forexFor } from '../service.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];
type Input = Schemas['OfferInsightsRequest'];

/** New-hire grants are compared as offered: intended value of the whole grant. */
const NEW_HIRE_EQUITY = { intendedVsActual: ['intended'], views: ['value'], timeframes: ['total_grant'] };
const SPREAD_PERCENTILES = [25, 50, 75];

function explorerInput(input: Input): BenchmarkRequestInput {
  const filter = input.marketFilter ?? {};
  return {
    compensationTypes: ['base', 'total_cash', 'new_hire_equity'],
    marketFilters: [
      {
        companyStages: filter.companyStages ?? COMPANY_STAGES.map((s) => s.id),
        companyOwnershipGroups: filter.companyOwnershipGroups ?? OWNERSHIP_GROUPS.map((o) => o.id),
        industries: filter.industries ?? ['ind_all'],
        locations: [input.locationId],
        founderTypes: FOUNDER_TYPES.map((f) => f.id),
      },
    ],
    jobFamilies: [input.jobFamilyId],
    levels: [input.level],
    equity: NEW_HIRE_EQUITY,
    percentiles: [...new Set([...(input.percentiles ?? REPORT_PERCENTILES), ...SPREAD_PERCENTILES])].sort((a, b) => a - b),
    currency: input.currency ?? 'local',
  };
}

/** The explorer's checks, named after this request's own fields. */
function check(input: Input): BenchmarkRequest {
  const explorer = explorerInput(input);
  const issues = validateBenchmarkRequest(explorer).map((issue) => {
    const filter = /^marketFilters\[0\]\.(\w+)$/.exec(issue.field);
    const field = filter ? (filter[1] === 'locations' ? 'locationId' : `marketFilter.${filter[1]}`) : issue.field === 'jobFamilies' ? 'jobFamilyId' : issue.field === 'levels' ? 'level' : issue.field;
    return { field: `body.${field}`, message: issue.message };
  });
  if (issues.length) throw badRequest(issues[0]?.message ?? 'The request is not valid', issues);
  return explorer as BenchmarkRequest;
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * What matters for an offer to be accepted: where the middle of the market sits and how wide it is.
 * An offer from the median to the 75th percentile is competitive; below the 25th it is likely refused.
 */
function spreadOf(cell: BenchmarkCell): Schemas['OfferSpread'] | null {
  if (cell.status !== 'published' || !cell.percentiles) return null;
  const at = (p: number): number => cell.percentiles?.find((v) => v.percentile === p)?.value ?? Number.NaN;
  const [p25, p50, p75] = [at(25), at(50), at(75)];
  return {
    p25,
    p50,
    p75,
    interquartileRange: p75 - p25,
    interquartilePercentOfMedian: p50 > 0 ? round(((p75 - p25) / p50) * 100, 1) : null,
    competitiveRange: { low: p50, high: p75 },
    likelyDeclinedBelow: p25,
  };
}

/** Market percentiles of base, total cash and new-hire equity for one role and place, with their spread. */
export async function offerInsights(ctx: Pick<ServiceContext, 'deps'>, input: Input): Promise<Schemas['OfferInsights']> {
  const { deps } = ctx;
  const request = check(input);
  const served = await currentRelease(deps);
  const result = queryRelease(served.release, request, { forex: await forexFor({ db: deps.db }, request.currency) });
  const cell = (id: string): BenchmarkCell => {
    const found = result.cells.find((c) => c.compensationTypeId === id);
    if (!found) throw new Error(`No ${id} cell in an offer insight`);
    return found;
  };
  const base = cell('base');
  const totalCash = cell('total_cash');
  const newHireEquity = cell('new_hire_equity');
  return {
    releaseId: served.release.id,
    releaseVersion: served.row.version,
    jobFamilyId: input.jobFamilyId,
    level: input.level as Schemas['OfferInsights']['level'],
    locationId: input.locationId,
    currencyMode: result.currencyMode,
    percentiles: result.percentiles,
    base,
    totalCash,
    newHireEquity,
    spread: { base: spreadOf(base), totalCash: spreadOf(totalCash), newHireEquity: spreadOf(newHireEquity) },
  };
}
