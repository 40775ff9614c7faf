import { describe, expect, it } from 'vitest';
import { addMonths, basisPointsOf, columnOf, convertWith, daysInclusive, evaluateEligibility, factorAdjustment, guidelineFor, median, percentOf, prorationFactor, prorationOf, variablesGuideline, wholeMonthsBetween } from './formulas.js';
import type { RecommendationVariables } from './formulas.js';
import type { EligibilityFacts, RecommendationLogic } from './formulas.js';

const facts = (overrides: Partial<EligibilityFacts> = {}): EligibilityFacts => ({
  startDate: '2021-03-01',
  lastPayChange: '2024-01-01',
  employmentType: 'full_time',
  countryCode: 'US',
  department: 'Engineering',
  rating: 'meets',
  rawRating: 'meets',
  leaveStart: null,
  leaveEnd: null,
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

describe('the on-leave rule', () => {
  const notOnLeave = { kind: 'onLeave', onLeave: false } as const;
  it('reads the leave on the effective date, or on the rule’s own date', () => {
    // A leave from 2025-11-01 to 2026-02-28 covers the effective date 2026-01-01 …
    const away = facts({ leaveStart: '2025-11-01', leaveEnd: '2026-02-28' });
    expect(evaluateEligibility(notOnLeave, away, '2026-01-01')).toEqual({ pass: false, reasons: ['On leave on 2026-01-01 (from 2025-11-01 to 2026-02-28)'] });
    expect(evaluateEligibility({ kind: 'onLeave', onLeave: true }, away, '2026-01-01')).toEqual({ pass: true, reasons: [] });
    // … but not a cutoff of 2026-03-01, the day after it ends.
    expect(evaluateEligibility({ ...notOnLeave, date: '2026-03-01' }, away, '2026-01-01').pass).toBe(true);
    // Its last day still counts; an open leave runs on.
    expect(evaluateEligibility({ ...notOnLeave, date: '2026-02-28' }, away, '2026-01-01').pass).toBe(false);
    expect(evaluateEligibility(notOnLeave, facts({ leaveStart: '2024-06-01' }), '2026-01-01').reasons).toEqual(['On leave on 2026-01-01 (from 2024-06-01)']);
    expect(evaluateEligibility({ kind: 'onLeave', onLeave: true }, facts(), '2026-01-01').reasons).toEqual(['Not on leave on 2026-01-01']);
  });
});

describe('several variables', () => {
  const logic: RecommendationVariables = {
    baseBp: 0,
    factors: [
      { variable: 'rating', weightPercent: 100, ratings: [{ rating: 'meets', adjustmentBp: 100 }, { rating: 'exceeds', adjustmentBp: 200 }] },
      { variable: 'rangePenetration', weightPercent: 100, steps: [{ to: 0.25, adjustmentBp: 150 }, { from: 0.75, adjustmentBp: -50 }] },
      { variable: 'monthsSinceLastIncrease', weightPercent: 100, steps: [{ from: 25, adjustmentBp: 50 }] },
    ],
    capMaxBp: 500,
    belowTargetBp: 100,
    aboveTargetBp: 150,
  };
  it('counts whole months, month ends clamped', () => {
    expect(wholeMonthsBetween('2023-06-01', '2026-01-01')).toBe(31);
    expect(wholeMonthsBetween('2023-12-02', '2025-12-01')).toBe(23); // one day short of 24
    expect(wholeMonthsBetween('2024-01-31', '2024-02-29')).toBe(1);
    expect(wholeMonthsBetween('2026-02-01', '2026-01-01')).toBe(0);
  });
  it('sums the adjustments: rating 4 of 5, penetration under 25%, over 24 months since the increase → 4.0%', () => {
    // exceeds +2% + penetration 0.2 (< 0.25) +1.5% + 31 months (≥ 25) +0.5% = 4.0%; min 3.0%, max 5.5%.
    expect(variablesGuideline(logic, { rating: 'exceeds', compaRatio: 0.85, rangePenetration: 0.2, monthsSinceLastIncrease: 31 })).toEqual({ minBp: 300, targetBp: 400, maxBp: 550 });
    // meets +1%, penetration 0.8 −0.5%, 12 months nothing: 0.5%; min 0 (not below), max 2.0%.
    expect(variablesGuideline(logic, { rating: 'meets', compaRatio: 1.2, rangePenetration: 0.8, monthsSinceLastIncrease: 12 })).toEqual({ minBp: 0, targetBp: 50, maxBp: 200 });
    // No rating and no band: only the months count.
    expect(variablesGuideline(logic, { rating: null, compaRatio: null, rangePenetration: null, monthsSinceLastIncrease: 40 })).toEqual({ minBp: 0, targetBp: 50, maxBp: 200 });
  });
  it('caps the target and weights each factor, rounding half to even', () => {
    const generous = { ...logic, baseBp: 300 };
    // 300 + 200 + 150 + 50 = 700, capped at 500.
    expect(variablesGuideline(generous, { rating: 'exceeds', compaRatio: null, rangePenetration: 0.1, monthsSinceLastIncrease: 30 }).targetBp).toBe(500);
    // 150 × 25% = 37.5 → 38 (to even); 50 × 25% = 12.5 → 12 (to even).
    expect(factorAdjustment({ variable: 'compaRatio', weightPercent: 25, steps: [{ to: 0.9, adjustmentBp: 150 }] }, { rating: null, compaRatio: 0.85, rangePenetration: null, monthsSinceLastIncrease: null })).toBe(38);
    expect(factorAdjustment({ variable: 'compaRatio', weightPercent: 25, steps: [{ to: 0.9, adjustmentBp: 50 }] }, { rating: null, compaRatio: 0.85, rangePenetration: null, monthsSinceLastIncrease: null })).toBe(12);
    expect(guidelineFor({ kind: 'variables', variables: logic, guidelines: { mode: 'advisory', commentRequired: false } }, 'exceeds', null, { rating: 'exceeds', compaRatio: null, rangePenetration: 0.2, monthsSinceLastIncrease: 31 })).toEqual({ minBp: 300, targetBp: 400, maxBp: 550 });
  });
});
