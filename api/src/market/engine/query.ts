import {
  BELOW_THRESHOLD_BUCKET,
  COMPANY_COUNT_BUCKETS,
  EMPLOYEE_COUNT_BUCKETS,
  INSUFFICIENT_DATA_LABEL,
  PERCENTILES,
  bucketOf,
  consistencyFor,
  familiesOf,
  levelsOf,
  type CompensationCategory,
  type ConsistencyLabel,
  type LevelType,
  type MarketPercentile,
  type SampleBucket,
} from '../../reference/catalog/index.js';
import { figureMoves, perturbedCounts, publishedFigures } from './disclosure.js';
import type { SortedRun } from './percentile.js';
import { planMeasures, type EquityOption, type MeasurePlan } from './plan.js';
import type { MedianUncertainty } from './uncertainty.js';
import { isPublishable, privacyRule, withheldStatement, type PrivacyRule } from './privacy.js';
import { exactRelease, SLICE_STATS, type MarketRelease } from './release.js';
import type { BenchmarkRequest, CurrencyMode, LevelSelection } from './request.js';
import {
  closeCompanies,
  finishRuns,
  gatherMatchedGroup,
  gatherSortedGroup,
  gatherWithCompanyFactor,
  startGather,
  type CellGather,
} from './scan.js';
import { MATCHED, SCANNED, foundersFor, isSelective, matchedEnd, scopeMarketFilter, usdDivisors, type FilterScope } from './scope.js';
import { nextPass, reserveValues, workspaceOf, type Workspace } from './workspace.js';

export interface QueryOptions {
  /** Units of each currency per 1 USD (USD itself 1); needed whenever amounts are converted. */
  forex?: Readonly<Record<string, number>>;
  privacy?: Partial<PrivacyRule>;
  /**
   * How groups are read: 'auto' reads whole slices from the release's statistics when the filter
   * keeps everything, else picks per group by selectivity; 'sorted' and 'matched' force one path
   * for every cell (all give identical results; forcing exists for tests and diagnostics).
   */
  readPath?: 'auto' | 'sorted' | 'matched';
  /** Whether 'auto' may read whole slices from the release's statistics (default true; off for diagnostics). */
  wholeSlices?: boolean;
  /**
   * Whether published figures are moved off the records they are made of (disclosure.ts; default
   * true). Off only where exact statistics are the point: arithmetic tests and the DuckDB cross-check.
   */
  disclosure?: boolean;
}

export interface PercentileValue {
  percentile: MarketPercentile;
  value: number;
}

export interface CellSample {
  /** Exact counts and their buckets only for published cells; a withheld one is below the threshold, no more. */
  companies: number | null;
  employees: number | null;
  companyBucket: SampleBucket;
  employeeBucket: SampleBucket;
}

export interface BenchmarkCell {
  marketFilterIndex: number;
  jobFamilyId: string;
  levelType: LevelType;
  levelId: string;
  compensationTypeId: string;
  equityOption: EquityOption | null;
  broadCompType: CompensationCategory;
  unit: 'currency' | 'percent';
  /** ISO 4217 code of the values; null for percentages. */
  currency: string | null;
  status: 'published' | 'insufficient_data';
  /** "Insufficient data" for a withheld cell. */
  label: string | null;
  /** The privacy rule in words for a withheld cell, the same whichever part of it failed. */
  insufficientReason: string | null;
  percentiles: PercentileValue[] | null;
  sample: CellSample;
  /** Labelled from `medianUncertainty`, the measured error of the median, not from the sample size. */
  consistency: ConsistencyLabel | null;
  /** The 95% interval of the median (distribution-free, from order statistics); null for a withheld cell. */
  medianUncertainty: MedianUncertainty | null;
  /** Share of the cell's records that are generated (demo) rather than participants', to two decimals; null for a withheld cell. */
  syntheticShare: number | null;
}

