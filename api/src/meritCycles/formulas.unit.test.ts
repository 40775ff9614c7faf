import { describe, expect, it } from 'vitest';
import { addMonths, basisPointsOf, columnOf, convertWith, daysInclusive, evaluateEligibility, guidelineFor, median, percentOf, prorationFactor, prorationOf } from './formulas.js';
import type { EligibilityFacts, RecommendationLogic } from './formulas.js';

const facts = (overrides: Partial<EligibilityFacts> = {}): EligibilityFacts => ({
  startDate: '2021-03-01',
  lastPayChange: '2024-01-01',
  employmentType: 'full_time',
  countryCode: 'US',
  department: 'Engineering',
  rating: 'meets',
  rawRating: 'meets',
  ...overrides,
});

describe('merit-cycle formulas (worked by hand)', () => {
  it('prorates by days employed in the period, both ends counted', () => {
    expect(daysInclusive('2025-01-01', '2025-12-31')).toBe(365);
    expect(daysInclusive('2024-01-01', '2024-12-31')).toBe(366);
    // Hired 1 July: July–December is 31+31+30+31+30+31 = 184 days.
    expect(prorationOf('2025-07-01', '2025-01-01', '2025-12-31')).toEqual({ daysEmployed: 184, daysInPeriod: 365 });
    expect(prorationFactor({ daysEmployed: 184, daysInPeriod: 365 })).toBe(0.5041);
    expect(prorationOf('2019-05-01', '2025-01-01', '2025-12-31')).toEqual({ daysEmployed: 365, daysInPeriod: 365 });
    expect(prorationOf(null, '2025-01-01', '2025-12-31')).toEqual({ daysEmployed: 365, daysInPeriod: 365 });
    expect(prorationOf('2025-12-31', '2025-01-01', '2025-12-31')).toEqual({ daysEmployed: 1, daysInPeriod: 365 });
    expect(prorationOf('2026-01-05', '2025-01-01', '2025-12-31')).toEqual({ daysEmployed: 0, daysInPeriod: 365 });
  });

  it('takes percentages of amounts exactly and rounds once, half to even', () => {
    // $90,000.00 × 3.5% × 184 / 365 = 158,794.52… cents → 158,795.
    expect(percentOf(9_000_000, 350, { daysEmployed: 184, daysInPeriod: 365 })).toBe(158_795);
    expect(percentOf(10_000_000, 400)).toBe(400_000);
    // 1,250 × 2% = 25 exactly; 1,225 × 2% = 24.5 → 24 (even); 1,275 × 2% = 25.5 → 26 (even).
    expect(percentOf(1_225, 200)).toBe(24);
    expect(percentOf(1_275, 200)).toBe(26);
    expect(basisPointsOf(300_000, 10_000_000)).toBe(300);
    expect(basisPointsOf(280_000, 8_000_000)).toBe(350);
    expect(basisPointsOf(5, 0)).toBe(0);
  });

  it('converts with a stored exact rate: GBP → USD at 1.1252 / 0.8477', () => {
    // 1 GBP = 1.1252 / 0.8477 USD = 11252 / 8477. £80,000.00 → 8,000,000 × 11252 / 8477 = 10,618,851.008… → $106,188.51.
    expect(convertWith(8_000_000, { n: '11252', d: '8477', digits: 2 }, 2)).toBe(10_618_851);
    // Into a currency without minor units: 1 USD = 163.36 / 1.1252 = 1,633,600 / 11,252 JPY; $100.00 → ¥14,518.3… → ¥14,518.
    expect(convertWith(10_000, { n: '1633600', d: '11252', digits: 2 }, 0)).toBe(14_518);
  });

  it('looks a merit matrix up by rating × compa-ratio column, with the fallback outside it', () => {
    const thresholds = [0.9, 1.0, 1.1];
    expect([0.85, 0.9, 0.99, 1.0, 1.0999, 1.1, 1.4].map((value) => columnOf(value, thresholds))).toEqual([1, 2, 2, 3, 3, 4, 4]);
    expect(columnOf(null, thresholds)).toBeNull();
    const logic: RecommendationLogic = {
      kind: 'matrix',
      matrix: { axis: 'compaRatio', thresholds, cells: [{ rating: 'exceeds', column: 3, minBp: 200, targetBp: 400, maxBp: 600 }] },
      fallback: { minBp: 0, targetBp: 200, maxBp: 400 },
      guidelines: { mode: 'advisory', commentRequired: false },
    };
    expect(guidelineFor(logic, 'exceeds', 3)).toEqual({ minBp: 200, targetBp: 400, maxBp: 600 });
    expect(guidelineFor(logic, 'exceeds', 2)).toEqual({ minBp: 0, targetBp: 200, maxBp: 400 });
    expect(guidelineFor(logic, null, 3)).toEqual({ minBp: 0, targetBp: 200, maxBp: 400 });
    expect(guidelineFor({ ...logic, fallback: null }, 'meets', 1)).toBeNull();
    expect(guidelineFor({ kind: 'flat', flat: { minBp: 0, targetBp: 300, maxBp: 600 }, guidelines: logic.guidelines }, null, null)).toEqual({ minBp: 0, targetBp: 300, maxBp: 600 });
  });

  it('evaluates eligibility rules with all / any and says why not', () => {
    const rules = {
      kind: 'all' as const,
      rules: [
        { kind: 'employmentType' as const, values: ['full_time'] },
        { kind: 'any' as const, rules: [{ kind: 'hiredBefore' as const, date: '2025-10-01' }, { kind: 'ratingPresent' as const }] },
        { kind: 'monthsSinceLastPayChange' as const, months: 6 },
      ],
    };
    expect(evaluateEligibility(rules, facts(), '2026-01-01')).toEqual({ pass: true, reasons: [] });
    expect(evaluateEligibility(rules, facts({ employmentType: 'contractor' }), '2026-01-01').reasons).toEqual(['Employment type contractor is not one of: full_time']);
    // Either branch of the `any` passes.
    expect(evaluateEligibility(rules, facts({ startDate: '2025-11-01' }), '2026-01-01').pass).toBe(true);
    expect(evaluateEligibility(rules, facts({ startDate: '2025-11-01', rating: null, rawRating: 'great' }), '2026-01-01').reasons).toEqual([
      'Hired on 2025-11-01, not before 2025-10-01',
      'Rating “great” is not on the cycle\'s performance scale',
    ]);
    // Six months before 2026-01-01 is 2025-07-01: a change on that day passes, one a day later does not.
    expect(evaluateEligibility(rules, facts({ lastPayChange: '2025-07-01' }), '2026-01-01').pass).toBe(true);
    expect(evaluateEligibility(rules, facts({ lastPayChange: '2025-07-02' }), '2026-01-01').reasons).toEqual(['Base pay last changed on 2025-07-02, less than 6 months before 2026-01-01']);
    expect(evaluateEligibility({ kind: 'country', values: ['GB'] }, facts(), '2026-01-01').reasons).toEqual(['Country US is not one of: GB']);
    expect(evaluateEligibility({ kind: 'department', values: ['Sales'] }, facts({ department: null }), '2026-01-01').reasons).toEqual(['Department (none) is not one of: Sales']);
  });

  it('adds months clamped to the month end, and takes a lower median', () => {
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-01-15', -13)).toBe('2024-12-15');
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(median([])).toBeNull();
  });
});
