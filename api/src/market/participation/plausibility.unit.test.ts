import { describe, expect, it } from 'vitest';
import { demoMarket } from '../../demo/market.js';
import { generateDemoPeople } from '../../demo/people.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../../reference/catalog/index.js';
import { placeOfLocation, type ParticipantMarket } from '../engine/participants.js';
import { queryRelease } from '../engine/query.js';
import { generateMarket } from '../generator/generate.js';
import { createRandom } from '../generator/random.js';
import { buildScreened } from '../build.js';
import { agingFactor } from './collect.js';
import type { ContributedParticipant, ContributedRecord, Contribution } from './contribution.js';
import { assessContribution, screenContribution } from './plausibility.js';

const participant = (n: number, companyStage = 'series_b'): ContributedParticipant => ({
  participant: n,
  companyStage,
  ownershipGroup: 'venture_backed',
  industry: 'ind_tech_saas',
  headquarters: 'us_sf_bay_area',
  valuationUsd: 100e6,
  grantsEquity: false,
  equityProgrammeKnown: false,
  grantType: null,
  vestingSchedule: null,
  vestingCliff: null,
  vestingFrequency: null,
  grantTimings: [],
});

const record = (participant: number, base: number, cell: { family?: string; level?: string; location?: string } = {}): ContributedRecord => ({
  participant,
  jobFamilyId: cell.family ?? 'software_engineering',
  levelId: cell.level ?? 'p3',
  locationId: cell.location ?? 'us_sf_bay_area',
  employmentType: 'employee',
  base,
  variable: null,
  annualBonus: null,
  totalCash: base,
  newHireEquity: null,
});

/** Every company of a generated market as a contributing participant, with all its records. */
function asContribution(market: ParticipantMarket): Contribution {
  const { employees, dimensions } = market;
  const records: ContributedRecord[] = [];
  for (let i = 0; i < employees.count; i++) {
    const { placeId, contractor } = placeOfLocation(dimensions.locations[employees.location[i]!]!);
    const base = employees.amounts.base[i]!;
    if (base <= 0) continue;
    records.push({ ...record(employees.company[i]!, base, { family: dimensions.families[employees.family[i]!], level: dimensions.levels[employees.level[i]!], location: placeId }), employmentType: contractor ? 'contractor' : 'employee' });
  }
  return { participants: Array.from({ length: market.companies.count }, (_, n) => participant(n)), records };
}

/** The demo company's ~250 people as its contribution: base in force today, aged as a build ages it (collect.ts). */
function demoCompany(participantNumber: number, today: string): ContributedRecord[] {
  const people = generateDemoPeople('demo', new Map(), today, undefined, demoMarket(20_000));
  const latest = new Map<string, { amount: number; date: string }>();
  for (const r of people.records) {
    if (r.type !== 'base_salary' || String(r.effective_date) > today) continue;
    const seen = latest.get(r.employee_id);
    if (!seen || String(r.effective_date) >= seen.date) latest.set(r.employee_id, { amount: Number(r.amount), date: String(r.effective_date) });
  }
  return people.employees.flatMap((e) => {
    const pay = latest.get(e.id);
    if (e.status !== 'active' || !pay || !e.job_family_id || !e.level_id || !e.location_id || ['intern', 'part_time'].includes(e.employment_type ?? '')) return [];
    return [record(participantNumber, Math.round((pay.amount / 100) * agingFactor(pay.date, today)), { family: e.job_family_id, level: e.level_id, location: e.location_id })];
  });
}

/**
 * A payroll of round salaries, the hardest realistic case for the ladder and duplicate checks: 300
 * people in six cells (one of them 80 engineers), pay around each cell's median rounded to 1,000,
 * everyone's set on the same review day, so equal gaps and repeated amounts are as common as real
 * pay makes them.
 */