export interface BenchmarkResult {
  releaseId: string;
  currencyMode: CurrencyMode;
  percentiles: MarketPercentile[];
  cells: BenchmarkCell[];
  /** The currencies whose rates converted some value of the answer (from and into), sorted; empty when nothing was converted. */
  convertedCurrencies: string[];
}

/** Answers a validated benchmark request from a release: one cell per market filter × family × level × comp type. */
export function queryRelease(published: MarketRelease, request: BenchmarkRequest, options: QueryOptions = {}): BenchmarkResult {
  // Exact figures (tests and cross-checks only) come from the columns sorted by exact amounts.
  const release = options.disclosure === false ? exactRelease(published) : published;
  const workspace = workspaceOf(release);
  const rule = privacyRule(options.privacy);
  const privacy: CellPrivacy = { rule, statement: withheldStatement(rule), disclosure: options.disclosure !== false };
  const plans = planMeasures(request.compensationTypes, request.equity);
  const families = request.jobFamilies.map((id) => ({ id, codes: codesOf(familiesOf(id), workspace.index.family, 'job family', id) }));
  const levels = request.levels.map((selection) => ({
    selection,
    codes: codesOf(levelsOf(selection.type, selection.id), workspace.index.level, 'level', selection.id),
  }));
  const percentiles = [...(request.percentiles ?? PERCENTILES)];
  const currencyMode = request.currency ?? 'local';
  const cells: BenchmarkCell[] = [];
  const converted = new Set<string>();
  request.marketFilters.forEach((filter, marketFilterIndex) => {
    const scope = scopeMarketFilter(release, workspace, filter, currencyMode, options.forex ?? {});
    const from = scope.slotCurrencies.filter((currency) => currency !== scope.currency);
    if (from.length) for (const currency of [...from, scope.currency]) converted.add(currency);
    if (options.readPath === 'sorted') scope.path.fill(SCANNED);
    if (options.readPath === 'matched') scope.path.fill(MATCHED);
    if ((options.readPath ?? 'auto') !== 'auto' || options.wholeSlices === false) scope.wholeSlice = false;
    nextPass(workspace, release.recordCount);
    for (const family of families) {
      for (const level of levels) {
        const groups = groupsOf(release, family.codes, level.codes);
        reserveValues(workspace, cellCapacity(release, groups));
        const where: CellPlace = { marketFilterIndex, jobFamilyId: family.id, level: level.selection };
        for (const plan of plans) cells.push(computeCell(release, workspace, scope, groups, plan, percentiles, privacy, where));
      }
    }
  });
  return { releaseId: release.id, currencyMode, percentiles, cells, convertedCurrencies: [...converted].sort() };
}

/** Codes of the leaf ids present in the release; an id the catalog does not know is a caller bug. */
function codesOf(ids: string[], index: ReadonlyMap<string, number>, what: string, requested: string): number[] {
  if (ids.length === 0) throw new Error(`Unknown ${what} '${requested}'`);
  return ids.flatMap((id) => {
    const code = index.get(id);
    return code === undefined ? [] : [code];
  });
}

function groupsOf(release: MarketRelease, familyCodes: number[], levelCodes: number[]): number[] {
  const levelCount = release.dimensions.levels.length;
  const groups: number[] = [];
  for (const family of familyCodes) for (const level of levelCodes) groups.push(family * levelCount + level);
  return groups;
}

/** The most records a cell over these groups can hold. */
function cellCapacity(release: MarketRelease, groups: number[]): number {
  let size = 0;
  for (const group of groups) size += release.groupStart[group + 1]! - release.groupStart[group]!;
  return size;
}

interface CellPrivacy {
  rule: PrivacyRule;
  statement: string;
  /** Whether published figures are moved off their records. */
  disclosure: boolean;
}

/** Which row of the result a cell is. */
interface CellPlace {
  marketFilterIndex: number;
  jobFamilyId: string;
  level: LevelSelection;
}

