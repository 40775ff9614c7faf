import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { getCompany } from '../companies/service.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { notFound } from '../kernel/errors.js';
import { FOUNDER_TYPES, INSUFFICIENT_DATA_LABEL, type LevelType, type MarketPercentile, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { type BenchmarkCell, queryRelease } from '../market/engine/index.js';
import { type ServedRelease, servedRelease, servedReleaseId } from '../market/releases.js';
import { Converter, today } from '../money/converter.js';
import { requireMinorUnit } from '../money/minorUnits.js';
import { type MarketCell, parseMarketCell } from './associations.js';
import { agedAmount, blend, monthsBetween, roundHalfUp, zoneBenchmark } from './formulas.js';
import { agingRateOf } from './settings.js';
import { releaseEffectiveDate } from './surveys.js';
import { type AssociationRow, type CompanyJobRow, type PayZoneRow, type SurveyJobRow, type SurveyRow, findJob, findSurveysByIds, listAssociations, listJobs, surveyJobsByCodes } from './store.js';
import { zoneReach } from './zoneAccess.js';
import { ensureZones } from './zones.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
export type Contribution = Schemas['CompositeContribution'];
type CompositeBenchmark = Schemas['CompositeBenchmark'];
type Money = Schemas['Money'];

/** What every source is brought to: one date, one annual aging rate, one percentile, one currency. */
export interface CompositeOptions {
  date: string;
  agingRateBp: number;
  percentile: MarketPercentile;
  currency: string;
}

/** One company job's blend: its anchor (minor units of the options' currency) and each source's part. */
export interface JobComposite {
  anchor: number | null;
  /** Sources in the blend. */
  count: number;
  contributions: Contribution[];
}

const SURVEY_PERCENTILES: Partial<Record<MarketPercentile, 'p10' | 'p25' | 'p50' | 'p75' | 'p90'>> = { 10: 'p10', 25: 'p25', 50: 'p50', 75: 'p75', 90: 'p90' };

const ordinal = (n: number): string => `${n}th`;

/** A source's figure before conversion, or why it has none. */
type Figure = { value: Money; effectiveDate: string } | { reason: string; effectiveDate: string | null };

const marketKey = (cell: MarketCell): string => `${cell.locationId}|${cell.industryId}|${cell.companyStageIds.join(',')}`;

/**
 * The market's figures for every market cell the associations name: one engine query per market
 * filter (location × industry × stages) over the families and levels asked of it, in local currency
 * (a filter mixing currencies is answered in USD), base salary, all ownership groups and founder types.
 */
function marketFigures(served: ServedRelease | undefined, cells: readonly MarketCell[], percentile: MarketPercentile): Map<string, BenchmarkCell> {
  const out = new Map<string, BenchmarkCell>();
  if (!served) return out;
  const groups = new Map<string, MarketCell[]>();
  for (const cell of cells) {
    const key = marketKey(cell);
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  for (const [key, group] of groups) {
    const first = group[0] as MarketCell;
    const result = queryRelease(served.release, {
      compensationTypes: ['base'],
      marketFilters: [
        {
          companyStages: first.companyStageIds,
          companyOwnershipGroups: OWNERSHIP_GROUPS.map((entry) => entry.id),
          locations: [first.locationId],
          industries: [first.industryId],
          founderTypes: FOUNDER_TYPES.map((type) => type.id),
        },
      ],
      jobFamilies: [...new Set(group.map((cell) => cell.jobFamilyId))].sort(),
      levels: [...new Set(group.map((cell) => cell.levelId))].sort().map((id) => ({ type: 'level' as LevelType, id })),
      percentiles: [percentile],
      currency: 'local',
    });
    for (const cell of result.cells) out.set(`${key}|${cell.jobFamilyId}|${cell.levelId}`, cell);
  }
  return out;
}

/**
 * The composite benchmark of each of these jobs that has associations: every source's figure at the
 * percentile, converted to the currency at the reference rates of the date, aged to the date, and
 * blended by weight. Sources that price nothing (a withheld market cell, a survey without the
 * percentile, no exchange rate) are listed with their reason and left out of the blend.
 */
export async function compositesFor(
  deps: AppDeps,
  scope: CompanyScope,
  jobs: readonly CompanyJobRow[],
  options: CompositeOptions,
  /** The company's associations (`read`) when the caller has read them already. */
  { converter, read }: { converter: Converter; read?: readonly AssociationRow[] },
): Promise<Map<string, JobComposite>> {
  const db = deps.db;
  const wanted = new Set(jobs.map((job) => job.id));
  const associations = read ? read.filter((row) => wanted.has(row.company_job_id)) : await listAssociations(db, scope, [...wanted]);
  const out = new Map<string, JobComposite>();
  if (!associations.length) return out;

  const surveyIds = [...new Set(associations.flatMap((row) => (row.survey_id ? [row.survey_id] : [])))];
  const surveys = new Map<string, SurveyRow>((await findSurveysByIds(db, scope, surveyIds)).map((survey) => [survey.id, survey]));
  const surveyJobs = new Map<string, SurveyJobRow>(
    (await surveyJobsByCodes(db, scope, surveyIds, associations.flatMap((row) => (row.survey_job_code ? [row.survey_job_code] : [])))).map((job) => [`${job.survey_id}|${job.code}`, job]),
  );
  const served = servedReleaseId(deps) ? servedRelease(deps) : undefined;
  const cells = associations.flatMap((row) => (row.kind === 'market' ? [parseMarketCell(row.market_cell) as MarketCell] : []));
  const market = marketFigures(served, cells, options.percentile);
  const marketDate = served ? releaseEffectiveDate(served.row) : null;

  const figureOf = (row: AssociationRow): Figure => {
    if (row.kind === 'survey') {
      const survey = row.survey_id ? surveys.get(row.survey_id) : undefined;
      const job = survey ? surveyJobs.get(`${survey.id}|${row.survey_job_code ?? ''}`) : undefined;
      if (!survey || !job) return { reason: 'The survey job is no longer there', effectiveDate: survey?.effective_date ?? null };
      const column = SURVEY_PERCENTILES[options.percentile];
      const amount = column ? job[column] : null;
      if (amount === null || amount === undefined) return { reason: `The survey has no ${ordinal(options.percentile)} percentile for this job`, effectiveDate: survey.effective_date };
      return { value: { amount: Number(amount), currency: survey.currency }, effectiveDate: survey.effective_date };
    }
    const cell = parseMarketCell(row.market_cell) as MarketCell;
    if (!served || !marketDate) return { reason: 'No market data release is published yet', effectiveDate: null };
    const found = market.get(`${marketKey(cell)}|${cell.jobFamilyId}|${cell.levelId}`);
    const value = found?.percentiles?.find((entry) => entry.percentile === options.percentile)?.value;
    if (!found || found.status !== 'published' || value === undefined || value <= 0 || !found.currency) {
      return { reason: found?.label ?? INSUFFICIENT_DATA_LABEL, effectiveDate: marketDate };
    }
    return { value: { amount: roundHalfUp(value * 10 ** converter.minorUnit(found.currency)), currency: found.currency }, effectiveDate: marketDate };
  };

  // A handful of distinct source dates: each one's months to the target date worked out once.
  const monthsSince = new Map<string, number>();
  const monthsFrom = (date: string): number => {
    let months = monthsSince.get(date);
    if (months === undefined) {
      months = monthsBetween(date, options.date);
      monthsSince.set(date, months);
    }
    return months;
  };

  const byJob = new Map<string, AssociationRow[]>();
  for (const row of associations) byJob.set(row.company_job_id, [...(byJob.get(row.company_job_id) ?? []), row]);
  for (const [jobId, rows] of byJob) {
    const contributions: Contribution[] = [];
    const blended: { amount: number; weight: number; at: number }[] = [];
    for (const row of rows) {
      const figure = figureOf(row);
      const cell = row.kind === 'market' ? parseMarketCell(row.market_cell) : null;
      const months = figure.effectiveDate ? monthsFrom(figure.effectiveDate) : null;
      const contribution: Contribution = {
        associationId: row.id,
        kind: row.kind as Contribution['kind'],
        surveyId: row.survey_id,
        surveyName: row.survey_id ? (surveys.get(row.survey_id)?.name ?? null) : null,
        surveyJobCode: row.survey_job_code,
        market: cell,
        releaseId: cell && served ? served.row.id : null,
        releaseVersion: cell && served ? served.row.version : null,
        effectiveDate: figure.effectiveDate,
        months: months === null ? null : Math.round(months * 100) / 100,
        weight: Number(row.weight),
        share: null,
        value: 'value' in figure ? figure.value : null,
        converted: null,
        aged: null,
        included: false,
        reason: 'reason' in figure ? figure.reason : null,
      };
      if ('value' in figure && months !== null) {
        const converted = await converter.convert(figure.value, options.currency);
        if (!converted) contribution.reason = `No reference exchange rate from ${figure.value.currency} to ${options.currency}`;
        else {
          contribution.converted = converted;
          contribution.aged = { amount: agedAmount(converted.amount, options.agingRateBp, months), currency: options.currency };
          contribution.included = true;
          blended.push({ amount: contribution.aged.amount, weight: contribution.weight, at: contributions.length });
        }
      }
      contributions.push(contribution);
    }
    const weights = blended.reduce((sum, part) => sum + part.weight, 0);
    for (const part of blended) {
      const contribution = contributions[part.at];
      if (contribution) contribution.share = Math.round((part.weight / weights) * 10_000) / 10_000;
    }
    out.set(jobId, { anchor: blend(blended), count: blended.length, contributions });
  }
  return out;
}

export function presentComposite(job: CompanyJobRow, composite: JobComposite | undefined, zones: readonly PayZoneRow[], options: CompositeOptions): CompositeBenchmark {
  const anchor = composite?.anchor ?? null;
  return {
    companyJobId: job.id,
    jobFamilyId: job.job_family_id,
    levelId: job.level_id,
    title: job.title,
    date: options.date,
    agingRateBp: options.agingRateBp,
    percentile: options.percentile,
    currency: options.currency,
    anchor: anchor === null ? null : { amount: anchor, currency: options.currency },
    benchmarkCount: composite?.count ?? 0,
    contributions: composite?.contributions ?? [],
    zones: zones.map((zone) => ({
      payZoneId: zone.id,
      name: zone.name,
      differentialBp: Number(zone.differential_bp),
      benchmark: anchor === null ? null : { amount: zoneBenchmark(anchor, Number(zone.differential_bp)), currency: options.currency },
    })),
  };
}

export interface CompositeQuery {
  date?: string;
  agingRateBp?: number;
  percentile: number;
  currency?: string;
}

async function optionsOf(db: Knex, caller: Caller, query: CompositeQuery): Promise<CompositeOptions> {
  const scope = companyScope(caller);
  const currency = query.currency ?? (await getCompany({ db, caller })).settings.currency;
  await requireMinorUnit(db, currency, 'query.currency');
  return {
    date: query.date ?? today(),
    agingRateBp: query.agingRateBp ?? (await agingRateOf(db, scope)),
    percentile: query.percentile as MarketPercentile,
    currency,
  };
}

/** A zone-limited holder sees the benchmarks of their zones only. */
function zonesReached(caller: Caller, zones: PayZoneRow[]): PayZoneRow[] {
  const reach = zoneReach(caller, zones);
  return reach ? zones.filter((zone) => reach.has(zone.id)) : zones;
}

export async function getCompositeBenchmark(ctx: Pick<ServiceContext, 'deps' | 'caller'>, companyJobId: string, query: CompositeQuery): Promise<CompositeBenchmark> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const job = await findJob(deps.db, scope, companyJobId);
  if (!job) throw notFound();
  const options = await optionsOf(deps.db, caller, query);
  const converter = await Converter.open(deps.db, options.date);
  const [composites, zones] = await Promise.all([compositesFor(deps, scope, [job], options, { converter }), ensureZones(deps.db, scope)]);
  return { ...presentComposite(job, composites.get(job.id), zonesReached(caller, zones), options), exchangeRates: converter.ratesUsed() };
}

export async function listCompositeBenchmarks(ctx: Pick<ServiceContext, 'deps' | 'caller'>, query: CompositeQuery): Promise<{ data: CompositeBenchmark[]; exchangeRates: Schemas['ForexRate'][] }> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const options = await optionsOf(deps.db, caller, query);
  const converter = await Converter.open(deps.db, options.date);
  const [jobs, allZones] = await Promise.all([listJobs(deps.db, scope), ensureZones(deps.db, scope)]);
  const zones = zonesReached(caller, allZones);
  const composites = await compositesFor(deps, scope, jobs, options, { converter });
  return {
    data: jobs.filter((job) => composites.has(job.id)).map((job) => presentComposite(job, composites.get(job.id), zones, options)),
    exchangeRates: converter.ratesUsed(),
  };
}
