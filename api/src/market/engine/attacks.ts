import { createHmac } from 'node:crypto';
import { EVERYWHERE, FOREX, marketOf, request, type CompanySpec, type RecordSpec } from './handMarket.js';
import { RECORD_MOVE_MOST, relativeFloor, thinFloor } from './disclosure.js';
import { percentileInc } from './percentile.js';
import { assignPersons, type KnownPersons, type PersonIdentityFields } from './personKeys.js';
import { DEFAULT_PRIVACY_RULE, NO_PAY_MASS_CHECKS, type PrivacyRule } from './privacy.js';
import { queryRelease, type BenchmarkCell, type QueryOptions } from './query.js';
import { buildRelease, type MarketRelease } from './release.js';
import type { BenchmarkRequest, MarketFilter } from './request.js';

/**
 * The attack battery against published market figures (docs/market-privacy.md, the threat model),
 * shared by the engine's tests and every release's privacy scorecard. Each attack plants targets in
 * small hand-made markets built with the release's own disclosure key and rule, attacks them once
 * with the protection off (the positive control: the attack must recover its targets, or it proves
 * nothing) and once with it on, and counts the targets recovered within 5%.
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

const within = (estimate: number, target: number): boolean => Math.abs(estimate - target) / target < RECOVERY_TOLERANCE;
const relative = (estimate: number, target: number): number => Math.abs(estimate - target) / target;

function trialKey(key: Uint8Array, trial: number): Uint8Array {
  return new Uint8Array(createHmac('sha256', key).update(`attack trial ${trial}`).digest());
}

/** A hand-made market built as a release with one disclosure key. */
function planted(companies: CompanySpec[], records: RecordSpec[], key: Uint8Array, id: string): MarketRelease {
  return buildRelease(marketOf(companies, records), { id, disclosureKey: key });
}

function cellOf(release: MarketRelease, req: BenchmarkRequest, options: QueryOptions): BenchmarkCell {
  const cell = queryRelease(release, req, { forex: FOREX, ...options }).cells[0];
  if (!cell) throw new Error('The attack asked for no cell');
  return cell;
}

function valueAt(cell: BenchmarkCell, percentile: number): number | null {
  return cell.percentiles?.find((p) => p.percentile === percentile)?.value ?? null;
}

/** Batteries already run in this process, by key, rule and keys tried: the outcome depends on nothing else. */
const batteries = new Map<string, AttackOutcome[]>();

/** Runs every attack of the battery (once per key, rule and number of keys in a process). */
export function runAttackBattery(options: BatteryOptions): AttackOutcome[] {
  const id = `${Buffer.from(options.disclosureKey).toString('hex')} ${JSON.stringify(options.rule ?? DEFAULT_PRIVACY_RULE)} ${options.keys ?? 4}`;
  const known = batteries.get(id);
  if (known) return known.map((outcome) => ({ ...outcome }));
  const outcomes = battery(options);
  batteries.set(id, outcomes);
  return outcomes.map((outcome) => ({ ...outcome }));
}

function battery(options: BatteryOptions): AttackOutcome[] {
  const context: AttackContext = { rule: options.rule ?? DEFAULT_PRIVACY_RULE, keys: Array.from({ length: options.keys ?? 4 }, (_, i) => trialKey(options.disclosureKey, i)) };
  return [differencingAttack(context), trackerAttack(context), releasesAttack(context), reconstructionAttack(context), keySearchAttack(context), colludersAttack(context), dominanceAttack(context), countsAttack(context), countAveragingAttack(context), reimportAttack(context)];
}

export interface AttackContext {
  rule: PrivacyRule;
  keys: Uint8Array[];
}

/** Whether an outcome holds: its positive control recovered every target and the protected attack none. */
export function attackHolds(outcome: AttackOutcome): boolean {
  if (!outcome.gating) return outcome.controlRecovered === outcome.targets;
  return outcome.controlRecovered === outcome.targets && outcome.recovered === 0;
}

// ─── Differencing over every filter dimension ────────────────────────────────────────────────────

/** A target planted in a segment of its own, and the pair of cells that differ by it. */
export interface Plant {
  dimension: string;
  target: Partial<RecordSpec>;
  targetCompany: CompanySpec;
  withTarget: Partial<BenchmarkRequest>;
  without: Partial<BenchmarkRequest>;
}