function roundPayCompany(participantNumber: number, seed: number): ContributedRecord[] {
  const random = createRandom(seed);
  const cells = [
    { level: 'p3', median: 165_000, n: 80 },
    { level: 'p2', median: 135_000, n: 60 },
    { level: 'p4', median: 200_000, n: 50 },
    { level: 'p5', median: 240_000, n: 40 },
    { level: 'm4', median: 230_000, n: 30 },
    { level: 'p1', median: 110_000, n: 40 },
  ];
  return cells.flatMap((cell) => Array.from({ length: cell.n }, () => record(participantNumber, Math.round(random.logNormal(cell.median, 0.12) / 1000) * 1000, { level: cell.level })));
}

/**
 * The review's attack: one person's six fake companies, 1,536 made-up employees, a ladder of pay in
 * two metros. Each company holds every sixth rung, so together they fill the ladder 250 apart.
 */
function fakeLadder(first: number): ContributedRecord[] {
  const records: ContributedRecord[] = [];
  for (let fake = 0; fake < 6; fake++) {
    for (const [m, location] of ['us_sf_bay_area', 'us_new_york'].entries()) {
      for (let rung = 0; rung < 128; rung++) records.push(record(first + fake, 120_000 + m * 1_000 + 250 * (6 * rung + fake), { location }));
    }
  }
  return records;
}

const checksOf = (contribution: Contribution, options: Parameters<typeof assessContribution>[1] = {}) => assessContribution(contribution, options).map((a) => a.findings.map((f) => f.check));

describe('plausibility checks pass real payrolls', () => {
  it('passes every generated company of the demo market, the demo company and payrolls of round salaries, each among the others', () => {
    const generated = generateMarket({ seed: 20261122, employees: 50_000 });
    const contribution = asContribution(generated);
    const today = '2026-12-06';
    const demo = demoCompany(contribution.participants.length, today);
    const round = [0, 1, 2].flatMap((k) => roundPayCompany(contribution.participants.length + 1 + k, 7 + k));
    const all: Contribution = {
      participants: Array.from({ length: contribution.participants.length + 4 }, (_, n) => participant(n)),
      records: [...contribution.records, ...demo, ...round],
    };
    expect(contribution.participants.length).toBe(250);
    expect(demo.length).toBeGreaterThan(200);
    const flagged = assessContribution(all).filter((a) => a.findings.length > 0);
    expect(flagged.map((a) => `${a.participant}: ${a.findings.map((f) => f.message).join('; ')}`)).toEqual([]);
  });
});

