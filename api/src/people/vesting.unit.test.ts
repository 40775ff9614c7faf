import { describe, expect, it } from 'vitest';
import { addMonths, eventMonths, sharesValue, vestingEvents, vestingStatus, type VestingTerms } from './vesting.js';

const standard: VestingTerms = { shares: 48_000, vestingStartDate: '2022-03-15', vestingMonths: 48, cliffMonths: 12, frequency: 'monthly' };

describe('dates of vesting events', () => {
  it('keeps the day of the month, clamped to short months', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2023-01-31', 1)).toBe('2023-02-28');
    expect(addMonths('2023-01-31', 2)).toBe('2023-03-31');
    expect(addMonths('2023-11-15', 3)).toBe('2024-02-15');
    expect(addMonths('2023-05-15', -5)).toBe('2022-12-15');
  });

  it('counts every event from the start, so a clamped month does not shift the ones after it', () => {
    const dates = vestingEvents({ ...standard, vestingStartDate: '2023-01-31', cliffMonths: 0, vestingMonths: 3 }).map((event) => event.date);
    expect(dates).toEqual(['2023-02-28', '2023-03-31', '2023-04-30']);
  });
});

describe('the standard four-year grant with a one-year cliff', () => {
  it('vests nothing before the cliff', () => {
    expect(vestingStatus(standard, '2022-03-15').vestedShares).toBe(0);
    expect(vestingStatus(standard, '2023-03-14')).toMatchObject({ vestedShares: 0, unvestedShares: 48_000, nextVestingDate: '2023-03-15' });
  });

  it('vests 25% at the cliff, then 1/48 a month', () => {
    expect(vestingStatus(standard, '2023-03-15')).toMatchObject({ vestedShares: 12_000, vestedPercent: 25, nextVestingDate: '2023-04-15' });
    expect(vestingStatus(standard, '2023-04-14').vestedShares).toBe(12_000);
    expect(vestingStatus(standard, '2023-04-15').vestedShares).toBe(13_000);
    expect(vestingStatus(standard, '2024-03-15').vestedShares).toBe(24_000);
  });

  it('is fully vested after four years and stays so', () => {
    expect(vestingStatus(standard, '2026-03-14').vestedShares).toBe(47_000);
    expect(vestingStatus(standard, '2026-03-15')).toMatchObject({ vestedShares: 48_000, unvestedShares: 0, vestedPercent: 100, nextVestingDate: null, fullyVestedDate: '2026-03-15' });
    expect(vestingStatus(standard, '2031-01-01').vestedShares).toBe(48_000);
  });

  it('has one cliff event and 36 monthly ones', () => {
    const events = vestingEvents(standard);
    expect(events).toHaveLength(37);
    expect(events[0]).toEqual({ date: '2023-03-15', month: 12, shares: 12_000, cumulativeShares: 12_000 });
    expect(events.at(-1)).toEqual({ date: '2026-03-15', month: 48, shares: 1_000, cumulativeShares: 48_000 });
  });
});

describe('other schedules', () => {
  it('vests quarterly after the cliff', () => {
    const quarterly = { ...standard, frequency: 'quarterly' as const };
    expect(eventMonths(quarterly)).toEqual([12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48]);
    expect(vestingStatus(quarterly, '2023-06-14').vestedShares).toBe(12_000);
    expect(vestingStatus(quarterly, '2023-06-15').vestedShares).toBe(15_000);
  });

  it('vests annually in four equal parts', () => {
    const annual = { ...standard, frequency: 'annually' as const };
    expect(vestingEvents(annual).map((event) => event.cumulativeShares)).toEqual([12_000, 24_000, 36_000, 48_000]);
    expect(vestingStatus(annual, '2025-03-14').vestedShares).toBe(24_000);
  });

  it('vests what accrued by a cliff that is not on a vesting boundary, then goes on at the boundaries', () => {
    expect(eventMonths({ vestingMonths: 48, cliffMonths: 6, frequency: 'annually' })).toEqual([6, 12, 24, 36, 48]);
    const terms = { ...standard, cliffMonths: 6, frequency: 'annually' as const };
    expect(vestingStatus(terms, '2022-09-15').vestedShares).toBe(6_000);
    expect(vestingStatus(terms, '2023-03-15').vestedShares).toBe(12_000);
  });

  it('vests monthly from the first month without a cliff', () => {
    const noCliff = { ...standard, cliffMonths: 0 };
    expect(vestingStatus(noCliff, '2022-04-15').vestedShares).toBe(1_000);
  });

  it('vests at once with no vesting period (common stock)', () => {
    const stock = { ...standard, vestingMonths: 0, cliffMonths: 0 };
    expect(vestingStatus(stock, '2022-03-15')).toMatchObject({ vestedShares: 48_000, fullyVestedDate: '2022-03-15' });
    expect(vestingStatus(stock, '2022-03-14').vestedShares).toBe(0);
  });

  it('rounds down along the way and vests the remainder at the end', () => {
    const odd = { ...standard, shares: 1_001 };
    const events = vestingEvents(odd);
    expect(events[0]?.cumulativeShares).toBe(250); // floor(1001 × 12/48)
    expect(events.reduce((sum, event) => sum + event.shares, 0)).toBe(1_001);
    expect(events.at(-1)?.cumulativeShares).toBe(1_001);
  });

  it('leaves out events that would vest nothing (fewer shares than months)', () => {
    const tiny = { ...standard, shares: 10 };
    const events = vestingEvents(tiny);
    expect(events.every((event) => event.shares > 0)).toBe(true);
    expect(events.at(-1)?.cumulativeShares).toBe(10);
  });
});

