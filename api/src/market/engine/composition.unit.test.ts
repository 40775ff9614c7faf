import { beforeAll, describe, expect, it } from 'vitest';
import { placesOf } from '../catalog/index.js';
import { buildDemoRelease } from '../generator/index.js';
import { describeRelease, disclose, roundDownToTwoFigures, type ReleaseComposition } from './composition.js';
import type { MarketRelease } from './release.js';

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

  it('rounds published counts down to two significant figures', () => {
    expect([7, 45, 99, 100, 799, 1_345, 25_999, 150_000].map(roundDownToTwoFigures)).toEqual([7, 45, 99, 100, 790, 1_300, 25_000, 150_000]);
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
