import { type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { badRequest } from '../kernel/errors.js';
import { versionConflict, writeAtVersion } from '../kernel/versions.js';
import {
  ALL_INDUSTRIES_ID,
  COMPANY_STAGES,
  FOUNDER_TYPES,
  INSUFFICIENT_DATA_LABEL,
  OWNERSHIP_GROUPS,
  TOTAL_EQUITY_ID,
  type LevelType,
} from '../reference/catalog/index.js';
import { queryRelease } from '../market/engine/index.js';
import { currentRelease } from '../market/releases.js';
import { currencyForexMapping } from '../market/service.js';
import { Converter } from '../money/converter.js';
import { minorUnits } from '../money/minorUnits.js';
import { type JobComposite, compositesFor } from './composite.js';
import { zoneBenchmark } from './formulas.js';
import { type BandPhilosophy, type BandSource, type CompositeBandSource, type GradeBandSource, isAnchor } from './present.js';
import { type BandRanges, rangesText } from './ranges.js';
import { bandSetDetail, requireDraft, requireSet } from './sets.js';
import { agingRateOf } from './settings.js';
import {
  type BandRow,
  type CompanyJobRow,
  type GradeBandRow,
  type GradeRow,
  deleteBandsOfSet,
  gradeBandsOf,
  insertBands,
  insertGradeBands,
  listAssociations,
  listGrades,
  listJobs,
  setsOf,
} from './store.js';
import { ensureZones } from './zones.js';
import { buildZoneCheck } from './zoneCheck.js';
import { type ZonePricing, marketLocationFor, minorOf, zoneBenchmarkOf, zoneFigures, zonePricings } from './zonePricing.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type MarketPercentile = Schemas['MarketPercentile'];

/** What the build read from the market for one family × level: a figure, or why there is none. */
type Priced = { value: number } | { reason: string };

/** Why a composite prices nothing: its sources' reasons, once each. */
const compositeWithheld = (composite: JobComposite): string =>
  `No source of its composite benchmark prices it (${[...new Set(composite.contributions.map((part) => part.reason ?? 'no figure'))].join('; ')})`;

const meanOf = (values: readonly number[]): number | undefined => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : undefined);

interface GradeBuild {
  grades: readonly GradeRow[];
  jobs: readonly CompanyJobRow[];
  zones: readonly ZonePricing[];
  /** Priced jobs' anchor benchmarks, major units of the set's currency. */
  benchmarks: ReadonlyMap<string, number>;
  figuresOf: (anchorValue: number, zone: ZonePricing) => { min: number; mid: number; max: number };
  rangesOf: (jobs: readonly CompanyJobRow[], zone: ZonePricing) => BandRanges;
  row: Pick<GradeBandRow, 'company_id' | 'band_set_id' | 'updated_by' | 'created_at' | 'updated_at'>;
  percentile: MarketPercentile;
  /** The set's currency, which the benchmarks are in. */
  currency: string;
}

/**
 * Grade bands from the jobs' benchmarks: per comp grade with priced jobs, the plain mean of their
 * anchor benchmarks, then per zone the differential, width and rounding a job's band gets. A grade
 * whose jobs were all withheld keeps its grade bands (reported); a grade with no job is left alone.
 */
function gradeBandsFrom(build: GradeBuild): { rows: GradeBandRow[]; rebuilt: string[]; withheld: Schemas['BandBuildResult']['gradesWithheld'] } {
  const rows: GradeBandRow[] = [];
  const rebuilt: string[] = [];
  const withheld: Schemas['BandBuildResult']['gradesWithheld'] = [];
  for (const grade of build.grades) {
    const jobs = build.jobs.filter((job) => job.grade_id === grade.id);
    if (!jobs.length) continue;
    const priced = jobs.flatMap((job) => {
      const value = build.benchmarks.get(job.id);
      return value === undefined ? [] : [{ companyJobId: job.id, value }];
    });
    const mean = meanOf(priced.map((job) => job.value));
    if (mean === undefined) {
      withheld.push({ gradeId: grade.id, gradeKey: grade.key, reason: `None of its ${jobs.length} company job${jobs.length === 1 ? '' : 's'} could be priced; its grade bands are kept as they were` });
      continue;
    }
    rebuilt.push(grade.id);
    const pricedJobs = jobs.filter((job) => build.benchmarks.has(job.id));
    for (const zone of build.zones) {
      const differentialBp = zone.differentialBp;
      const source: GradeBandSource = {
        kind: 'grade',
        percentile: build.percentile,
        marketValue: mean,
        marketCurrency: build.currency,
        ...(zone.conversion ? { conversion: zone.conversion } : {}),
        differentialBp,
        jobs: priced,
      };
      rows.push({
        ...build.row,
        id: newId(),
        grade_id: grade.id,
        pay_zone_id: zone.zone.id,
        currency: zone.currency,
        ...minorOf(zone, build.figuresOf(mean, zone)),
        ranges: rangesText(build.rangesOf(pricedJobs, zone)),
        source: JSON.stringify(source),
        benchmark_amount: zoneBenchmarkOf(zone, mean),
        benchmark_count: priced.length,
        version: 1,
      });
    }
  }
  return { rows, rebuilt, withheld };
}