describe('the fake-participant attack', () => {
  /** Five real companies of ten software engineers (P3) in each metro, irregularly paid; the fakes join them. */
  function attacked(): Contribution {
    const random = createRandom(35);
    const real = Array.from({ length: 5 }, (_, c) =>
      ['us_sf_bay_area', 'us_new_york'].flatMap((location) => Array.from({ length: 10 }, () => record(c, Math.round(random.logNormal(175_000, 0.15)), { location }))),
    ).flat();
    return { participants: Array.from({ length: 11 }, (_, n) => participant(n, n < 5 ? 'series_b' : 'series_c')), records: [...real, ...fakeLadder(5)] };
  }
  const cell = (release: ReturnType<typeof buildScreened>['release'], location: string, disclosure = true) =>
    queryRelease(release, {
      compensationTypes: ['base'],
      marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: [location], industries: ['ind_all'] }],
      jobFamilies: ['software_engineering'],
      levels: [{ type: 'level', id: 'p3' }],
    }, { disclosure }).cells[0]!;

  it('holds back all six ladders; with the checks off they enter the release and move the published median onto their ladder', () => {
    const contribution = attacked();
    expect(contribution.records.filter((r) => r.participant >= 5)).toHaveLength(1_536);
    const recipe = { id: 'attack', builtAt: '2026-12-06T00:00:00.000Z', seed: 1, records: 0, contribution };

    // Positive control: the checks off, the fakes are in and set the market.
    const open = buildScreened({ ...recipe, screening: { enabled: false } });
    expect(open.release.companies.count).toBe(11);
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
    };
    const inSf = contribution.records.filter((r) => r.locationId === 'us_sf_bay_area');
    // The ladder's median: rungs 383 and 384 of 768, 120,000 + 250 × 383.5.
    expect(median(inSf.filter((r) => r.participant >= 5).map((r) => r.base))).toBe(215_875);
    const realMedian = median(inSf.filter((r) => r.participant < 5).map((r) => r.base));
    const exposed = cell(open.release, 'us_sf_bay_area');
    expect(exposed.status).toBe('published');
    // Exact head count of the cell; the published one is perturbed by at most 2.
    expect(cell(open.release, 'us_sf_bay_area', false).sample.employees).toBe(768 + 50);
    // The published median moved from the real companies' to the ladder's: the attacker sets the cell.
    const published = exposed.percentiles?.find((p) => p.percentile === 50)?.value ?? 0;
    expect(Math.abs(published - 215_875) / 215_875).toBeLessThan(0.05);
    expect(Math.abs(published - realMedian) / realMedian).toBeGreaterThan(0.1);

    // Protected: the six are held back for their ladders, the real five pass, and the cell is theirs alone.
    const screened = buildScreened({ ...recipe, screening: {} });
    expect(screened.screening?.verdicts.map((v) => v.outcome)).toEqual([...Array(5).fill('passed'), ...Array(6).fill('quarantined')]);
    for (const verdict of screened.screening?.verdicts.slice(5) ?? []) {
      expect(verdict.findings.map((f) => f.check)).toContain('ladder');
      // 256 records, all in two runs of 128 rungs 1,500 apart (every sixth rung of 250).
      expect(verdict.findings.find((f) => f.check === 'ladder')?.message).toBe('256 of 256 records sit in evenly spaced runs of 5 or more; the longest is 128 records 1,500 apart in Software Engineering, P3 · Career, San Francisco Bay Area');
    }
    expect(screened.release.companies.count).toBe(5);
    expect(screened.screening?.contribution.records).toHaveLength(100);
    const protectedCell = cell(screened.release, 'us_sf_bay_area');
    expect(cell(screened.release, 'us_sf_bay_area', false).sample.employees).toBe(50);
    expect(protectedCell.status).toBe('published');
    const alone = buildScreened({ ...recipe, contribution: { participants: contribution.participants.slice(0, 5), records: contribution.records.filter((r) => r.participant < 5) } });
    // Exactly the real companies' figures (compared before the moves, which each release draws anew).
    expect(cell(screened.release, 'us_sf_bay_area', false).percentiles).toEqual(cell(alone.release, 'us_sf_bay_area', false).percentiles);
  });

  it('releases a hold an internal admin released, findings and all', () => {
    const released = screenContribution(attacked(), { released: [false, false, false, false, false, true] });
    expect(released.verdicts.map((v) => v.outcome).slice(4)).toEqual(['passed', 'released', 'quarantined', 'quarantined', 'quarantined', 'quarantined', 'quarantined']);
    // Numbered again from 0 without gaps: the five real ones and the released fake.
    expect(released.contribution.participants.map((p) => p.participant)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(released.contribution.records.map((r) => r.participant))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(released.contribution.records).toHaveLength(100 + 256);
  });
});

