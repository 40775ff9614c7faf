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
import { figureMoves, perturbedCounts } from './disclosure/cellDraws.js';
import { publishedFigures } from './disclosure/figures.js';
import { mergeRunsByCurrency } from './merge.js';
import type { SortedRun } from './percentile.js';
import { planMeasures, type EquityOption, type MeasurePlan } from './plan.js';
import type { MedianUncertainty } from './uncertainty.js';
import { gatheredPassPayMass, runsPassPayMass } from './payMass.js';
import { checksPayMass, isPublishable, privacyRule, withheldStatement, type PrivacyRule } from './privacy.js';
import type { MarketRelease } from './release.js';
import { exactRelease, SLICE_STATS } from './releaseColumns.js';
import type { BenchmarkRequest, CurrencyMode, LevelSelection } from './request.js';
import {
  closeCompanies,
  countCompanies,
  finishRuns,
  gatherMatchedGroup,
  gatherSortedGroup,
  gatherWithCompanyFactor,
  startGather,
  type CellGather,
} from './scan.js';
import { MATCHED, SCANNED, foundersFor, isSelective, matchedEnd, scopeMarketFilter, usdDivisors, type FilterScope } from './scope.js';
import { nextPass, PAY_MASS_FAILS, type CellOutcome, type ShownOutcome, PAY_MASS_PASSES, presenceClass, reserveValues, sliceVerdictsOf, workspaceOf, type Workspace } from './workspace.js';
import type { MeasureId } from './participants.js';

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
   * Whether whole slices' published outcomes are kept with the release and read back when asked again
   * (keptCellsOf; default true, the same figures either way; off to measure what computing them costs).
   */
  keptCells?: boolean;
  /**
   * Whether published figures are moved off the records they are made of (disclosure/figures.ts; default
   * true). Off only where exact statistics are the point: arithmetic tests and the DuckDB cross-check.
   */
  disclosure?: boolean;
  /**
   * Whether published head counts carry their records' count weights (disclosure/cellDraws.ts, perturbedCounts;
   * default true). Off only in the attack battery, to show what averaging recovers without them.
   */
  countWeights?: boolean;
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
  const privacy: CellPrivacy = {
    rule,
    statement: withheldStatement(rule),
    disclosure: options.disclosure !== false,
    countWeights: options.countWeights !== false,
    checksPayMass: checksPayMass(rule),
    payMassRule: `${rule.maxLargestPayShare} ${rule.maxTopTwoPayShare} ${rule.pPercent}`,
    sliceVerdicts: new Map(),
  };
  const plans = planMeasures(request.compensationTypes, request.equity);
  const families = request.jobFamilies.map((id) => ({ id, codes: codesOf(familiesOf(id), workspace.index.family, 'job family', id) }));
  const levels = request.levels.map((selection) => ({
    selection,
    codes: codesOf(levelsOf(selection.type, selection.id), workspace.index.level, 'level', selection.id),
  }));
  const percentiles = [...(request.percentiles ?? PERCENTILES)];
  const percentileKey = percentiles.join(' ');
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
    const kept = plans.map((plan) => (options.keptCells === false ? null : keptCellsOf(release, workspace, { scope, plan, privacy })));
    for (const family of families) {
      for (const level of levels) {
        const groups = groupsOf(release, family.codes, level.codes);
        reserveValues(workspace, cellCapacity(release, groups));
        // A new cell: company tallies shared between its amounts start afresh.
        workspace.cell++;
        plans.forEach((plan, p) => {
          const where: CellPlace = { marketFilterIndex, jobFamilyId: family.id, level: level.selection, kept: kept[p]!, percentileKey };
          cells.push(computeCell(release, workspace, scope, groups, plan, percentiles, privacy, where));
        });
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
  /** Whether published head counts carry their records' count weights. */
  countWeights: boolean;
  /** Whether dominance or the p% rule is on (privacy.ts). */
  checksPayMass: boolean;
  /** The pay-mass part of the rule in words, which whole slices' verdicts are kept under (Workspace.sliceVerdicts). */
  payMassRule: string;
  /** This request's view of those verdicts, per amount column. */
  sliceVerdicts: Map<MeasureId, Uint8Array>;
}

/** Which row of the result a cell is, and where the published form of its whole slice is kept. */
interface CellPlace {
  marketFilterIndex: number;
  jobFamilyId: string;
  level: LevelSelection;
  /** The kept outcomes of whole slices for this cell's amount, currency and rule (keptCellsOf); null when not kept. */
  kept: (CellOutcome | undefined)[] | null;
  /** The request's percentiles in words, which a kept outcome's shown parts are made for (ShownOutcome.key). */
  percentileKey: string;
}

/** Amounts × currencies × rules whose whole slices a release keeps at most (the explorer asks a few). */
const KEPT_KINDS = 64;

/**
 * The published outcomes of whole slices read in one currency, kept with the release (its workspace)
 * per amount column, scale, currency rate and privacy rule. A whole slice is the same records in every
 * request and every step from them to the published figures (the rule, the pay-mass checks, the draws
 * keyed by the records, the moves, the rounding) is a function of those records and of what the key
 * names: a slice asked again publishes exactly what it published the first time, read back rather
 * than computed again. Only with disclosure control on, and on the automatic read path.
 */
function keptCellsOf(release: MarketRelease, workspace: Workspace, of: { scope: FilterScope; plan: MeasurePlan; privacy: CellPrivacy }): (CellOutcome | undefined)[] | null {
  const { scope, plan, privacy } = of;
  if (!privacy.disclosure || !privacy.countWeights || !scope.wholeSlice || scope.slotCount !== 1 || plan.companyFactor !== 'none' || release.sliceRuns === 0) return null;
  // Runs past the slice statistics' are read by scanning (readWholeSlice).
  if (scope.slotRuns.some((runs) => runs.some((k) => k >= release.sliceRuns))) return null;
  const { rule } = privacy;
  const key = `${plan.measure} ${plan.scale} ${scope.slotDivisor[1]} ${rule.minCompanies} ${rule.minEmployees} ${rule.maxCompanyShare} ${rule.minOutsideFour} ${privacy.payMassRule}`;
  let kept = workspace.keptCells.get(key);
  if (!kept) {
    // Oldest kinds go first: a release keeps what the explorer keeps asking for.
    if (workspace.keptCells.size >= KEPT_KINDS) workspace.keptCells.delete(workspace.keptCells.keys().next().value!);
    kept = new Array<CellOutcome | undefined>((release.groupStart.length - 1) << release.sliceRuns);
    workspace.keptCells.set(key, kept);
  }
  return kept;
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
  /** Sum of the records' keys (disclosure/recordKeys.ts). */
  key: number;
  /** Sum of the records' count weights, in quarters (disclosure/cellDraws.ts, perturbedCounts). */
  weight: number;
  /** Records of generated (demo) companies. */
  synthetic: number;
  /** Its values summed as read (CellCounts.pay in payMass.ts). */
  pay: number;
  /** A whole slice read in one currency: its index in the slice statistics (÷ SLICE_STATS); else -1. */
  slice: number;
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
  const slice = where.kept ? keptSlice(release, workspace, scope, groups) : -1;
  let outcome = slice >= 0 ? where.kept![slice] : undefined;
  if (!outcome) {
    const read = readWholeSlice(release, workspace, scope, groups, plan) ?? readGathered(release, workspace, scope, groups, plan);
    outcome = judgeCell(release, workspace, { plan, privacy, read });
    if (slice >= 0 && read.slice === slice) where.kept![slice] = outcome;
  }
  // A kept outcome shows parts made once and shared (frozen): no allocation but the cell itself.
  if (slice >= 0 && where.kept![slice] === outcome) {
    const shown = shownOf(outcome, { percentiles, key: where.percentileKey, broadCompType: plan.broadCompType });
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
      status: outcome.published ? 'published' : 'insufficient_data',
      label: outcome.published ? null : INSUFFICIENT_DATA_LABEL,
      insufficientReason: outcome.published ? null : privacy.statement,
      // Frozen and shared by every cell of this outcome: a reader that changed them would throw, not change another answer.
      percentiles: shown.percentiles as PercentileValue[] | null,
      sample: shown.sample as CellSample,
      consistency: shown.consistency,
      medianUncertainty: shown.medianUncertainty as MedianUncertainty | null,
      syntheticShare: outcome.syntheticShare,
    };
  }
  const { published, counts, uncertainty, seven } = outcome;
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
    percentiles: seven ? percentiles.map((percentile) => ({ percentile, value: seven[SLOT_OF[percentile]!]! })) : null,
    sample: {
      companies: published ? counts.companies : null,
      employees: published ? counts.employees : null,
      companyBucket: published ? bucketOf(COMPANY_COUNT_BUCKETS, counts.companies) : BELOW_THRESHOLD_BUCKET,
      employeeBucket: published ? bucketOf(EMPLOYEE_COUNT_BUCKETS, counts.employees) : BELOW_THRESHOLD_BUCKET,
    },
    consistency: uncertainty ? consistencyFor(plan.broadCompType, uncertainty.relativeError) : null,
    medianUncertainty: uncertainty ? { ...uncertainty } : null,
    syntheticShare: outcome.syntheticShare,
  };
}