const AUSTIN = { ...EVERYWHERE, locations: ['us_austin'] };
const allStagesBut = (stage: string): MarketFilter => ({ ...AUSTIN, companyStages: EVERYWHERE.companyStages.filter((s) => s !== stage) });
export const PLANTS: Plant[] = [
  {
    dimension: 'location (a metro more)',
    target: { location: 'us_boston' },
    targetCompany: {},
    withTarget: { marketFilters: [{ ...EVERYWHERE, locations: ['us_austin', 'us_boston'] }] },
    without: { marketFilters: [AUSTIN] },
  },
  {
    dimension: 'stage (all stages, and all but seed)',
    target: {},
    targetCompany: { stage: 'seed' },
    withTarget: { marketFilters: [AUSTIN] },
    without: { marketFilters: [allStagesBut('seed')] },
  },
  {
    dimension: 'ownership group',
    target: {},
    targetCompany: { ownership: 'public', stage: 'public' },
    withTarget: { marketFilters: [AUSTIN] },
    without: { marketFilters: [{ ...AUSTIN, companyOwnershipGroups: ['venture_backed'] }] },
  },
  {
    dimension: 'industry (a group, and all its sub-industries but one)',
    target: {},
    targetCompany: { industry: 'ind_tech_ai' },
    withTarget: { marketFilters: [{ ...AUSTIN, industries: ['ind_technology'] }] },
    without: { marketFilters: [{ ...AUSTIN, industries: ['ind_tech_saas'] }] },
  },
  {
    dimension: 'employment type (employees, and employees and contractors)',
    target: { contractor: true },
    targetCompany: {},
    withTarget: { marketFilters: [{ ...AUSTIN, employmentTypes: ['employee', 'contractor'] }] },
    without: { marketFilters: [AUSTIN] },
  },
  {
    dimension: 'family blend',
    target: { family: 'data_analytics' },
    targetCompany: {},
    withTarget: { marketFilters: [AUSTIN], jobFamilies: ['bg_data'] },
    without: { marketFilters: [AUSTIN], jobFamilies: ['data_science'] },
  },
  {
    dimension: 'level blend',
    target: { level: 'm5' },
    targetCompany: {},
    withTarget: { marketFilters: [AUSTIN], levels: [{ type: 'levelBlend', id: 'lb_p5_m5' }] },
    without: { marketFilters: [AUSTIN], levels: [{ type: 'level', id: 'p5' }] },
  },
];


/** Ten colleagues in five companies, two each, in Austin (or the plant's family and level), and the target at a sixth. */
function plantedRelease(plant: Plant, base: number[], target: number, key: Uint8Array): MarketRelease {
  const family = plant.dimension === 'family blend' ? 'data_science' : 'software_engineering';
  const level = plant.dimension === 'level blend' ? 'p5' : 'p3';
  const records: RecordSpec[] = base.map((pay, i) => ({ company: i % 5, base: pay, location: 'us_austin', family, level }));
  records.push({ company: 5, base: target, location: 'us_austin', family, level, ...plant.target });
  return planted([{}, {}, {}, {}, {}, plant.targetCompany], records, key, `planted-${plant.dimension}`);
}

function requestFor(plant: Plant, which: 'withTarget' | 'without'): BenchmarkRequest {
  const family = plant.dimension === 'family blend' ? 'data_science' : 'software_engineering';
  const level = plant.dimension === 'level blend' ? 'p5' : 'p3';
  return request({ jobFamilies: [family], levels: [{ type: 'level', id: level }], ...plant[which] });
}

// Sparse pay, so that the people next to the target are far from it.
export const SPARSE = [60_000, 70_000, 80_000, 90_000, 100_000, 160_000, 170_000, 180_000, 190_000, 200_000];
export const MEDIAN_TARGET = 120_000;
// Tightly packed pay and one high earner; the target is the second highest, which p90 of 11 records is.
const TAIL_BASE = [100_000, 101_000, 102_000, 103_000, 104_000, 105_000, 106_000, 107_000, 108_000, 400_000];
const TAIL_TARGET = 300_000;

/**
 * Differencing the median: with 11 records and 10, the larger cell's median is its record 5, the
 * extra person when the smaller cell's median is the mean of the larger's p40 and p60. And p90 of 11
 * records is the second highest, so a high earner added to a cell shows up as its p90.
 */
