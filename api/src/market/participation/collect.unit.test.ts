import { describe, expect, it } from 'vitest';
import { agingFactor, PAY_AGING_RATE } from './collect.js';

describe('pay aged to the build day', () => {
  it('grows 3.5% a year, compounded by the day', () => {
    expect(PAY_AGING_RATE).toBe(0.035);
    // 2021-01-01 to 2025-01-01 is 1,461 days: four years of 365.25 days, 1.035⁴ = 1.1475230.
    expect(agingFactor('2021-01-01', '2025-01-01')).toBeCloseTo(1.147523, 6);
    // Half a year (182 days): 1.035^(182 / 365.25) = 1.0172896.
    expect(agingFactor('2026-05-26', '2026-11-24')).toBeCloseTo(1.0172896, 6);
  });

  it('leaves pay set on the build day, or after it, as it is', () => {
    expect(agingFactor('2026-11-24', '2026-11-24')).toBe(1);
    expect(agingFactor('2026-12-01', '2026-11-24')).toBe(1);
  });
});