/** The parts of a kept outcome as cells show them for these percentiles, made on first use and kept with it (CellOutcome.shown). */
function shownOf(outcome: CellOutcome, of: { percentiles: MarketPercentile[]; key: string; broadCompType: CompensationCategory }): ShownOutcome {
  const known = outcome.shown;
  if (known && known.key === of.key && known.broadCompType === of.broadCompType) return known;
  const { published, counts, uncertainty, seven } = outcome;
  const shown: ShownOutcome = Object.freeze({
    key: of.key,
    broadCompType: of.broadCompType,
    percentiles: seven ? Object.freeze(of.percentiles.map((percentile) => Object.freeze({ percentile, value: seven[SLOT_OF[percentile]!]! }))) : null,
    sample: Object.freeze({
      companies: published ? counts.companies : null,
      employees: published ? counts.employees : null,
      companyBucket: published ? bucketOf(COMPANY_COUNT_BUCKETS, counts.companies) : BELOW_THRESHOLD_BUCKET,
      employeeBucket: published ? bucketOf(EMPLOYEE_COUNT_BUCKETS, counts.employees) : BELOW_THRESHOLD_BUCKET,
    }),
    consistency: uncertainty ? consistencyFor(of.broadCompType, uncertainty.relativeError) : null,
    medianUncertainty: uncertainty ? Object.freeze({ ...uncertainty }) : null,
  });
  outcome.shown = shown;
  return shown;
}