/**
 * A cell's sample before the privacy rule: counts, and its values either as sorted runs already
 * (whole slices) or still gathered (sorted only once the cell is known to be published).
 */
interface CellRead {
  employees: number;
  companies: number;
  largest: number;
  /** Records of the four largest companies. */
  topFour: number;
  /** Sum of the records' keys (disclosure.ts). */
  key: number;
  /** Records of generated (demo) companies. */
  synthetic: number;
  runs: readonly SortedRun[] | null;
  gather: CellGather | null;
}

function computeCell(
  release: MarketRelease,
  workspace: Workspace,
  scope: FilterScope,
  groups: number[],
  plan: MeasurePlan,
  percentiles: MarketPercentile[],
  privacy: CellPrivacy,
  where: CellPlace,
): BenchmarkCell {
  const read = readWholeSlice(release, workspace, scope, groups, plan) ?? readGathered(release, workspace, scope, groups, plan);
  const { employees, companies, largest } = read;
  const published = isPublishable(privacy.rule, { companies, employees, largestCompanyEmployees: largest, largestFourEmployees: read.topFour });
  let values: PercentileValue[] | null = null;
  let uncertainty: MedianUncertainty | null = null;
  let counts = { companies, employees };
  if (published) {
    const runs = read.runs ?? finishRuns(workspace, read.gather ?? startGather(), release.measures[plan.measure], plan.companyFactor !== 'none');
    const moves = privacy.disclosure
      ? figureMoves(release, { keySum: read.key, records: employees, outsideFour: employees - read.topFour, anchored: plan.companyFactor === 'none' })
      : null;
    const figures = publishedFigures(runs, percentiles, moves);
    values = figures.percentiles;
    uncertainty = figures.medianUncertainty;
    if (moves) counts = perturbedCounts(moves, counts, { companies: privacy.rule.minCompanies, employees: privacy.rule.minEmployees });
  }
  // One literal with every field, in one order: thousands of cells share a shape and build fast.
  return {
    marketFilterIndex: where.marketFilterIndex,
    jobFamilyId: where.jobFamilyId,
    levelType: where.level.type,
    levelId: where.level.id,
    compensationTypeId: plan.compensationTypeId,
    equityOption: plan.equityOption,
    broadCompType: plan.broadCompType,
    unit: plan.unit,
    currency: plan.unit === 'percent' ? null : scope.currency,
    status: published ? 'published' : 'insufficient_data',
    label: published ? null : INSUFFICIENT_DATA_LABEL,
    insufficientReason: published ? null : privacy.statement,
    percentiles: values,
    sample: {
      companies: published ? counts.companies : null,
      employees: published ? counts.employees : null,
      companyBucket: published ? bucketOf(COMPANY_COUNT_BUCKETS, counts.companies) : BELOW_THRESHOLD_BUCKET,
      employeeBucket: published ? bucketOf(EMPLOYEE_COUNT_BUCKETS, counts.employees) : BELOW_THRESHOLD_BUCKET,
    },
    consistency: uncertainty ? consistencyFor(plan.broadCompType, uncertainty.relativeError) : null,
    medianUncertainty: uncertainty,
    syntheticShare: published ? syntheticShareOf(read.synthetic, employees) : null,
  };
}

/** To two decimals, but 1 only when every record is generated and 0 only when none is: "demo" and "real" stay exact. */
function syntheticShareOf(synthetic: number, employees: number): number {
  const share = Math.round((synthetic / employees) * 100) / 100;
  if (share === 1 && synthetic < employees) return 0.99;
  if (share === 0 && synthetic > 0) return 0.01;
  return share;
}

/**
 * A filter that keeps every company and every location of the countries it names (the explorer's
 * default) selects whole runs of the group: their values are read where they lie and their sample
 * comes from the statistics computed with the release, so the cell costs no scan at all.
 */