/**
 * Builds every band of a draft: per company job with market-data associations, its composite
 * benchmark at the target percentile (aged to the set's effective date, in the set's currency);
 * per other job, the market percentile of base for its family × level in the anchor's location (all
 * stages, ownership groups, industries) from the served release, in the set's currency. Every zone
 * applies its differential; width and rounding follow. Comp grades get grade bands from the mean of
 * their priced jobs' benchmarks.
 */
export async function buildBandSet(ctx: Pick<ServiceContext, 'deps' | 'caller'>, setId: string, input: Schemas['BandPhilosophyInput']): Promise<Schemas['BandBuildResult']> {
  const { deps, caller } = ctx;
  const db = deps.db;
  const scope: CompanyScope = companyScope(caller);
  const set = await requireSet(db, scope, setId);
  requireDraft(set);
  const zones = await ensureZones(db, scope);
  const philosophy: BandPhilosophy = {
    targetPercentile: input.targetPercentile,
    width: input.width,
    rounding: input.rounding ?? 1000,
    marketLocationId: marketLocationFor(input.marketLocationId, zones.find(isAnchor)),
    ...(input.bonusTargetPercent !== undefined ? { bonusTargetPercent: input.bonusTargetPercent } : {}),
    ...(input.equityPercentile !== undefined ? { equityPercentile: input.equityPercentile } : {}),
  };
  const allJobs = await listJobs(db, scope);
  const associations = await listAssociations(db, scope);
  const associated = new Set(associations.map((row) => row.company_job_id));
  let composites = new Map<string, JobComposite>();
  const converter = await Converter.open(db, set.effective_date);
  if (associated.size) {
    philosophy.agingRateBp = input.agingRateBp ?? (await agingRateOf(db, scope));
    const options = { date: set.effective_date, agingRateBp: philosophy.agingRateBp, percentile: philosophy.targetPercentile as MarketPercentile, currency: set.currency };
    composites = await compositesFor(deps, scope, allJobs.filter((job) => associated.has(job.id)), options, { converter, read: associations });
  }
  const forex = await currencyForexMapping(db);
  const pricings = await zonePricings(zones, set, converter);
  if (set.currency !== 'USD' && forex[set.currency] === undefined) {
    throw badRequest(`There is no reference exchange rate for ${set.currency}, so market data cannot be given in it.`, [{ field: 'path.bandSetId', message: `is in ${set.currency}` }]);
  }
  const jobs: CompanyJobRow[] = allJobs.filter((job) => !composites.has(job.id));
  const served = await currentRelease(deps);
  /** The market's figure per family × level of these jobs, for one compensation type at one percentile, in the set's currency. */
  const marketFigures = (forJobs: readonly CompanyJobRow[], compensationType: string, percentile: MarketPercentile): Map<string, Priced> => {
    const priced = new Map<string, Priced>();
    if (!forJobs.length) return priced;
    const result = queryRelease(
      served.release,
      {
        compensationTypes: [compensationType],
        marketFilters: [
          {
            companyStages: COMPANY_STAGES.map((stage) => stage.id),
            companyOwnershipGroups: OWNERSHIP_GROUPS.map((group) => group.id),
            locations: [philosophy.marketLocationId],
            industries: [ALL_INDUSTRIES_ID],
            founderTypes: FOUNDER_TYPES.map((type) => type.id),
          },
        ],
        jobFamilies: [...new Set(forJobs.map((job) => job.job_family_id))].sort(),
        levels: [...new Set(forJobs.map((job) => job.level_id))].sort().map((id) => ({ type: 'level' as LevelType, id })),
        percentiles: [percentile],
        currency: set.currency,
      },
      { forex },
    );
    for (const cell of result.cells) {
      const value = cell.percentiles?.find((entry) => entry.percentile === percentile)?.value;
      priced.set(
        `${cell.jobFamilyId}|${cell.levelId}`,
        cell.status === 'published' && value !== undefined && value > 0 ? { value } : { reason: cell.label ?? INSUFFICIENT_DATA_LABEL },
      );
    }
    return priced;
  };
  const priced = marketFigures(jobs, 'base', philosophy.targetPercentile as MarketPercentile);
  // Equity: the market's total equity (annualised grant value) at the philosophy's equity percentile, for every job.
  const equityPercentile = philosophy.equityPercentile;
  const equityPriced = equityPercentile !== undefined ? marketFigures(allJobs, TOTAL_EQUITY_ID, equityPercentile) : new Map<string, Priced>();
  const equityWithheld: Schemas['BandBuildResult']['equityWithheld'] = [];
  if (equityPercentile !== undefined) {
    for (const job of allJobs) {
      const market = equityPriced.get(`${job.job_family_id}|${job.level_id}`);
      if (!market || !('value' in market)) equityWithheld.push({ companyJobId: job.id, reason: market && 'reason' in market ? market.reason : 'No market equity for this family and level' });
    }
  }

  const minor = (await minorUnits(db)).of(set.currency);
  const scale = 10 ** minor;
  const now = new Date().toISOString();
  const rows: BandRow[] = [];
  /** Each priced job's anchor benchmark (major units of the set's currency, before any differential): what its grade's band averages. */
  const benchmarks = new Map<string, number>();
  const withheld: Schemas['BandBuildResult']['withheld'] = [];
  /** What the philosophy names beside base: a bonus target for every band, an equity range where the market has equity. */
  const equityOf = (job: CompanyJobRow): number | undefined => {
    const equity = equityPriced.get(`${job.job_family_id}|${job.level_id}`);
    return equity && 'value' in equity ? equity.value : undefined;
  };
  const rangesFor = (equityValue: number | undefined, zone: ZonePricing): BandRanges => {
    const ranges: BandRanges = {};
    if (philosophy.bonusTargetPercent !== undefined) ranges.bonusTargetPercent = { target: philosophy.bonusTargetPercent };
    if (equityPercentile !== undefined && equityValue !== undefined) {
      const figures = minorOf(zone, zoneFigures(zone, equityValue, philosophy.width, philosophy.rounding));
      ranges.equity = { unit: 'value', min: figures.min_amount, mid: figures.mid_amount, max: figures.max_amount, percentile: equityPercentile };
    }
    return ranges;
  };
  /** A job's band in a zone from the anchor's figure (major units of the set's currency). */
  const bandRow = (job: CompanyJobRow, zone: ZonePricing, value: number, source: BandSource | CompositeBandSource, benchmark: number, count: number): BandRow => ({
    id: newId(),
    company_id: scope.companyId,
    band_set_id: set.id,
    company_job_id: job.id,
    pay_zone_id: zone.zone.id,
    currency: zone.currency,
    ...minorOf(zone, zoneFigures(zone, value, philosophy.width, philosophy.rounding)),
    source: JSON.stringify(source),
    benchmark_amount: benchmark,
    benchmark_count: count,
    ranges: rangesText(rangesFor(equityOf(job), zone)),
    version: 1,
    updated_by: caller.userId,
    created_at: now,
    updated_at: now,
  });
  for (const job of allJobs) {
    const composite = composites.get(job.id);
    if (!composite) continue;
    if (composite.anchor === null) {
      withheld.push({ companyJobId: job.id, jobFamilyId: job.job_family_id, levelId: job.level_id, locationId: philosophy.marketLocationId, reason: compositeWithheld(composite) });
      continue;
    }
    const anchor = composite.anchor;
    benchmarks.set(job.id, anchor / scale);
    // What the band keeps of each source (the composite endpoint shows them in full); the same for every zone.
    const parts = composite.contributions.map((part) => ({
      associationId: part.associationId,
      kind: part.kind,
      surveyId: part.surveyId,
      surveyJobCode: part.surveyJobCode,
      market: part.market,
      releaseVersion: part.releaseVersion,
      effectiveDate: part.effectiveDate,
      months: part.months,
      weight: part.weight,
      share: part.share,
      aged: part.aged?.amount ?? null,
      reason: part.reason,
    }));
    for (const zone of pricings) {
      const source: CompositeBandSource = {
        kind: 'composite',
        percentile: philosophy.targetPercentile as MarketPercentile,
        targetDate: set.effective_date,
        agingRateBp: philosophy.agingRateBp ?? 0,
        marketValue: anchor / scale,
        marketCurrency: set.currency,
        ...(zone.conversion ? { conversion: zone.conversion } : {}),
        differentialBp: zone.differentialBp,
        parts,
      };
      // In the set's currency the benchmark is the anchor's minor units × the differential, exactly.
      const benchmark = zone.conversion ? zoneBenchmarkOf(zone, anchor / scale) : zoneBenchmark(anchor, zone.differentialBp);
      rows.push(bandRow(job, zone, anchor / scale, source, benchmark, composite.count));
    }
  }
  for (const job of jobs) {
    const market = priced.get(`${job.job_family_id}|${job.level_id}`) ?? { reason: 'No market cell for this family and level' };
    if (!('value' in market)) {
      withheld.push({ companyJobId: job.id, jobFamilyId: job.job_family_id, levelId: job.level_id, locationId: philosophy.marketLocationId, reason: market.reason });
      continue;
    }
    benchmarks.set(job.id, market.value);
    for (const zone of pricings) {
      const source: BandSource = {
        kind: 'market',
        releaseId: served.release.id,
        releaseVersion: served.row.version,
        jobFamilyId: job.job_family_id,
        levelId: job.level_id,
        locationId: philosophy.marketLocationId,
        percentile: philosophy.targetPercentile as MarketPercentile,
        marketValue: market.value,
        marketCurrency: set.currency,
        ...(zone.conversion ? { conversion: zone.conversion } : {}),
        differentialBp: zone.differentialBp,
      };
      rows.push(bandRow(job, zone, market.value, source, zoneBenchmarkOf(zone, market.value), 1));
    }
  }

  const grades = gradeBandsFrom({
    grades: await listGrades(db, scope),
    jobs: allJobs,
    zones: pricings,
    benchmarks,
    figuresOf: (value, zone) => zoneFigures(zone, value, philosophy.width, philosophy.rounding),
    rangesOf: (jobs, zone) => rangesFor(meanOf(jobs.flatMap((job) => equityOf(job) ?? [])), zone),
    row: { company_id: scope.companyId, band_set_id: set.id, updated_by: caller.userId, created_at: now, updated_at: now },
    percentile: philosophy.targetPercentile as MarketPercentile,
    currency: set.currency,
  });

  await db.transaction(async (trx) => {
    // Built from what was read: a draft published or built by someone else meanwhile is not overwritten.
    const updated = await writeAtVersion(() => setsOf(trx, scope).where({ id: set.id, status: 'draft' }), Number(set.version), { philosophy: JSON.stringify(philosophy), updated_at: now });
    if (!updated) {
      const current = await requireSet(trx, scope, set.id);
      requireDraft(current);
      throw versionConflict('this band set', Number(current.version));
    }
    await deleteBandsOfSet(trx, scope, set.id);
    await insertBands(trx, rows);
    if (grades.rebuilt.length) await gradeBandsOf(trx, scope).where({ band_set_id: set.id }).whereIn('grade_id', grades.rebuilt).delete();
    await insertGradeBands(trx, grades.rows);
  });
  return {
    bandSet: await bandSetDetail(db, scope, set.id),
    built: rows.length,
    fromComposites: [...composites.values()].filter((composite) => composite.anchor !== null).length,
    withheld,
    equityWithheld,
    gradeBandsBuilt: grades.rows.length,
    gradesWithheld: grades.withheld,
    // Bands built for the wrong country are the build's to say, not the data lab's to discover.
    zoneCheck: await buildZoneCheck(deps, caller, zones, philosophy.marketLocationId),
  };
}
