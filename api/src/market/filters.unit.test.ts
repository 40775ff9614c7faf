import { describe, expect, it } from 'vitest';
import { EXECUTIVE_TITLES, findJobFamily, findLevel } from '../reference/catalog/index.js';
import { presentExecutiveMetadata, presentFilters } from './present.js';
import { assertNoEmptySection } from './service.js';

const FOREX = { USD: 1, EUR: 0.9, GBP: 0.78, CAD: 1.38 };

describe('the benchmarking filters response', () => {
  it('has every section filled from the catalog', () => {
    const filters = presentFilters(FOREX, '2026-11-22.1', new Map(), 'employee');
    expect(() => assertNoEmptySection(filters)).not.toThrow();
    expect(Object.keys(filters)).toHaveLength(19);
  });

  it('is an error, never a response, when a section is empty', () => {
    const noRates = presentFilters({}, '2026-11-22.1', new Map(), 'employee');
    expect(() => assertNoEmptySection(noRates)).toThrow('currencyForexMapping is empty in the benchmarking filters response');
    const filters = presentFilters(FOREX, '2026-11-22.1', new Map(), 'employee');
    expect(() => assertNoEmptySection({ ...filters, compTypes: { ...filters.compTypes, equity: [] } })).toThrow(
      'compTypes is empty in the benchmarking filters response',
    );
    expect(() => assertNoEmptySection({ ...filters, grantTimingWithIds: [] })).toThrow('grantTimingWithIds is empty in the benchmarking filters response');
  });

  it('leaves premium equity views out of the marketing variant only', () => {
    const employee = presentFilters(FOREX, 'v', new Map(), 'employee').equityViewOptions;
    const marketing = presentFilters(FOREX, 'v', new Map(), 'marketing').equityViewOptions;
    expect(employee.some((v) => v.isPremium)).toBe(true);
    expect(marketing.every((v) => !v.isPremium)).toBe(true);
  });
});

describe('the executive titles', () => {
  it('each price from a catalog family at an executive level, with unique ids', () => {
    expect(new Set(EXECUTIVE_TITLES.map((t) => t.id)).size).toBe(EXECUTIVE_TITLES.length);
    for (const title of EXECUTIVE_TITLES) {
      expect(findJobFamily(title.jobFamilyId), title.id).toBeDefined();
      expect(findLevel(title.levelId)?.track, title.id).toMatch(/^tr_(vp|c)$/);
    }
  });

  it('make a metadata response with no empty section', () => {
    expect(() => assertNoEmptySection(presentExecutiveMetadata(new Map(), 'employee'), 'executive-comp metadata')).not.toThrow();
  });
});