function readWholeSlice(release: MarketRelease, workspace: Workspace, scope: FilterScope, groups: number[], plan: MeasurePlan): CellRead | null {
  const group = groups[0];
  if (groups.length !== 1 || group === undefined || !scope.wholeSlice || plan.companyFactor !== 'none') return null;
  if (release.sliceRuns === 0) return null;
  const column = release.measures[plan.measure];
  if (scope.founderOk !== null && !scope.allFounders && foundersFor(release, workspace, scope, group)) return null;
  const runs: SortedRun[] = [];
  let employees = 0;
  let key = 0;
  let synthetic = 0;
  for (let slot = 1; slot <= scope.slotCount; slot++) {
    for (const k of scope.slotRuns[slot]!) {
      // Runs past the statistics' first ones are read by scanning.
      if (k >= release.sliceRuns) return null;
      const run = group * scope.runCount + k;
      const from = column.offsets[run]!;
      const to = column.offsets[run + 1]!;
      if (from === to) continue;
      runs.push({ values: column.values, keys: column.keys, exact: column.exact, from, to, divisor: scope.slotDivisor[slot]!, scale: plan.scale });
      employees += to - from;
      key = (key + column.runKeys[run]!) | 0;
      synthetic += column.runSynthetic[run]!;
    }
  }
  const at = (group * (1 << release.sliceRuns) + scope.runSet) * SLICE_STATS;
  const stats = column.sliceStats;
  return { employees, companies: stats[at]!, largest: stats[at + 1]!, topFour: stats[at + 2]!, key, synthetic, runs, gather: null };
}

function readGathered(release: MarketRelease, workspace: Workspace, scope: FilterScope, groups: number[], plan: MeasurePlan): CellRead {
  const gather = gatherCell(release, workspace, scope, groups, plan);
  const { companies, largest, topFour, synthetic } = closeCompanies(workspace, gather, release.syntheticCompanies);
  return { employees: gather.length, companies, largest, topFour, key: gather.key, synthetic, runs: null, gather };
}

function gatherCell(release: MarketRelease, workspace: Workspace, scope: FilterScope, groups: number[], plan: MeasurePlan): CellGather {
  const column = release.measures[plan.measure];
  const gather = startGather();
  if (plan.companyFactor === 'none') {
    for (const group of groups) {
      const founders = foundersFor(release, workspace, scope, group);
      if (isSelective(release, scope, group)) {
        const end = matchedEnd(release, workspace, scope, group, founders);
        gatherMatchedGroup(workspace, gather, column, group, release.groupStart[group]!, end, scope, plan.scale);
      } else {
        gatherSortedGroup(workspace, gather, column, group, scope, founders, plan.scale);
      }
    }
    return gather;
  }
  const factor = companyFactor(release, plan);
  // Percentages compare against a USD valuation, whatever currency the cell is shown in.
  const divisor = plan.unit === 'percent' ? usdDivisors(scope) : scope.slotDivisor;
  for (const group of groups) {
    const founders = foundersFor(release, workspace, scope, group);
    gatherWithCompanyFactor(workspace, gather, column, group, scope, founders, divisor, plan.scale, factor);
  }
  return gather;
}

/** Per-company multiplier of the plan; 0 excludes the company. */
function companyFactor(release: MarketRelease, plan: MeasurePlan): Float64Array {
  const { companies, dimensions } = release;
  if (plan.companyFactor === 'actual_value') return companies.priceRatio;
  const allowed = new Set(plan.allowedOwnershipGroups ?? dimensions.ownershipGroups);
  const factor = new Float64Array(companies.count);
  for (let c = 0; c < companies.count; c++) {
    const valuation = companies.valuationUsd[c]!;
    const group = dimensions.ownershipGroups[companies.ownership[c]!] ?? '';
    factor[c] = allowed.has(group) && valuation > 0 ? 100 / valuation : 0;
  }
  return factor;
}
