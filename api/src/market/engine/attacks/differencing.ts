import { EVERYWHERE, request, type CompanySpec, type RecordSpec } from '../handMarket.js';
import type { MarketRelease } from '../release.js';
import type { BenchmarkRequest, MarketFilter } from '../request.js';
import { cellOf, mean, planted, record, relative, start, TARGET, trackerEstimates, trackerMarket, valueAt, within, type AttackContext, type AttackOutcome } from './setup.js';

/**
 * The attacks that difference published cells: two cells that differ by one person, over every
 * filter dimension; tracker padding, each pair and their average; and the same trackers averaged
 * across releases in which the target's company churns.
 */

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
export function differencingAttack(context: AttackContext): AttackOutcome {
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

// ─── Tracker padding, and averaging across queries ───────────────────────────────────────────────

export function trackerAttack(context: AttackContext): AttackOutcome {
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
export function releasesAttack(context: AttackContext): AttackOutcome {
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
