import { describe, expect, it } from 'vitest';
import { applyDifferential, compaRatio, positionIn, progressionOf, rangePenetration, roundFigures, roundTo, smoothLadder, spreadOf, widthAround } from './formulas.js';

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
});
