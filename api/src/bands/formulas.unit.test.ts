import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agedAmount,
  applyDifferential,
  blend,
  compaRatio,
  deltaFrom,
  fittedProgression,
  monthsBetween,
  positionIn,
  progressionOf,
  rangePenetration,
  roundFigures,
  roundTo,
  smoothLadder,
  spreadOf,
  widthAround,
  zoneBenchmark,
} from './formulas.js';

describe('band formulas, on numbers worked by hand', () => {
  it('applies a zone differential in basis points to the anchor mid', () => {
    // 120,000 × (1 − 0.15) = 102,000; 120,000 × (1 + 0.075) = 129,000.
    expect(applyDifferential(120_000, -1500)).toBeCloseTo(102_000, 6);
    expect(applyDifferential(120_000, 750)).toBeCloseTo(129_000, 6);
    expect(applyDifferential(120_000, 0)).toBe(120_000);
  });

  it('widens ± a percentage around the mid', () => {
    // ±20% of 100,000: 80,000 … 120,000.
    const band = widthAround(100_000, { kind: 'plusMinus', percent: 20 });
    expect(band.min).toBeCloseTo(80_000, 6);
    expect(band.mid).toBe(100_000);
    expect(band.max).toBeCloseTo(120_000, 6);
  });

  it('widens to a spread (max − min) ÷ min with the mid in the middle', () => {
    // Spread 50%: min = 2 × 100,000 ÷ 2.5 = 80,000; max = 80,000 × 1.5 = 120,000 — the same band as ±20%.
    const fifty = widthAround(100_000, { kind: 'spread', percent: 50 });
    expect(fifty.min).toBeCloseTo(80_000, 6);
    expect(fifty.max).toBeCloseTo(120_000, 6);
    // Spread 25% of a 90,000 mid: min = 180,000 ÷ 2.25 = 80,000; max = 80,000 × 1.25 = 100,000; (100,000 − 80,000) ÷ 80,000 = 0.25.
    const quarter = widthAround(90_000, { kind: 'spread', percent: 25 });
    expect(quarter.min).toBeCloseTo(80_000, 6);
    expect(quarter.max).toBeCloseTo(100_000, 6);
    expect((quarter.min + quarter.max) / 2).toBeCloseTo(90_000, 6);
  });

  it('rounds to the nearest 100, 500 or 1,000', () => {
    expect(roundTo(123_449, 100)).toBe(123_400);
    expect(roundTo(123_450, 100)).toBe(123_500);
    expect(roundTo(123_249, 500)).toBe(123_000);
    expect(roundTo(123_250, 500)).toBe(123_500);
    expect(roundTo(123_499, 1000)).toBe(123_000);
    expect(roundTo(123_500, 1000)).toBe(124_000);
    // 0.85 × 141,176 = 119,999.6 → ±20%: 95,999.68 / 119,999.6 / 143,999.52 → 96,000 / 120,000 / 144,000.
    expect(roundFigures(widthAround(applyDifferential(141_176, -1500), { kind: 'plusMinus', percent: 20 }), 1000)).toEqual({ min: 96_000, mid: 120_000, max: 144_000 });
  });

  it('computes compa-ratio, range penetration, position, spread and progression', () => {
    // Band 80,000 / 100,000 / 120,000.
    expect(compaRatio(90_000, 100_000)).toBe(0.9);
    expect(rangePenetration(90_000, 80_000, 120_000)).toBe(0.25); // 10,000 ÷ 40,000
    expect(positionIn(90_000, 80_000, 120_000)).toBe('inside');
    expect(compaRatio(130_000, 100_000)).toBe(1.3);
    expect(rangePenetration(130_000, 80_000, 120_000)).toBe(1.25); // 50,000 ÷ 40,000
    expect(positionIn(130_000, 80_000, 120_000)).toBe('above');
    expect(rangePenetration(70_000, 80_000, 120_000)).toBe(-0.25); // −10,000 ÷ 40,000
    expect(positionIn(70_000, 80_000, 120_000)).toBe('below');
    expect(positionIn(120_000, 80_000, 120_000)).toBe('inside');
    expect(rangePenetration(100_000, 100_000, 100_000)).toBeNull();
    expect(spreadOf(80_000, 120_000)).toBe(0.5); // 40,000 ÷ 80,000
    expect(progressionOf(100_000, 112_000)).toBe(0.12);
  });
});