describe('each check', () => {
  it('duplicated amounts: most records sharing an amount with two others of their cell', () => {
    // Participant 0: 12 records, 8 of them at 150,000 (a block of 8), and 4 different amounts.
    const records = [...Array.from({ length: 8 }, () => record(0, 150_000)), ...[131_200, 142_900, 157_300, 171_800].map((b) => record(0, b))];
    // Participant 1: a cohort of 5 at 120,000 among 12 — under half — passes.
    records.push(...Array.from({ length: 5 }, () => record(1, 120_000, { level: 'p2' })), ...[101_300, 113_700, 126_100, 131_900, 138_200, 144_600, 149_900].map((b) => record(1, b, { level: 'p2' })));
    const [first, second] = assessContribution({ participants: [participant(0), participant(1)], records });
    expect(first?.findings).toEqual([
      { check: 'duplicated_amounts', message: '8 of 12 records share their exact amount with at least 2 others of the same job, level and place; the largest group is 8 records at 150,000 in Software Engineering, P3 · Career, San Francisco Bay Area', cell: 'software_engineering|p3|us_sf_bay_area', other: null },
    ]);
    expect(second?.findings).toEqual([]);
  });

  it('copied amounts: most of one payroll matching another one for one, cell by cell', () => {
    const random = createRandom(3);
    const payroll = Array.from({ length: 30 }, () => Math.round(random.logNormal(160_000, 0.2)));
    // 25 of 30 copied (83%), the rest different; a third company shares 10 of them (33%).
    const records = [...payroll.map((b) => record(0, b)), ...payroll.map((b, k) => record(1, k < 25 ? b : b + 777)), ...payroll.map((b, k) => record(2, k < 10 ? b : b + 1_333))];
    const checks = assessContribution({ participants: [0, 1, 2].map((n) => participant(n)), records });
    expect(checks.map((c) => c.findings.map((f) => [f.check, f.other]))).toEqual([[['copied_amounts', 1]], [['copied_amounts', 0]], []]);
    expect(checks[0]?.findings[0]?.message).toBe('25 of its 30 records have exactly the job, level, place and amount of records of another participant (30 records)');
  });

  it('far outside every other participant’s range: more than three times their highest or under a third of their lowest, with three companies and ten records to compare', () => {
    const others = [0, 1, 2].flatMap((c) => [140_000, 150_000, 160_000, 170_000].map((b) => record(c, b + c * 1_000)));
    // Others pay 140,000 to 172,000 in the cell. 516,001 is past three times 172,000; 516,000 is not; 46,666 is under a third of 140,000.
    const high = { participants: [0, 1, 2, 3].map((n) => participant(n)), records: [...others, record(3, 516_001), record(3, 150_500)] };
    expect(checksOf(high)[3]).toEqual(['far_outside_range']);
    expect(assessContribution(high)[3]?.findings[0]?.message).toBe(
      "1 record more than 3 times outside every other participant's pay for the same job, level and place; the furthest is 516,001 in Software Engineering, P3 · Career, San Francisco Bay Area, where 3 other companies pay 140,000 to 172,000",
    );
    expect(checksOf({ ...high, records: [...others, record(3, 516_000)] })[3]).toEqual([]);
    expect(checksOf({ ...high, records: [...others, record(3, 46_667)] })[3]).toEqual([]);
    expect(checksOf({ ...high, records: [...others, record(3, 46_666)] })[3]).toEqual(['far_outside_range']);
    // Two other companies are too few to call anything far out.
    expect(checksOf({ ...high, records: [...others.filter((r) => r.participant < 2), record(3, 900_000)] })[3]).toEqual([]);
  });

  it('far outside, where the others are the generated companies of the release', () => {
    const generated = generateMarket({ seed: 5, employees: 20_000 });
    const contribution = { participants: [participant(0)], records: [record(0, 2_000_000), record(0, 181_000)] };
    expect(checksOf(contribution)).toEqual([[]]);
    expect(checksOf(contribution, { reference: generated })).toEqual([['far_outside_range']]);
  });

  it('a head-count jump: at least twice the previous contribution and at least 50 more', () => {
    const random = createRandom(11);
    const payroll = (n: number) => ({ participants: [participant(0)], records: Array.from({ length: n }, () => record(0, Math.round(random.logNormal(160_000, 0.2)))) });
    expect(checksOf(payroll(120), { previousRecords: [60] })).toEqual([['headcount_jump']]);
    expect(assessContribution(payroll(120), { previousRecords: [60] })[0]?.findings[0]?.message).toBe('120 records against 60 in its previous contribution');
    expect(checksOf(payroll(119), { previousRecords: [60] })).toEqual([[]]);
    // A small company doubling: 40 more people is not a jump.
    expect(checksOf(payroll(80), { previousRecords: [40] })).toEqual([[]]);
    expect(checksOf(payroll(500), { previousRecords: [null] })).toEqual([[]]);
  });
});
