import { describe, expect, it } from 'vitest';
import { addMonths, endOfMonth, monthsBetween, monthsElapsed, vestedShares } from './vesting.js';

const grant = { shares: 4800, vestingStartDate: '2024-01-31', vestingMonths: 48, cliffMonths: 12, frequency: 'monthly' as const };

describe('vesting', () => {
  it('counts whole months, ending a month on its last day when the start day does not exist in it', () => {
    expect(monthsElapsed('2024-01-31', '2024-02-28')).toBe(0);
    expect(monthsElapsed('2024-01-31', '2024-02-29')).toBe(1);
    expect(monthsElapsed('2024-01-15', '2025-01-14')).toBe(11);
    expect(monthsElapsed('2024-01-15', '2025-01-15')).toBe(12);
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2024-11-30', 3)).toBe('2025-02-28');
  });

  it('vests nothing before the cliff, a quarter at it, then a tranche a month, and all at the end', () => {
    expect(vestedShares(grant, '2024-01-30')).toBe(0);
    expect(vestedShares(grant, '2025-01-30')).toBe(0);
    expect(vestedShares(grant, '2025-01-31')).toBe(1200);
    expect(vestedShares(grant, '2025-02-28')).toBe(1300);
    expect(vestedShares(grant, '2028-01-30')).toBe(4700);
    expect(vestedShares(grant, '2028-01-31')).toBe(4800);
    expect(vestedShares(grant, '2040-01-01')).toBe(4800);
  });

  it('vests quarterly and annually at period ends, rounding shares down until the last tranche', () => {
    const quarterly = { ...grant, shares: 1000, vestingStartDate: '2024-01-01', frequency: 'quarterly' as const };
    expect(vestedShares(quarterly, '2025-03-31')).toBe(250);
    expect(vestedShares(quarterly, '2025-04-01')).toBe(312);
    expect(vestedShares(quarterly, '2028-01-01')).toBe(1000);
    const annually = { ...quarterly, cliffMonths: 0, frequency: 'annually' as const };
    expect(vestedShares(annually, '2024-12-31')).toBe(0);
    expect(vestedShares(annually, '2025-01-01')).toBe(250);
    const immediate = { ...grant, vestingMonths: 0, cliffMonths: 0 };
    expect(vestedShares(immediate, '2024-01-31')).toBe(4800);
  });

  it('lists months and their last days', () => {
    expect(monthsBetween('2024-11', '2025-02')).toEqual(['2024-11', '2024-12', '2025-01', '2025-02']);
    expect(endOfMonth('2024-02')).toBe('2024-02-29');
  });
});