describe('termination', () => {
  it('stops vesting on the termination date', () => {
    const status = vestingStatus(standard, '2025-01-01', '2024-01-20');
    expect(status).toMatchObject({ vestedShares: 22_000, unvestedShares: 26_000, nextVestingDate: null, vestingEndedOn: '2024-01-20' });
  });

  it('forfeits everything when leaving before the cliff', () => {
    expect(vestingStatus(standard, '2024-01-01', '2023-03-14')).toMatchObject({ vestedShares: 0, vestingEndedOn: '2023-03-14' });
  });

  it('keeps vesting until a termination date still to come', () => {
    const status = vestingStatus(standard, '2023-05-01', '2023-06-30');
    expect(status).toMatchObject({ vestedShares: 13_000, nextVestingDate: '2023-05-15', vestingEndedOn: null });
    expect(vestingStatus(standard, '2023-06-16', '2023-06-30').nextVestingDate).toBeNull();
  });
});

describe('value of a grant', () => {
  it('is shares × (share price − exercise price) for options', () => {
    // $18.40 − $6.25 = $12.15 a share
    expect(sharesValue(1_000, 12_150_000n, 2)).toBe(1_215_000);
    expect(sharesValue(3_000, 12_150_000n, 2)).toBe(3_645_000);
  });

  it('is shares × share price for RSUs', () => {
    expect(sharesValue(10, 18_400_000n, 2)).toBe(18_400);
  });

  it('is never negative for an underwater option', () => {
    // $18.40 − $20.00
    expect(sharesValue(500, -1_600_000n, 2)).toBe(0);
  });

  it('keeps sub-cent share prices exact and rounds once, half to even', () => {
    // $0.012345 a share × 1,000 shares = $12.345 → 1234 cents (half to even); × 3 = $0.037035 → 4 cents
    expect(sharesValue(1_000, 12_345n, 2)).toBe(1_234);
    expect(sharesValue(3, 12_345n, 2)).toBe(4);
  });

  it('values in currencies without minor units', () => {
    // ¥1,500.5 a share, ¥1,000 strike, 3 shares: ¥1,501.5 → ¥1,502 (half to even)
    expect(sharesValue(3, 500_500_000n, 0)).toBe(1_502);
  });
});

// What the team view counts (it used to have a vesting rule of its own; these are its cases), now the people module's.
const vestedSharesOn = (terms: VestingTerms, date: string): number => vestingStatus(terms, date).vestedShares;

describe('shares vested on a day', () => {
  const grant = { shares: 4800, vestingStartDate: '2024-01-31', vestingMonths: 48, cliffMonths: 12, frequency: 'monthly' as const };

  it('counts whole months, ending a month on its last day when the start day does not exist in it', () => {
    const monthly = (vestingStartDate: string): VestingTerms => ({ shares: 48, vestingStartDate, vestingMonths: 48, cliffMonths: 0, frequency: 'monthly' });
    expect(vestedSharesOn(monthly('2024-01-31'), '2024-02-28')).toBe(0);
    expect(vestedSharesOn(monthly('2024-01-31'), '2024-02-29')).toBe(1);
    expect(vestedSharesOn(monthly('2024-01-15'), '2025-01-14')).toBe(11);
    expect(vestedSharesOn(monthly('2024-01-15'), '2025-01-15')).toBe(12);
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2024-11-30', 3)).toBe('2025-02-28');
  });

  it('vests nothing before the cliff, a quarter at it, then a tranche a month, and all at the end', () => {
    expect(vestedSharesOn(grant, '2024-01-30')).toBe(0);
    expect(vestedSharesOn(grant, '2025-01-30')).toBe(0);
    expect(vestedSharesOn(grant, '2025-01-31')).toBe(1200);
    expect(vestedSharesOn(grant, '2025-02-28')).toBe(1300);
    expect(vestedSharesOn(grant, '2028-01-30')).toBe(4700);
    expect(vestedSharesOn(grant, '2028-01-31')).toBe(4800);
    expect(vestedSharesOn(grant, '2040-01-01')).toBe(4800);
  });

  it('vests quarterly and annually at period ends, rounding shares down until the last tranche', () => {
    const quarterly = { ...grant, shares: 1000, vestingStartDate: '2024-01-01', frequency: 'quarterly' as const };
    expect(vestedSharesOn(quarterly, '2025-03-31')).toBe(250);
    expect(vestedSharesOn(quarterly, '2025-04-01')).toBe(312);
    expect(vestedSharesOn(quarterly, '2028-01-01')).toBe(1000);
    const annually = { ...quarterly, cliffMonths: 0, frequency: 'annually' as const };
    expect(vestedSharesOn(annually, '2024-12-31')).toBe(0);
    expect(vestedSharesOn(annually, '2025-01-01')).toBe(250);
    const immediate = { ...grant, vestingMonths: 0, cliffMonths: 0 };
    expect(vestedSharesOn(immediate, '2024-01-31')).toBe(4800);
  });
});
