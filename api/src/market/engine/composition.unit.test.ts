import { beforeAll, describe, expect, it } from 'vitest';
import { placesOf } from '../../reference/catalog/index.js';
import { buildDemoRelease } from '../generator/index.js';
import { marketOf, type CompanySpec, type RecordSpec } from './handMarket.js';
import { describeRelease, disclose, roundDownCount, type ReleaseComposition } from './composition.js';
import { buildRelease, type MarketRelease } from './release.js';

describe('describeRelease', () => {
  let release: MarketRelease;
  let composition: ReleaseComposition;
  beforeAll(() => {
    release = buildDemoRelease({ seed: 5, employees: 12_000, companies: 80, builtAt: '2024-05-01T00:00:00.000Z' });
    composition = describeRelease(release);
  });

  const sum = (entries: { employees: number }[]): number => entries.reduce((n, e) => n + e.employees, 0);

  it('accounts for every record once per dimension', () => {
    expect(composition.employees).toBe(12_000);
    expect(composition.companies).toBe(80);
    expect(composition.builtAt).toBe('2024-05-01T00:00:00.000Z');
    for (const dimension of [composition.jobFamilies, composition.levels, composition.industries, composition.companyStages, composition.ownershipGroups]) {
      expect(sum(dimension)).toBe(12_000);
    }
    expect(sum(composition.participants)).toBe(12_000);
  });

  it('rolls metros up into tiers and countries with distinct companies', () => {
    const byId = new Map(composition.locations.map((l) => [l.id, l]));
    const tierOne = byId.get('840_1');
    const metros = placesOf('840_1').map((id) => byId.get(id));
    expect(tierOne?.employees).toBe(metros.reduce((n, m) => n + (m?.employees ?? 0), 0));
    expect(tierOne?.companies).toBeLessThanOrEqual(metros.reduce((n, m) => n + (m?.companies ?? 0), 0));
    expect(byId.get('840')?.employees).toBe(['840_1', '840_2', '840_3'].reduce((n, id) => n + (byId.get(id)?.employees ?? 0), 0));
  });

  it('reports cash and equity coverage per family', () => {
    const engineering = composition.familyCoverage.filter((c) => c.id === 'software_engineering');
    expect(engineering.map((c) => c.broadCompType)).toEqual(['cash', 'equity']);
    const [cash, equity] = engineering;
    expect(cash?.employees).toBe(composition.jobFamilies.find((f) => f.id === 'software_engineering')?.employees);
    expect(equity?.employees).toBeLessThan(cash?.employees ?? 0);
    expect(equity?.companies).toBeLessThanOrEqual(cash?.companies ?? 0);
  });

  it('describes the same release the same way', () => {
    expect(describeRelease(release)).toBe(composition);
    const again = describeRelease(buildDemoRelease({ seed: 5, employees: 12_000, companies: 80, builtAt: '2024-05-01T00:00:00.000Z' }));
    expect({ ...again, releaseId: '' }).toEqual({ ...composition, releaseId: '' });
  });
});

describe('disclose', () => {
  const below = { id: 'below_threshold', label: 'Below the threshold', min: 0, max: null };

  it('rounds published counts down: to multiples of five under 100, to two significant figures from 100', () => {
    expect([5, 7, 10, 14, 45, 99, 100, 799, 1_345, 25_999, 150_000].map(roundDownCount)).toEqual([5, 5, 10, 10, 45, 95, 100, 790, 1_300, 25_000, 150_000]);
    expect(disclose({ id: 'x', companies: 137, employees: 1_345 })).toEqual({
      id: 'x',
      belowThreshold: false,
      companies: 130,
      employees: 1_300,
      companyBucket: expect.objectContaining({ label: '100–249' }),
      employeeBucket: expect.objectContaining({ label: '1,000–4,999' }),
    });
  });

  it('says a group under the rule’s minimums is below the threshold, with no number and no finer bucket', () => {
    const hidden = { id: 'x', belowThreshold: true, companies: null, employees: null, companyBucket: below, employeeBucket: below };
    // One insurer with 425 employees; four companies; five companies with 9 employees.
    expect(disclose({ id: 'x', companies: 1, employees: 425 })).toEqual(hidden);
    expect(disclose({ id: 'x', companies: 4, employees: 5_000 })).toEqual(hidden);
    expect(disclose({ id: 'x', companies: 5, employees: 9 })).toEqual(hidden);
    expect(disclose({ id: 'x', companies: 5, employees: 10 })).toMatchObject({ belowThreshold: false, companies: 5, employees: 10 });
  });
});

