import { FOREX, marketOf, request, type CompanySpec, type RecordSpec } from '../handMarket.js';
import type { PrivacyRule } from '../privacy.js';
import { queryRelease, type BenchmarkCell, type QueryOptions } from '../query.js';
import { buildRelease, type MarketRelease } from '../release.js';
import type { BenchmarkRequest, MarketFilter } from '../request.js';

/**
 * What every attack of the battery shares (index.ts runs them): the outcome an attack fills in, the
 * planted markets it builds and the cells it reads, how a target counts as recovered, and the tracker
 * market that the tracker, releases, counts and re-import attacks plant their target in.
 */

export interface AttackOutcome {
  attack: AttackId;
  title: string;
  /** Targets attacked (per key tried). */
  targets: number;
  /** With the protection off: targets recovered within 5% (should be all). */
  controlRecovered: number;
  /** With the protection on: targets recovered within 5% (must be 0). */
  recovered: number;
  /** The protected estimate closest to its target, relative (null when the attack gave no estimate). */
  closest: number | null;
  /** Whether a recovered target fails the scorecard: every attack does (counts: an exact difference of one pair). */
  gating: boolean;
  /** Differencing only: protected pairs the attacker could confirm (the smaller median the mean of the larger's p40 and p60). */
  confirmed?: number;
  /** What else the attack measured, in words (colluders: the best fit; counts: averages over trackers). */
  note?: string;
}

export type AttackId = 'differencing' | 'tracker' | 'releases' | 'reconstruction' | 'key_search' | 'colluders' | 'dominance' | 'counts' | 'count_averaging' | 'reimport';

export interface BatteryOptions {
  /** The disclosure key the planted markets are built with: the release's, so its own PRF is attacked. */
  disclosureKey: Uint8Array;
  rule?: PrivacyRule;
  /** Keys tried per attack (derived from disclosureKey): more is slower and surer. */
  keys?: number;
}

/** Recovered: within 5% of the target. */
export const RECOVERY_TOLERANCE = 0.05;

export const within = (estimate: number, target: number): boolean => Math.abs(estimate - target) / target < RECOVERY_TOLERANCE;
export const relative = (estimate: number, target: number): number => Math.abs(estimate - target) / target;

/** A hand-made market built as a release with one disclosure key. */
export function planted(companies: CompanySpec[], records: RecordSpec[], key: Uint8Array, id: string): MarketRelease {
  return buildRelease(marketOf(companies, records), { id, disclosureKey: key });
}

export function cellOf(release: MarketRelease, req: BenchmarkRequest, options: QueryOptions): BenchmarkCell {
  const cell = queryRelease(release, req, { forex: FOREX, ...options }).cells[0];
  if (!cell) throw new Error('The attack asked for no cell');
  return cell;
}

export function valueAt(cell: BenchmarkCell, percentile: number): number | null {
  return cell.percentiles?.find((p) => p.percentile === percentile)?.value ?? null;
}

export interface AttackContext {
  rule: PrivacyRule;
  keys: Uint8Array[];
}

export function start(attack: AttackId, title: string): AttackOutcome {
  return { attack, title, gating: true, targets: 0, controlRecovered: 0, recovered: 0, closest: null };
}

/** One target attacked: with the protection off it counts to the control, on to the result. */
export function record(outcome: AttackOutcome, protectedRun: boolean, estimate: number | null, target: number): void {
  if (!protectedRun) {
    outcome.targets++;
    if (estimate !== null && within(estimate, target)) outcome.controlRecovered++;
    return;
  }
  if (estimate === null) return;
  if (within(estimate, target)) outcome.recovered++;
  const distance = relative(estimate, target);
  outcome.closest = outcome.closest === null ? distance : Math.min(outcome.closest, distance);
}

// ─── The tracker market (tracker padding, releases, counts, re-imports) ──────────────────────────

export const TARGET = 120_000;
export const TRACKED: MarketFilter = { companyStages: ['seed'], companyOwnershipGroups: ['venture_backed'], locations: ['us_boston'], industries: ['ind_tech_ai'] };
export const TARGET_COMPANY: CompanySpec = { stage: 'seed', ownership: 'venture_backed', industry: 'ind_tech_ai' };