/** Where each percentile sits among the seven, by its percent. */
const SLOT_OF = new Int8Array(101).fill(-1);
PERCENTILES.forEach((percent, slot) => (SLOT_OF[percent] = slot));

/** The whole slice a cell of a kept kind reads (as readWholeSlice would), or -1: one group, and no founder filter narrowing it. */
function keptSlice(release: MarketRelease, workspace: Workspace, scope: FilterScope, groups: number[]): number {
  const group = groups[0];
  if (groups.length !== 1 || group === undefined) return -1;
  if (scope.founderOk !== null && !scope.allFounders && foundersFor(release, workspace, scope, group)) return -1;
  return group * (1 << release.sliceRuns) + scope.runSet;
}

/** The privacy rule, the pay-mass checks and, for a published cell, its moved figures and counts. */
function judgeCell(release: MarketRelease, workspace: Workspace, of: { plan: MeasurePlan; privacy: CellPrivacy; read: CellRead }): CellOutcome {
  const { plan, privacy, read } = of;
  const { employees, companies, largest } = read;
  let published = isPublishable(privacy.rule, { companies, employees, largestCompanyEmployees: largest, largestFourEmployees: read.topFour });
  let runs: readonly SortedRun[] | null = null;
  if (published) {
    const column = release.measures[plan.measure];
    const unordered = plan.companyFactor !== 'none';
    // Dominance and the p% rule judge each company's pay in the cell: before values gathered out of order are sorted (their places are lost then).
    if (unordered && read.gather && privacy.checksPayMass) {
      published = gatheredPassPayMass(privacy.rule, { values: workspace.values, places: workspace.places, length: read.gather.length }, column, release.companies.count);
    }
    if (published) {
      runs = mergeRunsByCurrency(workspace, read.runs ?? finishRuns(workspace, read.gather ?? startGather(), column, unordered));
      if (!unordered && privacy.checksPayMass) published = runsPassPayMassOnce({ release, workspace, privacy, measure: plan.measure, read }, runs);
    }
  }
  if (!published || !runs) return { published: false, seven: null, uncertainty: null, counts: { companies, employees }, syntheticShare: null };
  const moves = privacy.disclosure
    ? figureMoves(release, { keySum: read.key, records: employees, outsideFour: employees - read.topFour, anchored: plan.companyFactor === 'none' })
    : null;
  const figures = publishedFigures(runs, PERCENTILES, moves);
  const weight = privacy.countWeights ? read.weight : 0;
  const counts = moves ? perturbedCounts(moves, { companies, employees, weight }, { companies: privacy.rule.minCompanies, employees: privacy.rule.minEmployees }) : { companies, employees };
  return { published: true, seven: figures.percentiles.map((p) => p.value), uncertainty: figures.medianUncertainty, counts, syntheticShare: syntheticShareOf(read.synthetic, employees) };
}