describe('autosmoothing', () => {
  it('fits mids to the progression around their geometric mean', () => {
    // Mids 100,000 / 100,000 / 130,000 at ranks 1, 2, 3; geometric mean (10^15 × 1.3)^(1/3) = 109,139.3 sits at the
    // mean rank 2, so P1 = 109,139.3 ÷ 1.1 = 99,217.5 → 99,000, P2 → 109,000, P3 = 109,139.3 × 1.1 = 120,053.2 → 120,000.
    // Min and max keep their ratio to the mid (0.8 and 1.2): 79,200 / 118,800 → 79,000 / 119,000, and so on.
    const out = smoothLadder(
      [
        { id: 'p1', rank: 1, min: 80_000, mid: 100_000, max: 120_000 },
        { id: 'p2', rank: 2, min: 80_000, mid: 100_000, max: 120_000 },
        { id: 'p3', rank: 3, min: 104_000, mid: 130_000, max: 156_000 },
      ],
      10,
      1000,
    );
    expect(out.get('p1')).toEqual({ min: 79_000, mid: 99_000, max: 119_000 });
    expect(out.get('p2')).toEqual({ min: 87_000, mid: 109_000, max: 131_000 });
    expect(out.get('p3')).toEqual({ min: 96_000, mid: 120_000, max: 144_000 });
  });

  it('skips missing levels by rank: P2 and P4 are two steps apart', () => {
    // Mids 100,000 (rank 2) and 121,000 (rank 4): geometric mean 110,000 at rank 3 → 100,000 and 121,000 exactly (10% twice).
    const out = smoothLadder(
      [
        { id: 'p2', rank: 2, min: 100_000, mid: 100_000, max: 100_000 },
        { id: 'p4', rank: 4, min: 121_000, mid: 121_000, max: 121_000 },
      ],
      10,
      1000,
    );
    expect(out.get('p2')?.mid).toBe(100_000);
    expect(out.get('p4')?.mid).toBe(121_000);
  });

  it('changes nothing when it smooths what it just smoothed (rounding moved the mean, not the curve)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 40_000, max: 400_000 }), { minLength: 2, maxLength: 7 }),
        fc.integer({ min: 2, max: 20 }),
        fc.constantFrom(100, 1000),
        (mids, progression, unit) => {
          const ladder = mids.map((mid, at) => ({ id: at, rank: at + 1, min: Math.round(mid * 0.8), mid, max: Math.round(mid * 1.2) }));
          const once = smoothLadder(ladder, progression, unit);
          const smoothed = ladder.map((band) => ({ ...band, ...once.get(band.id) }));
          const twice = smoothLadder(smoothed, progression, unit);
          expect(smoothed.map((band) => twice.get(band.id))).toEqual(smoothed.map(({ min, mid, max }) => ({ min, mid, max })));
        },
      ),
    );
  });

  it('never leaves an inversion or a flat step, whatever it is given', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let trial = 0; trial < 500; trial += 1) {
      const ranks = [1, 2, 3, 4, 5, 6].filter(() => random() < 0.7);
      if (ranks.length < 2) continue;
      const bands = ranks.map((rank) => {
        const mid = Math.round(20_000 + random() * 300_000);
        return { id: `r${rank}`, rank, min: Math.round(mid * (0.5 + random() * 0.5)), mid, max: Math.round(mid * (1 + random())) };
      });
      const progression = 1 + random() * 20;
      const unit = [100, 500, 1000][trial % 3] ?? 1000;
      const out = smoothLadder(bands, progression, unit);
      const mids = ranks.map((rank) => out.get(`r${rank}`)?.mid ?? NaN);
      for (let i = 1; i < mids.length; i += 1) expect(mids[i]).toBeGreaterThan(mids[i - 1] ?? Infinity);
      for (const band of out.values()) {
        expect(band.min).toBeLessThanOrEqual(band.mid);
        expect(band.mid).toBeLessThanOrEqual(band.max);
        expect(band.mid % unit).toBe(0);
      }
    }
  });

  it('fits a ladder its own progression: least squares of ln(mid) on the rank', () => {
    // Ranks 2–5, mids 100,000 / 120,000 / 130,000 / 150,000: ln mids 11.5129 / 11.6952 / 11.7753 / 11.9184 around their
    // mean 11.7255, ranks −1.5 / −0.5 / 0.5 / 1.5 around 3.5; slope = Σ(dr × dln) ÷ Σ dr² = 0.6482 ÷ 5 = 0.12965;
    // e^0.12965 − 1 = 13.84%.
    const ladder = [100_000, 120_000, 130_000, 150_000].map((mid, i) => ({ id: `p${i + 2}`, rank: i + 2, min: mid, mid, max: mid }));
    expect(fittedProgression(ladder)).toBeCloseTo(13.84, 2);
    // Mids stepping exactly 10% fit 10%; skipped levels count by rank (P2 100,000 and P4 121,000).
    expect(fittedProgression([{ id: 'a', rank: 2, min: 0, mid: 100_000, max: 0 }, { id: 'b', rank: 4, min: 0, mid: 121_000, max: 0 }])).toBeCloseTo(10, 10);
    // Falling mids fit a negative progression: 120,000 → 110,000 is 110 ÷ 120 − 1 = −8.33%.
    expect(fittedProgression([{ id: 'a', rank: 1, min: 0, mid: 120_000, max: 0 }, { id: 'b', rank: 2, min: 0, mid: 110_000, max: 0 }])).toBeCloseTo(-8.333, 3);
    // One level, or one level and an unpriced one, sets no slope.
    expect(fittedProgression([{ id: 'a', rank: 3, min: 0, mid: 100_000, max: 0 }, { id: 'b', rank: 4, min: 0, mid: 0, max: 0 }])).toBeNull();
  });

  it('counts months between dates: whole calendar months, then the days left as a fraction of the next month', () => {
    expect(monthsBetween('2025-01-01', '2026-01-01')).toBe(12);
    expect(monthsBetween('2025-01-01', '2025-07-01')).toBe(6);
    expect(monthsBetween('2026-01-01', '2025-07-01')).toBe(-6);
    // 2026-01-01 → 2026-01-16: 15 of January's 31 days.
    expect(monthsBetween('2025-01-01', '2026-01-16')).toBeCloseTo(12 + 15 / 31, 10);
    // Jan 31 + 1 month is Feb 28 (clamped), so Jan 31 → Mar 31 is 2 months.
    expect(monthsBetween('2025-01-31', '2025-02-28')).toBe(1);
    expect(monthsBetween('2025-01-31', '2025-03-31')).toBe(2);
    expect(monthsBetween('2024-05-12', '2024-05-12')).toBe(0);
  });

  it('ages a figure at an annual rate: value × (1 + r)^(months ÷ 12), to the minor unit', () => {
    // 100,000.00 a year on at 3% → 103,000.00; half a year → 101,488.92 (1.03^0.5 = 1.0148891…); no rate → unchanged.
    expect(agedAmount(10_000_000, 300, 12)).toBe(10_300_000);
    expect(agedAmount(10_000_000, 300, 6)).toBe(10_148_892);
    expect(agedAmount(10_000_000, 0, 40)).toBe(10_000_000);
    // Backwards a year: 103,000.00 ÷ 1.03 = 100,000.00.
    expect(agedAmount(10_300_000, 300, -12)).toBe(10_000_000);
  });

  it('blends by weight, rounding the cent half up, and applies a zone differential', () => {
    // (2 × 103,000 + 90,000) ÷ 3 = 98,666.666… → 98,666.67.
    expect(blend([{ amount: 10_300_000, weight: 2 }, { amount: 9_000_000, weight: 1 }])).toBe(9_866_667);
    // A half cent goes up: (1 + 2) ÷ 2 = 1.5 → 2.
    expect(blend([{ amount: 1, weight: 1 }, { amount: 2, weight: 1 }])).toBe(2);
    expect(blend([])).toBeNull();
    // 98,666.67 × 1.05 = 103,600.0035 → 103,600.00; × 0.9 = 88,800.003 → 88,800.00.
    expect(zoneBenchmark(9_866_667, 500)).toBe(10_360_000);
    expect(zoneBenchmark(9_866_667, -1000)).toBe(8_880_000);
    // The band's mid against it: 98,700 ÷ 98,666.67 − 1 = 0.000338 → 0.0003.
    expect(deltaFrom(9_870_000, 9_866_667)).toBe(0.0003);
    expect(deltaFrom(9_870_000, null)).toBeNull();
  });
});