interface Tracker {
  company: CompanySpec;
  location: string;
  contractor?: boolean;
  /** The filter of T alone and of C ∪ T. */
  alone: MarketFilter;
  padded: MarketFilter;
}

function both(key: 'locations' | 'companyStages' | 'industries' | 'companyOwnershipGroups', value: string): Pick<Tracker, 'alone' | 'padded'> {
  return { alone: { ...TRACKED, [key]: [value] }, padded: { ...TRACKED, [key]: [...TRACKED[key], value] } };
}

/** Nine trackers, one per filter dimension and complement: location, stage, industry, ownership (T and ¬T) and employment type. */
export const TRACKERS: Tracker[] = [
  { company: TARGET_COMPANY, location: 'us_austin', ...both('locations', 'us_austin') },
  { company: TARGET_COMPANY, location: 'us_denver', ...both('locations', 'us_denver') },
  { company: { ...TARGET_COMPANY, stage: 'series_a' }, location: 'us_boston', ...both('companyStages', 'series_a') },
  { company: { ...TARGET_COMPANY, stage: 'series_b' }, location: 'us_boston', ...both('companyStages', 'series_b') },
  { company: { ...TARGET_COMPANY, industry: 'ind_tech_saas' }, location: 'us_boston', ...both('industries', 'ind_tech_saas') },
  { company: { ...TARGET_COMPANY, industry: 'ind_fin_fintech' }, location: 'us_boston', ...both('industries', 'ind_fin_fintech') },
  { company: { ...TARGET_COMPANY, ownership: 'founder_owned' }, location: 'us_boston', ...both('companyOwnershipGroups', 'founder_owned') },
  { company: { ...TARGET_COMPANY, ownership: 'private_equity_backed' }, location: 'us_boston', ...both('companyOwnershipGroups', 'private_equity_backed') },
  {
    company: TARGET_COMPANY,
    location: 'us_boston',
    contractor: true,
    alone: { ...TRACKED, employmentTypes: ['contractor'] },
    padded: { ...TRACKED, employmentTypes: ['employee', 'contractor'] },
  },
];

/**
 * Company 0 holds the target alone; each tracker is five companies of two colleagues, five paid below
 * the target and five above, spread differently per tracker so that its moves differ. `joiners`
 * adds, per tracker, that many pairs of people (one far below, one far above): a later release in
 * which the trackers grew but the target is still every padded cell's median.
 */
export function trackerMarket(joiners = 0): { companies: CompanySpec[]; records: RecordSpec[] } {
  const companies: CompanySpec[] = [TARGET_COMPANY];
  const records: RecordSpec[] = [{ company: 0, base: TARGET, location: 'us_boston' }];
  TRACKERS.forEach((tracker, t) => {
    const first = companies.length;
    for (let c = 0; c < 5; c++) companies.push(tracker.company);
    const where = { location: tracker.location, contractor: tracker.contractor };
    for (let j = 0; j < 5; j++) {
      records.push({ company: first + j, base: 60_000 + 10_000 * j - 1_000 * t, ...where });
      records.push({ company: first + ((j + 1) % 5), base: 160_000 + 10_000 * j + 3_000 * t, ...where });
    }
    for (let j = 0; j < joiners; j++) {
      records.push({ company: first + (j % 5), base: 30_000 + 500 * j + 100 * t, ...where });
      records.push({ company: first + ((j + 2) % 5), base: 260_000 + 500 * j + 100 * t, ...where });
    }
  });
  return { companies, records };
}

/** Each tracker pair's estimate of the target: the padded cell's median (the target's record in every one). */
export function trackerEstimates(release: MarketRelease, options: QueryOptions): number[] {
  const estimates: number[] = [];
  for (const tracker of TRACKERS) {
    const padded = cellOf(release, request({ marketFilters: [tracker.padded] }), options);
    const median = valueAt(padded, 50);
    if (median !== null) estimates.push(median);
  }
  return estimates;
}

export const mean = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);
