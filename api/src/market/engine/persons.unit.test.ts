import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mergeContributions, type ContributedParticipant, type ContributedRecord } from '../participation/contribution.js';
import { runAttackBattery } from './attacks/index.js';
import { personTag } from './disclosure/recordKeys.js';
import { marketOf, type RecordSpec } from './handMarket.js';
import { emptyMarket } from './participants.js';
import { buildRelease, type MarketRelease } from './release.js';

/**
 * A participant's record moves by a draw of who they are (docs/market-privacy.md, stable person
 * identity): a keyed tag of their employee id within their company, carried into the release, not
 * their rank among their company's records, which churn changes.
 */
const KEY = new Uint8Array(createHash('sha256').update('person tags test').digest());
const TARGET = 120_000;

/** The moved amount of company 0's record paid `pay` (base). */
function movedOf(release: MarketRelease, pay: number): number {
  const column = release.measures.base;
  for (let j = 0; j < column.values.length; j++) if (column.who[j]! >>> 8 === 0 && column.exact[j] === pay) return column.values[j]!;
  throw new Error(`No record of company 0 paid ${pay}`);
}

/** Four other companies of two records each, below and above the target, in the given place and job. */
const othersAt = (where: Pick<RecordSpec, 'family' | 'level' | 'location'>): RecordSpec[] =>
  [60_000, 70_000, 80_000, 90_000, 160_000, 170_000, 180_000, 190_000].map((base, i) => ({ company: 1 + (i % 4), base, ...where }));

/** Company 0: the target and whoever of its colleagues is there; four other companies of two. */
function release(colleagues: number[], persons: boolean): MarketRelease {
  const records: RecordSpec[] = [
    { company: 0, base: TARGET, location: 'us_austin', ...(persons ? { person: 7 } : {}) },
    ...colleagues.map((base, i) => ({ company: 0, base, location: 'us_austin', ...(persons ? { person: 100 + base / 1_000 + i } : {}) })),
    ...othersAt({ location: 'us_austin' }),
  ];
  return buildRelease(marketOf([{}, {}, {}, {}, {}], records), { id: 'persons', disclosureKey: KEY });
}

describe('a stable person identity', () => {
  it('keeps a remaining person’s move when colleagues below and above them leave or join', () => {
    const before = movedOf(release([100_000, 110_000, 140_000], true), TARGET);
    for (const churned of [[], [110_000], [140_000], [90_000, 95_000, 100_000, 110_000], [130_000, 150_000]]) {
      expect(movedOf(release(churned, true), TARGET)).toBe(before);
    }
    // It moved: 7.5% to 13% off the pay, one way.
    const move = Math.abs(before - TARGET) / TARGET;
    expect(move).toBeGreaterThanOrEqual(0.075 - 1e-4);
    expect(move).toBeLessThanOrEqual(0.13 + 1e-4);
  });

  it('control: told apart by rank, the same churn gives the person a new move', () => {
    const before = movedOf(release([100_000, 110_000, 140_000], false), TARGET);
    // Two colleagues below leave: the target's rank in its company goes from 2 to 0.
    expect(movedOf(release([140_000], false), TARGET)).not.toBe(before);
  });

  it('keeps a person’s move when they change place, level and family (a promotion with a rise, a relocation)', () => {
    // The signed factor the record moved by; moved amounts are whole and end in the side's bit, so ±2 of the pay.
    const factor = (specs: Pick<RecordSpec, 'family' | 'level' | 'location'>, pay: number, persons: boolean): number => {
      const records: RecordSpec[] = [
        { company: 0, base: pay, ...specs, ...(persons ? { person: 7 } : {}) },
        ...othersAt(specs),
      ];
      const moved = movedOf(buildRelease(marketOf([{}, {}, {}, {}, {}], records), { id: 'moves', disclosureKey: KEY }), pay);
      return (moved - pay) / pay;
    };
    const before = factor({ location: 'us_austin', level: 'p3' }, TARGET, true);
    const promoted = factor({ location: 'us_austin', level: 'p4' }, 140_000, true);
    const relocated = factor({ location: 'gb_london', level: 'p4', family: 'data_science' }, 95_000, true);
    expect(Math.abs(promoted - before)).toBeLessThan(3 / 95_000);
    expect(Math.abs(relocated - before)).toBeLessThan(3 / 95_000);
    // Control: told apart by rank, a record somewhere else is somebody new, with a move of its own.
    const byRank = factor({ location: 'us_austin', level: 'p3' }, TARGET, false);
    expect(Math.abs(factor({ location: 'gb_london', level: 'p4', family: 'data_science' }, 95_000, false) - byRank)).toBeGreaterThan(3 / 95_000);
  });

  it('is a keyed tag of the company and employee ids, never 0, and differs by key, company and employee', () => {
    const tag = personTag(KEY, 'company-a', 'employee-1');
    expect(tag).toBe(personTag(KEY, 'company-a', 'employee-1'));
    expect(tag).not.toBe(0);
    expect(personTag(KEY, 'company-b', 'employee-1')).not.toBe(tag);
    expect(personTag(KEY, 'company-a', 'employee-2')).not.toBe(tag);
    expect(personTag(new Uint8Array(32), 'company-a', 'employee-1')).not.toBe(tag);
  });

  it('is carried from contributed records into the release records', () => {
    const participant = (n: number): ContributedParticipant => ({
      participant: n,
      companyStage: 'series_b',
      ownershipGroup: 'venture_backed',
      industry: 'ind_tech_saas',
      headquarters: 'us_austin',
      valuationUsd: 100e6,
      grantsEquity: false,
      equityProgrammeKnown: false,
      grantType: null,
      vestingSchedule: null,
      vestingCliff: null,
      vestingFrequency: null,
      grantTimings: [],
    });
    const records: ContributedRecord[] = [0, 1].map((n) => ({ participant: n, jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_austin', employmentType: 'employee', base: 100_000 + n, variable: null, annualBonus: null, totalCash: 100_000 + n, newHireEquity: null, person: 41 + n }));
    const built = buildRelease(mergeContributions(emptyMarket(), { participants: [participant(0), participant(1)], records }), { id: 'carried', disclosureKey: KEY });
    expect([...(built.records.person ?? [])].sort()).toEqual([41, 42]);
  });

  it('makes averaging releases in which the target’s company churns recover no one within 5% (the battery’s releases attack)', () => {
    const outcome = runAttackBattery({ disclosureKey: KEY, keys: 4 }).find((o) => o.attack === 'releases')!;
    expect(outcome.targets).toBe(4);
    expect(outcome.controlRecovered).toBe(4);
    expect(outcome.recovered).toBe(0);
    expect(outcome.closest!).toBeGreaterThan(0.05);
    expect(outcome.note).toMatch(/^without person tags \(a record's move drawn from its rank in its company, which churn changes\) \d of 4 averages land within 5%/);
  });
});