function differencingAttack(context: AttackContext): AttackOutcome {
  const outcome = start('differencing', 'Differencing two published cells that differ by one person, over every filter dimension (and the tail through p90)');
  for (const key of context.keys) {
    for (const plant of PLANTS) {
      const medianRelease = plantedRelease(plant, SPARSE, MEDIAN_TARGET, key);
      const tailRelease = plantedRelease(plant, TAIL_BASE, TAIL_TARGET, key);
      for (const disclosure of [false, true]) {
        const options = { disclosure, privacy: context.rule };
        const larger = cellOf(medianRelease, requestFor(plant, 'withTarget'), options);
        const smaller = cellOf(medianRelease, requestFor(plant, 'without'), options);
        // Confirmed when the smaller cell's median is the mean of the larger's p40 and p60; an
        // attacker who cannot confirm still guesses the larger cell's median.
        const p40 = valueAt(larger, 40);
        const p60 = valueAt(larger, 60);
        const confirmed = p40 !== null && p60 !== null && Math.abs((valueAt(smaller, 50) ?? NaN) - (p40 + p60) / 2) < 0.5;
        // A confirmation that points away from the target (rounding can make the check hold) recovers nothing.
        const median = valueAt(larger, 50);
        if (disclosure && confirmed && median !== null && within(median, MEDIAN_TARGET)) outcome.confirmed = (outcome.confirmed ?? 0) + 1;
        record(outcome, disclosure, median, MEDIAN_TARGET);
        record(outcome, disclosure, valueAt(cellOf(tailRelease, requestFor(plant, 'withTarget'), options), 90), TAIL_TARGET);
      }
    }
  }
  return outcome;
}

function start(attack: AttackId, title: string): AttackOutcome {
  return { attack, title, gating: true, targets: 0, controlRecovered: 0, recovered: 0, closest: null };
}