describe('describeRelease: one population per answer', () => {
  // Five companies with two employees each in the Bay Area; company 0 also has two data-science
  // contractors there, and company 5 has only contractors: three engineers in Boston (fintech).
  const companies: CompanySpec[] = [{}, {}, {}, {}, {}, { industry: 'ind_fin_fintech' }];
  const employees: RecordSpec[] = [0, 1, 2, 3, 4].flatMap((company) => [0, 1].map((k) => ({ company, base: 100_000 + 1_000 * k })));
  const contractors: RecordSpec[] = [
    { company: 0, base: 90_000, family: 'data_science', contractor: true },
    { company: 0, base: 91_000, family: 'data_science', contractor: true },
    ...[0, 1, 2].map((k) => ({ company: 5, base: 120_000 + k, level: 'p4', location: 'us_boston', contractor: true })),
  ];
  const release = buildRelease(marketOf(companies, [...employees, ...contractors]), { id: 'population', builtAt: '2024-05-01T00:00:00.000Z' });
  const counts = (entries: { id: string; companies: number; employees: number }[]) => Object.fromEntries(entries.map((e) => [e.id, [e.companies, e.employees]]));

  it('counts employees alone everywhere when contractors are not asked for', () => {
    const employeesOnly = describeRelease(release);
    expect([employeesOnly.companies, employeesOnly.employees]).toEqual([5, 10]);
    expect(counts(employeesOnly.jobFamilies)).toEqual({ software_engineering: [5, 10] });
    expect(counts(employeesOnly.levels)).toEqual({ p3: [5, 10] });
    expect(counts(employeesOnly.industries)).toEqual({ ind_tech_saas: [5, 10] });
    expect(counts(employeesOnly.companyStages)).toEqual({ series_b: [5, 10] });
    expect(counts(employeesOnly.ownershipGroups)).toEqual({ venture_backed: [5, 10] });
    const locations = counts(employeesOnly.locations);
    expect(locations).toMatchObject({ us_sf_bay_area: [5, 10], '840_1': [5, 10], '840': [5, 10] });
    expect(locations.us_boston).toBeUndefined();
    expect(employeesOnly.familyCoverage.map((c) => [c.id, c.broadCompType, c.companies, c.employees])).toEqual([['software_engineering', 'cash', 5, 10]]);
    expect(employeesOnly.participants.map((p) => p.employees)).toEqual([2, 2, 2, 2, 2]);
    expect(describeRelease(release, ['employee'])).toBe(employeesOnly);
    // The whole market and the United States are one population: the same published counts.
    expect(disclose({ id: 'all', ...employeesOnly })).toMatchObject({ companies: 5, employees: 10 });
    expect(disclose(employeesOnly.locations.find((l) => l.id === '840')!)).toMatchObject({ companies: 5, employees: 10 });
  });

  it('counts contractors in every dimension when asked for, and them alone when only they are', () => {
    const both = describeRelease(release, ['contractor', 'employee']);
    expect([both.companies, both.employees]).toEqual([6, 15]);
    expect(counts(both.jobFamilies)).toEqual({ software_engineering: [6, 13], data_science: [1, 2] });
    expect(counts(both.levels)).toEqual({ p3: [5, 12], p4: [1, 3] });
    expect(counts(both.industries)).toEqual({ ind_tech_saas: [5, 12], ind_fin_fintech: [1, 3] });
    expect(counts(both.locations)).toMatchObject({ us_sf_bay_area: [5, 12], us_boston: [1, 3], '840_1': [5, 12], '840_2': [1, 3], '840': [6, 15] });
    // 6 companies and 15 employees, published as 5 and 15.
    expect(disclose({ id: 'all', ...both })).toMatchObject({ companies: 5, employees: 15 });
    expect(disclose(both.locations.find((l) => l.id === 'us_boston')!)).toMatchObject({ belowThreshold: true, companies: null, employees: null });
    expect(describeRelease(release, ['employee', 'contractor'])).toBe(both);

    const contractorsOnly = describeRelease(release, ['contractor']);
    expect([contractorsOnly.companies, contractorsOnly.employees]).toEqual([2, 5]);
    expect(counts(contractorsOnly.locations)).toMatchObject({ us_sf_bay_area: [1, 2], us_boston: [1, 3], '840': [2, 5] });
    expect(counts(contractorsOnly.jobFamilies)).toEqual({ software_engineering: [1, 3], data_science: [1, 2] });
    expect(disclose({ id: 'all', ...contractorsOnly })).toMatchObject({ belowThreshold: true });
  });

  it('keeps a below-threshold metro from being differenced out of its country and the published metro beside it', () => {
    // Employees and contractors: the United States (6 companies, 15 people) is the Bay Area (5, 12)
    // and Boston (1 company, 3 contractors), which is below the threshold and shows no numbers.
    const both = describeRelease(release, ['contractor', 'employee']);
    const entry = (id: string) => both.locations.find((l) => l.id === id)!;
    const boston = { companies: 1, employees: 3 };
    expect(disclose(entry('us_boston')).belowThreshold).toBe(true);
    const difference = (published: (e: { companies: number; employees: number }) => { companies: number | null; employees: number | null }) => {
      const country = published(entry('840'));
      const metro = published(entry('us_sf_bay_area'));
      return { companies: country.companies! - metro.companies!, employees: country.employees! - metro.employees! };
    };
    // Positive control: counts under 100 published as they are (the earlier rule) give Boston exactly.
    expect(difference((e) => ({ companies: Math.floor(e.companies), employees: Math.floor(e.employees) }))).toEqual(boston);
    // Published: 5 − 5 companies and 15 − 10 employees, neither Boston's.
    expect(difference((e) => disclose({ id: 'x', ...e }))).toEqual({ companies: 0, employees: 5 });
  });

  it('never publishes a difference of one to four between two groups under 100, whatever their sizes', () => {
    // Every pair of groups a and a + d (a from 10 to 95, d from 1 to 4): the exact difference is d;
    // published counts are multiples of five, so their difference is 0 or 5, never d.
    let pairs = 0;
    for (let a = 10; a + 4 < 100; a++) {
      for (let d = 1; d <= 4; d++) {
        pairs++;
        expect([0, 5]).toContain(roundDownCount(a + d) - roundDownCount(a));
      }
    }
    expect(pairs).toBe(86 * 4);
  });
});
