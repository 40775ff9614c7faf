import { describe, expect, it } from 'vitest';
import { percentileInc, percentileIncOfRuns } from './percentile.js';

const at = (values: number[], percent: number): number => percentileInc(Float64Array.from(values), values.length, percent);

describe('percentileInc (Excel PERCENTILE.INC)', () => {
  it('matches hand-computed values on five records', () => {
    // Rank = (n - 1) × p; e.g. p40 → 1.6 → 20 + 0.6 × (35 - 20) = 29.
    const values = [15, 20, 35, 40, 50];
    expect(at(values, 10)).toBeCloseTo(17, 12);
    expect(at(values, 25)).toBe(20);
    expect(at(values, 40)).toBeCloseTo(29, 12);
    expect(at(values, 50)).toBe(35);
    expect(at(values, 60)).toBeCloseTo(37, 12);
    expect(at(values, 75)).toBe(40);
    expect(at(values, 90)).toBeCloseTo(46, 12);
  });

  it('interpolates between the two middle records of an even count', () => {
    const values = [1, 2, 3, 4];
    expect(at(values, 10)).toBeCloseTo(1.3, 12);
    expect(at(values, 25)).toBeCloseTo(1.75, 12);
    expect(at(values, 50)).toBe(2.5);
    expect(at(values, 75)).toBeCloseTo(3.25, 12);
    expect(at(values, 90)).toBeCloseTo(3.7, 12);
  });

  it('lands exactly on a record when the rank is whole', () => {
    const values = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    for (const percent of [10, 25, 40, 50, 60, 75, 90]) expect(at(values, percent)).toBe(percent);
  });

  it('returns the only value of a single record, and the ends at 0 and 100', () => {
    expect(at([42_000], 10)).toBe(42_000);
    expect(at([42_000], 90)).toBe(42_000);
    expect(at([3, 5, 9], 0)).toBe(3);
    expect(at([3, 5, 9], 100)).toBe(9);
  });

  it('matches the textbook formula on salaries', () => {
    const values = [61_000, 72_500, 80_250, 88_000, 95_400, 101_000, 118_750, 131_000, 150_500];
    // Excel: PERCENTILE.INC(values, 0.4) = rank 3.2 → 88,000 + 0.2 × 7,400 = 89,480.
    expect(at(values, 40)).toBeCloseTo(89_480, 9);
    // p90: rank 7.2 → 131,000 + 0.2 × 19,500 = 134,900.
    expect(at(values, 90)).toBeCloseTo(134_900, 9);
  });

  it('refuses an empty sample and a percent outside 0–100', () => {
    expect(() => at([], 50)).toThrow();
    expect(() => at([1, 2], 101)).toThrow();
  });
});

describe('percentileIncOfRuns', () => {
  /** A deterministic pseudo-random sequence, so a failure can be replayed. */
  function* sequence(seed: number): Generator<number> {
    let state = seed;
    for (;;) {
      state = (state * 1103515245 + 12345) % 2147483648;
      yield state / 2147483648;
    }
  }

  it('equals PERCENTILE.INC of the merged runs, duplicates and empty runs included', () => {
    const random = sequence(7);
    const next = (): number => random.next().value as number;
    for (let trial = 0; trial < 300; trial++) {
      const runs = Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
        Array.from({ length: Math.floor(next() * 40) }, () => Math.round(next() * 50) * 1_000).sort((a, b) => a - b),
      );
      const all = runs.flat().sort((a, b) => a - b);
      if (all.length === 0) continue;
      const values = Float64Array.from(runs.flat());
      let from = 0;
      const sortedRuns = runs.map((run) => {
        const sortedRun = { values, from, to: from + run.length, divisor: 1, scale: 1 };
        from += run.length;
        return sortedRun;
      });
      for (const percent of [0, 1, 10, 25, 40, 50, 60, 75, 90, 99, 100, 33.3]) {
        expect(percentileIncOfRuns(sortedRuns, percent)).toBeCloseTo(percentileInc(all, all.length, percent), 9);
      }
    }
  });

  it('converts each run lazily, exactly as converting every value first', () => {
    const dollars = Int32Array.from([50_000, 61_000, 70_500, 88_000]);
    const pounds = Int32Array.from([40_000, 52_000, 66_000]);
    const runs = [
      { values: dollars, from: 0, to: 4, divisor: 1, scale: 0.25 },
      { values: pounds, from: 0, to: 3, divisor: 0.8, scale: 0.25 },
    ];
    const all = [...Array.from(dollars, (v) => (v / 1) * 0.25), ...Array.from(pounds, (v) => (v / 0.8) * 0.25)].sort((a, b) => a - b);
    for (const percent of [10, 25, 40, 50, 60, 75, 90]) expect(percentileIncOfRuns(runs, percent)).toBe(percentileInc(all, all.length, percent));
  });
});