/** The pay-mass verdict of a cell's runs, judged once per release for a whole slice of one currency. */
function runsPassPayMassOnce(of: { release: MarketRelease; workspace: Workspace; privacy: CellPrivacy; measure: MeasureId; read: CellRead }, runs: readonly SortedRun[]): boolean {
  const { release, privacy, read } = of;
  let verdicts: Uint8Array | null = null;
  if (read.slice >= 0) {
    verdicts = privacy.sliceVerdicts.get(of.measure) ?? null;
    if (!verdicts) {
      verdicts = sliceVerdictsOf(release, of.workspace, { measure: of.measure, rule: privacy.payMassRule });
      privacy.sliceVerdicts.set(of.measure, verdicts);
    }
    const known = verdicts[read.slice]!;
    if (known !== 0) return known === PAY_MASS_PASSES;
  }
  const counts = { employees: read.employees, largest: read.largest, topFour: read.topFour, pay: read.pay };
  const passes = runsPassPayMass(privacy.rule, runs, release.measures[of.measure].who, counts, release.companies.count);
  if (verdicts) verdicts[read.slice] = passes ? PAY_MASS_PASSES : PAY_MASS_FAILS;
  return passes;
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
  let weight = 0;
  let synthetic = 0;
  let pay = 0;
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
      weight += column.runWeights[run]!;
      synthetic += column.runSynthetic[run]!;
      pay += column.runPay[run]! * (plan.scale / scope.slotDivisor[slot]!);
    }
  }
  const slice = group * (1 << release.sliceRuns) + scope.runSet;
  const at = slice * SLICE_STATS;
  const stats = column.sliceStats;
  return { employees, companies: stats[at]!, largest: stats[at + 1]!, topFour: stats[at + 2]!, key, weight, synthetic, pay, slice: scope.slotCount === 1 ? slice : -1, runs, gather: null };
}

function readGathered(release: MarketRelease, workspace: Workspace, scope: FilterScope, groups: number[], plan: MeasurePlan): CellRead {
  // Amounts read as stored are held by a fixed set of the cell's records: another amount held by
  // the same records (its presence class) has counted their companies already.
  const presence = plan.companyFactor === 'none' ? presenceClass(release, workspace, plan.measure) : -1;
  if (presence >= 0 && workspace.sharedCell[presence] === workspace.cell) {
    countCompanies(false);
    let gather: CellGather;
    try {
      gather = gatherCell(release, workspace, scope, groups, plan);
    } finally {
      countCompanies(true);
    }
    const stats = workspace.sharedStats;
    const at = presence * 4;
    return { employees: gather.length, companies: stats[at]!, largest: stats[at + 1]!, topFour: stats[at + 2]!, key: gather.key, weight: gather.weight, synthetic: stats[at + 3]!, pay: gather.pay, slice: -1, runs: null, gather };
  }
  const gather = gatherCell(release, workspace, scope, groups, plan);
  const { companies, largest, topFour, synthetic } = closeCompanies(workspace, gather, release.syntheticCompanies);
  if (presence >= 0) {
    workspace.sharedCell[presence] = workspace.cell;
    workspace.sharedStats.set([companies, largest, topFour, synthetic], presence * 4);
  }
  return { employees: gather.length, companies, largest, topFour, key: gather.key, weight: gather.weight, synthetic, pay: gather.pay, slice: -1, runs: null, gather };
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
