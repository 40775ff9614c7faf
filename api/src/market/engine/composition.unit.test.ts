import { beforeAll, describe, expect, it } from 'vitest';
import { metrosOf } from '../catalog/index.js';
import { buildDemoRelease } from '../generator/index.js';
import { describeRelease, type ReleaseComposition } from './composition.js';
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
    const metros = metrosOf('840_1').map((id) => byId.get(id));
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
    expect(equity?.employeeBucket.label).toBeTruthy();
  });

  it('describes the same release the same way', () => {
    expect(describeRelease(release)).toBe(composition);
    const again = describeRelease(buildDemoRelease({ seed: 5, employees: 12_000, companies: 80, builtAt: '2024-05-01T00:00:00.000Z' }));
    expect({ ...again, releaseId: '' }).toEqual({ ...composition, releaseId: '' });
  });
});
