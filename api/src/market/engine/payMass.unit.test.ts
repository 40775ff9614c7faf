import { describe, expect, it } from 'vitest';
import { DOMINANCE_PLANTS } from './attacks/index.js';
import { EVERYWHERE, FOREX, marketOf, request, type RecordSpec } from './handMarket.js';
import { DEFAULT_PRIVACY_RULE, NO_PAY_MASS_CHECKS, payMassReason, type PrivacyRule } from './privacy.js';
import { queryRelease, type QueryOptions } from './query.js';
import { buildRelease } from './release.js';

/**
 * Dominance and the p% rule (privacy.ts, payMass.ts): a cell whose head counts pass is still withheld
 * when one or two companies hold most of its pay, or when what lies outside its four largest
 * companies is too little to hide the largest's pay. Positive controls: the same cells with the
 * checks switched off are published, and their p90 is the dominant company's pay.
 */
const AUSTIN = request({ marketFilters: [{ ...EVERYWHERE, locations: ['us_austin'] }] });
const cellOf = (records: RecordSpec[], companies: number, options: QueryOptions) =>
  queryRelease(buildRelease(marketOf(Array.from({ length: companies }, () => ({})), records), { id: 'pay-mass' }), AUSTIN, { forex: FOREX, ...options }).cells[0]!;
const p90 = (cell: ReturnType<typeof cellOf>) => cell.percentiles?.find((p) => p.percentile === 90)?.value ?? null;
const OFF: PrivacyRule = { ...DEFAULT_PRIVACY_RULE, ...NO_PAY_MASS_CHECKS };

describe('dominance and the p% rule', () => {
  it('judge the pay mass: the largest company above half, the two largest above three quarters, too little outside the four largest', () => {
    const rule = DEFAULT_PRIVACY_RULE;
    expect(payMassReason(rule, { total: 100, largest: [50, 20, 10, 5] })).toBeNull();
    expect(payMassReason(rule, { total: 100, largest: [51, 10, 10, 5] })).toBe('dominance');
    expect(payMassReason(rule, { total: 100, largest: [40, 36, 10, 5] })).toBe('dominance');
    // Outside the four largest: 100 − 88 = 12, at least 15% of the largest's 40 (6), passes; 100 − 96 = 4 does not.
    expect(payMassReason(rule, { total: 100, largest: [40, 30, 10, 8] })).toBeNull();
    expect(payMassReason(rule, { total: 100, largest: [40, 30, 16, 10] })).toBe('p_percent');
    expect(payMassReason(OFF, { total: 100, largest: [90, 5, 2, 2] })).toBeNull();
  });

  for (const plant of DOMINANCE_PLANTS) {
    it(`withholds the cell where ${plant.name}, which the head counts alone publish with the company's pay at p90`, () => {
      for (const readPath of ['auto', 'sorted', 'matched'] as const) {
        // Positive control: no pay-mass checks, exact figures: p90 is the dominant company's pay.
        const control = cellOf(plant.records, plant.companies, { privacy: OFF, disclosure: false, readPath });
        expect(control.status).toBe('published');
        expect(Math.abs(p90(control)! - plant.target) / plant.target).toBeLessThan(0.05);
        // The head counts pass with the moves on too: only the pay mass withholds it.
        expect(cellOf(plant.records, plant.companies, { privacy: OFF, readPath }).status).toBe('published');
        const guarded = cellOf(plant.records, plant.companies, { readPath });
        expect(guarded.status).toBe('insufficient_data');
        expect(guarded.percentiles).toBeNull();
        expect(guarded.sample.employees).toBeNull();
      }
    });
  }

  it('publishes a cell of evenly paid companies, and judges the same with the shortcut bound or a full pass', () => {
    const even: RecordSpec[] = Array.from({ length: 20 }, (_, i) => ({ company: i % 5, base: 100_000 + 3_000 * i, location: 'us_austin' }));
    expect(cellOf(even, 5, {}).status).toBe('published');
    // A low earner outside the four largest: near the line, where the bound cannot decide and the full pass does.
    const thin: RecordSpec[] = [...Array.from({ length: 16 }, (_, i) => ({ company: i % 4, base: 100_000 + 2_000 * i, location: 'us_austin' })), { company: 4, base: 40_000, location: 'us_austin' }, { company: 4, base: 41_000, location: 'us_austin' }];
    // 81,000 outside the four largest against 15% of the largest's 472,000 (70,800): it passes; 20,000 less each (41,000) does not.
    expect(cellOf(thin, 5, { disclosure: false }).status).toBe('published');
    const thinner = thin.map((r) => (r.company === 4 ? { ...r, base: r.base - 20_000 } : r));
    expect(cellOf(thinner, 5, { disclosure: false }).status).toBe('insufficient_data');
    expect(cellOf(thinner, 5, { disclosure: false, privacy: OFF }).status).toBe('published');
  });
});