/** One target attacked: with the protection off it counts to the control, on to the result. */
function record(outcome: AttackOutcome, protectedRun: boolean, estimate: number | null, target: number): void {
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

// ─── Tracker padding, and averaging across queries ───────────────────────────────────────────────

const TARGET = 120_000;
const TRACKED: MarketFilter = { companyStages: ['seed'], companyOwnershipGroups: ['venture_backed'], locations: ['us_boston'], industries: ['ind_tech_ai'] };
const TARGET_COMPANY: CompanySpec = { stage: 'seed', ownership: 'venture_backed', industry: 'ind_tech_ai' };

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
const TRACKERS: Tracker[] = [
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
function trackerMarket(joiners = 0): { companies: CompanySpec[]; records: RecordSpec[] } {
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
function trackerEstimates(release: MarketRelease, options: QueryOptions): number[] {
  const estimates: number[] = [];
  for (const tracker of TRACKERS) {
    const padded = cellOf(release, request({ marketFilters: [tracker.padded] }), options);
    const median = valueAt(padded, 50);
    if (median !== null) estimates.push(median);
  }
  return estimates;
}

const mean = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

function trackerAttack(context: AttackContext): AttackOutcome {
  const outcome = start('tracker', 'Tracker padding over nine filter dimensions (T and ¬T), each pair and the average of all nine');
  const { companies, records } = trackerMarket();
  for (const key of context.keys) {
    const release = planted(companies, records, key, 'tracker');
    for (const disclosure of [false, true]) {
      const estimates = trackerEstimates(release, { disclosure, privacy: context.rule });
      for (const estimate of estimates) record(outcome, disclosure, estimate, TARGET);
      record(outcome, disclosure, mean(estimates), TARGET);
    }
  }
  return outcome;
}

/**
 * The tracker market of one release in which the target's own company churns: `colleagues` people
 * paid far below the target and as many far above (new people each release), so the target's rank
 * among its company's records changes every release while it stays every padded cell's median; the
 * trackers grow by twice as many pairs. With `persons` every record carries a person tag (the target
 * the same in every release, the others new), as participants' records do; without, records are told
 * apart by their rank in their company, as before person tags.
 */
function churnedTrackerMarket(colleagues: number, version: number, persons: boolean): { companies: CompanySpec[]; records: RecordSpec[] } {
  const { companies, records } = trackerMarket(2 * colleagues);
  for (let i = 0; i < colleagues; i++) {
    records.push({ company: 0, base: 25_000 + 1_000 * i, location: 'us_boston' });
    records.push({ company: 0, base: 290_000 + 1_000 * i, location: 'us_boston' });
  }
  if (!persons) return { companies, records };
  // The target is record 0; everyone else is somebody new in every release.
  return { companies, records: records.map((r, i) => ({ ...r, person: i === 0 ? TARGET_PERSON : 1 + version * 100_000 + i })) };
}
const TARGET_PERSON = 0x7a11;

/**
 * Averaging across releases: the same target in four releases, its own company churning between them
 * (colleagues leave and join below and above it) and the trackers growing (new draws for every padded
 * cell). The attacker averages every padded median of every release. The note gives the same attack
 * on records told apart by rank (no person tags), whose churn gives the target a new move each release.
 */
function releasesAttack(context: AttackContext): AttackOutcome {
  const outcome = start('releases', 'Averaging the tracker pairs across four releases in which the target\'s company churns and the trackers grow');
  let rankRecovered = 0;
  let rankClosest = Infinity;
  for (const key of context.keys) {
    for (const [disclosure, persons] of [
      [false, true],
      [true, true],
      [true, false],
    ] as const) {
      const estimates: number[] = [];
      for (let version = 0; version < 4; version++) {
        const { companies, records } = churnedTrackerMarket(version, version, persons);
        const release = planted(companies, records, key, `release-${version}`);
        estimates.push(...trackerEstimates(release, { disclosure, privacy: context.rule }));
      }
      if (persons) record(outcome, disclosure, mean(estimates), TARGET);
      else {
        const estimate = mean(estimates);
        if (estimate !== null && within(estimate, TARGET)) rankRecovered++;
        if (estimate !== null) rankClosest = Math.min(rankClosest, relative(estimate, TARGET));
      }
    }
  }
  outcome.note = `without person tags (a record's move drawn from its rank in its company, which churn changes) ${rankRecovered} of ${context.keys.length} averages land within 5% (closest ${(100 * rankClosest).toFixed(1)}%)`;
  return outcome;
}

// ─── Reconstruction from the seven percentiles ───────────────────────────────────────────────────

/**
 * A cell of 11 records (five companies of two and one of one): p10, p40, p50, p60 and p90 sit at its
 * records 1, 4, 5, 6 and 9 exactly (PERCENTILE.INC at ranks (n − 1) × p), so an attacker reads five
 * people's pay off the seven figures.
 */
function reconstructionAttack(context: AttackContext): AttackOutcome {
  const outcome = start('reconstruction', 'Reconstruction from the seven percentiles: five of eleven records read off p10, p40, p50, p60 and p90');
  const pay = [...SPARSE, MEDIAN_TARGET].sort((a, b) => a - b);
  const records: RecordSpec[] = pay.map((base, i) => ({ company: i < 10 ? i % 5 : 5, base, location: 'us_austin' }));
  const ranks: [number, number][] = [
    [10, 1],
    [40, 4],
    [50, 5],
    [60, 6],
    [90, 9],
  ];
  for (const key of context.keys) {
    const release = planted([{}, {}, {}, {}, {}, {}], records, key, 'reconstruction');
    for (const disclosure of [false, true]) {
      const cell = cellOf(release, request({ marketFilters: [{ ...EVERYWHERE, locations: ['us_austin'] }] }), { disclosure, privacy: context.rule });
      for (const [percentile, rank] of ranks) record(outcome, disclosure, valueAt(cell, percentile), pay[rank]!);
    }
  }
  return outcome;
}

// ─── Key search ──────────────────────────────────────────────────────────────────────────────────

/** The reduced key space of the positive control: 2^8 keys, each derived from an 8-bit secret. */
const REDUCED_BITS = 8;
const reducedKey = (secret: number): Uint8Array => new Uint8Array(createHmac('sha256', 'reduced key space').update(String(secret)).digest());

const KNOWN: RecordSpec[] = SPARSE.map((base, i) => ({ company: i % 5, base, location: 'us_austin' }));
const AUSTIN_CELL = (): BenchmarkRequest => request({ marketFilters: [{ ...EVERYWHERE, locations: ['us_austin'] }] });
const figuresOf = (cell: BenchmarkCell): string => JSON.stringify(cell.percentiles);

/**
 * Key search against whatever secret remains. The attacker knows one cell completely (ten of their
 * own people) and every record but the target's of another; they try every key of the space on the
 * known cell, keep the keys that reproduce its published figures, and with each try every whole
 * hundred of pay for the target until the published figures come out. Positive control: a release
 * keyed from an 8-bit secret (the search finds the key, then the target exactly). Protected: the
 * release's 256-bit key, against which the same search finds no key.
 */
function keySearchAttack(context: AttackContext): AttackOutcome {
  const outcome = start('key_search', `Key search: every key of a ${REDUCED_BITS}-bit space tried on a fully known cell, then the target's pay searched under the key found`);
  const companies: CompanySpec[] = [{}, {}, {}, {}, {}, {}];
  const withTarget = (pay: number): RecordSpec[] => [...KNOWN, { company: 5, base: pay, location: 'us_austin' }];
  const options = { privacy: context.rule };
  for (const [trial, key] of context.keys.entries()) {
    const weak = reducedKey((trial * 37 + 11) % 2 ** REDUCED_BITS);
    for (const [protectedRun, releaseKey] of [
      [false, weak],
      [true, key],
    ] as const) {
      const publishedKnown = figuresOf(cellOf(planted(companies, KNOWN, releaseKey, 'known'), AUSTIN_CELL(), options));
      const publishedTarget = figuresOf(cellOf(planted(companies, withTarget(MEDIAN_TARGET), releaseKey, 'target'), AUSTIN_CELL(), options));
      let estimate: number | null = null;
      for (let secret = 0; secret < 2 ** REDUCED_BITS && estimate === null; secret++) {
        const candidate = reducedKey(secret);
        if (figuresOf(cellOf(planted(companies, KNOWN, candidate, 'try'), AUSTIN_CELL(), options)) !== publishedKnown) continue;
        for (let pay = 100_500; pay < 160_000; pay += 500) {
          if (figuresOf(cellOf(planted(companies, withTarget(pay), candidate, 'try'), AUSTIN_CELL(), options)) === publishedTarget) {
            estimate = pay;
            break;
          }
        }
      }
      record(outcome, protectedRun, estimate, MEDIAN_TARGET);
    }
  }
  return outcome;
}

// ─── Colluders who know everyone but the target ──────────────────────────────────────────────────

const COLLUDER_METROS = ['us_austin', 'us_denver', 'us_seattle', 'us_chicago', 'us_new_york', 'us_los_angeles', 'us_atlanta', 'us_dallas'];

/**
 * Four colluding participants know all their own employees' pay and every other record but the
 * target's (a stronger attacker than the threat model: the target's colleague is known too). The
 * target works in Boston; each cell is Boston and one more metro, where the colluders have people at
 * other pay, so every cell holds the target with different neighbours and different draws. The
 * attacker knows the design, not the key. For every whole hundred of pay they compute the exact
 * figures each cell would have; the estimate is the middle of the pay whose published figures are
 * each within what the design allows (figuresFit). Reported beside it (the note): the pay whose exact
 * figures are closest to the published ones (least squares over every figure of every cell), and how
 * often a guess that ignores the target (the mean of the cells' medians) lands within 5%, which is
 * what chance gives. Without moves both estimates give exactly the target's pay.
 */
function colludersAttack(context: AttackContext): AttackOutcome {
  const outcome = start('colluders', 'Colluders who know every record but the target (more than four participants know), over eight cells around the target');
  const companies: CompanySpec[] = [{}, {}, {}, {}, {}];
  const boston: RecordSpec[] = [
    ...[70_000, 95_000, 150_000, 180_000].map((base, i) => ({ company: i, base, location: 'us_boston' })),
    { company: 4, base: TARGET, location: 'us_boston' },
    { company: 4, base: 210_000, location: 'us_boston' },
  ];
  const metroRecords = (metro: string, m: number): RecordSpec[] =>
    [60_000, 85_000, 105_000, 140_000, 165_000, 190_000, 75_000, 200_000].map((base, i) => ({ company: i % 4, base: base + 1_500 * m, location: metro }));
  const records = [...boston, ...COLLUDER_METROS.flatMap(metroRecords)];
  const fits = { recovered: 0, guessed: 0, closest: Infinity };
  const cells = COLLUDER_METROS.map((metro, m) => ({ metro, known: [...boston.filter((r) => r.base !== TARGET), ...metroRecords(metro, m)].map((r) => r.base) }));
  for (const key of context.keys) {
    const release = planted(companies, records, key, 'colluders');
    for (const disclosure of [false, true]) {
      const published = cells.map((cell) => cellOf(release, request({ marketFilters: [{ ...EVERYWHERE, locations: ['us_boston', cell.metro] }] }), { disclosure, privacy: context.rule }));
      const left: number[] = [];
      let best = { pay: 0, misfit: Infinity };
      for (let pay = 40_000; pay <= 300_000; pay += 100) {
        const consistent = cells.every((cell, i) => figuresFit(published[i]!, [...cell.known, pay], disclosure ? context.rule : null));
        if (consistent) left.push(pay);
        const off = cells.reduce((sum, cell, i) => sum + misfit(published[i]!, [...cell.known, pay]), 0);
        if (off < best.misfit) best = { pay, misfit: off };
      }
      // The middle of what is consistent is the estimate; the best fit and a guess that ignores the target are reported beside it.
      record(outcome, disclosure, left.length === 0 ? null : (left[0]! + left[left.length - 1]!) / 2, TARGET);
      if (!disclosure) continue;
      const medians = published.map((cell) => valueAt(cell, 50) ?? 0);
      if (within(best.pay, TARGET)) fits.recovered++;
      if (within(mean(medians) ?? 0, TARGET)) fits.guessed++;
      fits.closest = Math.min(fits.closest, relative(best.pay, TARGET));
    }
  }
  const trials = context.keys.length;
  outcome.note = `best least-squares fit within 5% in ${fits.recovered} of ${trials} (closest ${(100 * fits.closest).toFixed(1)}%), against ${fits.guessed} of ${trials} for the mean of the cells' published medians, a guess that ignores the target`;
  return outcome;
}

/** How far a cell's published percentiles are from the exact ones of these records: the sum of squared relative differences. */
function misfit(cell: BenchmarkCell, pay: number[]): number {
  if (!cell.percentiles) return 0;
  const sorted = [...pay].sort((a, b) => a - b);
  return cell.percentiles.reduce((sum, { percentile, value }) => {
    const exact = percentileInc(sorted, sorted.length, percentile);
    return sum + ((value - exact) / exact) ** 2;
  }, 0);
}

/**
 * Whether a cell's published percentiles could come from these records: exactly, or (with moves) as
 * the design allows. The attacker knows the design, not the key: every record's moved amount lies
 * within RECORD_MOVE_MOST of its pay, so the k-th smallest moved amount lies between the k-th smallest
 * of the lowest and of the highest amounts the records could have moved to, and a percentile between
 * the same blends of those; a thin cell's figure may then have been moved on (disclosure.ts, keptOff),
 * and every figure by three relative floors and the rounding.
 */
function figuresFit(cell: BenchmarkCell, pay: number[], rule: PrivacyRule | null): boolean {
  if (!cell.percentiles) return false;
  const sorted = [...pay].sort((a, b) => a - b);
  const n = sorted.length;
  if (rule === null) return cell.percentiles.every(({ percentile, value }) => Math.abs(value - percentileInc(sorted, n, percentile)) < 1);
  const lowest = sorted.map((a) => a * (1 - RECORD_MOVE_MOST) - 1);
  const highest = sorted.map((a) => a * (1 + RECORD_MOVE_MOST) + 1);
  // The colluders are the four largest companies; what stands outside them sets the floors.
  const slack = 3 * relativeFloor(2) + 0.005;
  return cell.percentiles.every(({ percentile, value }) => {
    // Moved on by up to twice the larger of an eighth of the exact span around it and its thin floor.
    const exact = percentileInc(sorted, n, percentile);
    const lower = Math.floor(((n - 1) * percentile) / 100);
    const span = sorted[Math.min(n - 1, lower + 2)]! - sorted[Math.max(0, lower - 1)]!;
    const kept = 2 * Math.max(span / 8, exact * thinFloor(2));
    const low = (percentileInc(lowest, n, percentile) - kept) * (1 - slack);
    const high = (percentileInc(highest, n, percentile) + kept) * (1 + slack);
    return value >= low && value <= high;
  });
}

// ─── Dominance and the p% rule ───────────────────────────────────────────────────────────────────

/**
 * A cell one company dominates by pay, not by head count: it holds a quarter of the records (the
 * most the head-count rule allows) and most of the pay, so the figures above p75 are its records.
 * And a cell that only the p% rule stops: no company dominates, but the two records outside the four
 * largest companies are paid so little that the second to fourth largest, knowing their own pay,
 * bound the largest company's. In both the colluders (every company but the largest) read the
 * largest company's pay off the published p90. The target is that company's mean pay.
 */
export const DOMINANCE_PLANTS: { name: string; records: RecordSpec[]; companies: number; target: number }[] = [
  {
    name: 'one company dominates the pay',
    companies: 5,
    records: [
      ...[490_000, 500_000, 510_000].map((base) => ({ company: 0, base, location: 'us_austin' })),
      ...[100_000, 105_000, 110_000, 115_000, 120_000, 125_000, 130_000, 108_000, 118_000].map((base, i) => ({ company: 1 + (i % 4), base, location: 'us_austin' })),
    ],
    target: 500_000,
  },
  {
    name: 'only the p% rule stops it',
    companies: 6,
    records: [
      ...[198_000, 200_000, 202_000].map((base) => ({ company: 0, base, location: 'us_austin' })),
      ...[140_000, 145_000, 150_000, 152_000, 155_000, 148_000, 142_000, 158_000, 160_000].map((base, i) => ({ company: 1 + (i % 3), base, location: 'us_austin' })),
      { company: 4, base: 20_000, location: 'us_austin' },
      { company: 5, base: 21_000, location: 'us_austin' },
    ],
    target: 200_000,
  },
];

/**
 * Dominance and the p% rule: with every protection off (no moves, no pay-mass checks) the published
 * p90 of each planted cell is the dominant company's pay (the control); with the release's rule the
 * cell is withheld and the attacker reads nothing.
 */
function dominanceAttack(context: AttackContext): AttackOutcome {
  const outcome = start('dominance', "Dominance and the p% rule: a cell one company dominates by pay, and one whose smallest contributors are too small to hide the largest; the largest company's pay read off p90");
  for (const key of context.keys) {
    for (const plant of DOMINANCE_PLANTS) {
      const release = planted(Array.from({ length: plant.companies }, () => ({})), plant.records, key, `dominance-${plant.name}`);
      for (const disclosure of [false, true]) {
        const rule = disclosure ? context.rule : { ...context.rule, ...NO_PAY_MASS_CHECKS };
        record(outcome, disclosure, valueAt(cellOf(release, AUSTIN_CELL(), { disclosure, privacy: rule }), 90), plant.target);
      }
    }
  }
  return outcome;
}

// ─── Counts ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Differencing counts: the withheld group between two published cells (here one person at a company
 * of their own) is the difference of their employee counts and of their company counts, for each of
 * the nine tracker pairs. A pair is recovered when its published difference is exactly the true one
 * (1); published counts are multiples of five, so none is. The note says how often the average of the
 * nine pairs rounds to the true difference, which keyed rounding does not prevent (it is unbiased).
 */
function countsAttack(context: AttackContext): AttackOutcome {
  const outcome = start('counts', 'Differencing head counts and company counts: the nine tracker pairs, each pair exact or not, and their average');
  const { companies, records } = trackerMarket();
  let exactAverages = 0;
  let averages = 0;
  for (const key of context.keys) {
    const release = planted(companies, records, key, 'counts');
    for (const disclosure of [false, true]) {
      const differences = { employees: [] as number[], companies: [] as number[] };
      for (const tracker of TRACKERS) {
        const padded = cellOf(release, request({ marketFilters: [tracker.padded] }), { disclosure, privacy: context.rule });
        const alone = cellOf(release, request({ marketFilters: [tracker.alone] }), { disclosure, privacy: context.rule });
        for (const count of ['employees', 'companies'] as const) {
          const a = padded.sample[count];
          const b = alone.sample[count];
          const difference = a === null || b === null ? null : a - b;
          if (difference !== null) differences[count].push(difference);
          if (!disclosure) {
            outcome.targets++;
            if (difference === 1) outcome.controlRecovered++;
          } else if (difference === 1) outcome.recovered++;
        }
      }
      if (!disclosure) continue;
      for (const count of ['employees', 'companies'] as const) {
        const average = mean(differences[count]);
        averages++;
        if (average !== null && Math.round(average) === 1) exactAverages++;
      }
    }
  }
  outcome.note = `${outcome.recovered} of ${outcome.targets} single pairs give the exact difference (of 1); the average of nine pairs rounds to it in ${exactAverages} of ${averages} (head counts and company counts)`;
  return outcome;
}

// ─── Counts averaged over many trackers ──────────────────────────────────────────────────────────

/** Metros of the tracker populations: any non-empty set of them is a tracker, 255 in all. */
const AVERAGING_METROS = ['us_austin', 'us_denver', 'us_chicago', 'us_seattle', 'us_atlanta', 'us_miami', 'us_phoenix', 'us_portland'];

/**
 * A group of `size` people at Boston (one company, below the threshold on its own) and, in each of
 * eight other metros, five companies of two people each: every non-empty set S of those metros is a
 * tracker, S alone and S with Boston both published, 255 differenced pairs of distinct record sets.
 */
function averagingMarket(size: number): { companies: CompanySpec[]; records: RecordSpec[] } {
  const companies: CompanySpec[] = [TARGET_COMPANY];
  const records: RecordSpec[] = Array.from({ length: size }, (_, i) => ({ company: 0, base: TARGET + 1_000 * i, location: 'us_boston' }));
  AVERAGING_METROS.forEach((location, m) => {
    const first = companies.length;
    for (let c = 0; c < 5; c++) companies.push(TARGET_COMPANY);
    for (let j = 0; j < 10; j++) records.push({ company: first + (j % 5), base: 60_000 + 15_000 * j + 700 * m, location });
  });
  return { companies, records };
}

/** The average over every tracker set of the published head count of S ∪ Boston minus that of S. */
function averagedDifference(release: MarketRelease, options: QueryOptions): number | null {
  const differences: number[] = [];
  for (let set = 1; set < 1 << AVERAGING_METROS.length; set++) {
    const metros = AVERAGING_METROS.filter((_, m) => (set & (1 << m)) !== 0);
    const alone = cellOf(release, request({ marketFilters: [{ ...TRACKED, locations: metros }] }), options).sample.employees;
    const padded = cellOf(release, request({ marketFilters: [{ ...TRACKED, locations: ['us_boston', ...metros] }] }), options).sample.employees;
    if (alone !== null && padded !== null) differences.push(padded - alone);
  }
  return mean(differences);
}

/**
 * Averaging differenced head counts: keyed rounding is unbiased, so the mean of many differenced
 * pairs (here 255 trackers) converges on the group's exact size. The gating targets are one person:
 * recovered when the average rounds to 1. The note gives the same attack on counts rounded without
 * the records' count weights (which it recovers) and on a group of five, the difference of five of
 * two cells on multiples of five (not gating: 5 plus five weights lands on 5 now and then by chance).
 */
function countAveragingAttack(context: AttackContext): AttackOutcome {
  const outcome = start('count_averaging', 'Head counts differenced over 255 trackers (every set of eight metros) and averaged: one person, and a group of five');
  const single = averagingMarket(1);
  const five = averagingMarket(5);
  let unweighted = 0;
  let fiveExact = 0;
  let fiveUnweighted = 0;
  let closestEstimate: number | null = null;
  for (const key of context.keys) {
    const release = planted(single.companies, single.records, key, 'count averaging');
    const control = averagedDifference(release, { disclosure: false, privacy: context.rule });
    outcome.targets++;
    if (control !== null && Math.round(control) === 1) outcome.controlRecovered++;
    const bare = averagedDifference(release, { countWeights: false, privacy: context.rule });
    if (bare !== null && Math.round(bare) === 1) unweighted++;
    const averaged = averagedDifference(release, { privacy: context.rule });
    if (averaged !== null) {
      if (Math.round(averaged) === 1) outcome.recovered++;
      const distance = Math.abs(averaged - 1);
      closestEstimate = closestEstimate === null ? distance : Math.min(closestEstimate, distance);
    }
    const group = planted(five.companies, five.records, key, 'count averaging of five');
    const fiveBare = averagedDifference(group, { countWeights: false, privacy: context.rule });
    if (fiveBare !== null && Math.round(fiveBare) === 5) fiveUnweighted++;
    const fiveAveraged = averagedDifference(group, { privacy: context.rule });
    if (fiveAveraged !== null && Math.round(fiveAveraged) === 5) fiveExact++;
  }
  const keys = context.keys.length;
  // How far the best average lands from the exact 1 is in people, not a share of pay: said in the note, not as `closest`.
  const nearest = closestEstimate === null ? '' : ` (closest ${closestEstimate.toFixed(2)} people off)`;
  outcome.note = `averages of 255 pairs rounding to the exact 1: ${outcome.recovered} of ${keys} with count weights${nearest}, ${unweighted} of ${keys} without them; a group of five: ${fiveExact} of ${keys} with them, ${fiveUnweighted} of ${keys} without`;
  return outcome;
}

// ─── Re-imported under new employee ids ──────────────────────────────────────────────────────────

const REIMPORTS = 120;
/** Pairs added to each tracker (far below and far above the target): cells of over a hundred records, not thin, so a figure is its record's moved pay. */
const REIMPORT_JOINERS = 50;
const REIMPORTING_COMPANY = 'company-reimporting';

/**
 * The target's company re-imports its people under new employee ids before every release (an HRIS
 * migration, or on purpose), 120 releases in all, its trackers grown past thin cells; the attacker averages the nine tracker pairs of
 * every release. The target's person tag is what the collector gives (personKeys.ts): with the
 * identities the company keeps across builds (its e-mail, its name and start date), or, the control,
 * of the new employee id alone, which is a new tag, so a new move, every release.
 */
function reimportAttack(context: AttackContext): AttackOutcome {
  const outcome = start('reimport', 'Averaging the tracker pairs over 120 releases, the target re-imported under a new employee id before each');
  for (const key of context.keys) {
    for (const identities of [false, true]) {
      const known: KnownPersons = new Map();
      const estimates: number[] = [];
      // A release is a function of its records and key alone (its id draws nothing), so a release whose
      // target kept the tag of an earlier one gives that one's estimates: built once, counted every time.
      const byTag = new Map<string, number[]>();
      for (let version = 0; version < REIMPORTS; version++) {
        const employee: PersonIdentityFields = identities
          ? { id: `employee-${version}`, email: 'target@reimporting.example', firstName: 'Ada', lastName: 'Target', startDate: '2021-03-01' }
          : { id: `employee-${version}`, email: null, firstName: '', lastName: '', startDate: null };
        const assigned = assignPersons(key, REIMPORTING_COMPANY, { employees: [employee], known });
        for (const { identity, person } of assigned.added) known.set(identity, person);
        const person = assigned.persons.get(employee.id)!;
        let pairs = byTag.get(String(person));
        if (!pairs) {
          const { companies, records } = trackerMarket(REIMPORT_JOINERS);
          const tagged = records.map((r, i) => (i === 0 ? { ...r, person } : r));
          pairs = trackerEstimates(planted(companies, tagged, key, `reimport-${version}`), { privacy: context.rule });
          byTag.set(String(person), pairs);
        }
        estimates.push(...pairs);
      }
      record(outcome, identities, mean(estimates), TARGET);
    }
  }
  return outcome;
}
