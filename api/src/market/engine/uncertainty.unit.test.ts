import { describe, expect, it } from 'vitest';
import { consistencyFor } from '../../reference/catalog/index.js';
import { createRandom } from '../generator/random.js';
import { medianIntervalRanks, medianUncertainty } from './uncertainty.js';

const run = (values: Float64Array) => [{ values, from: 0, to: values.length, divisor: 1, scale: 1 }];

/** PERCENTILE.INC of an ascending array. */
function median(sorted: Float64Array): number {
  const rank = (sorted.length - 1) / 2;
  const low = Math.floor(rank);
  return sorted[low]! + (rank - low) * ((sorted[low + 1] ?? sorted[low]!) - sorted[low]!);
}

/** The 95% percentile-bootstrap interval of the median, as the larger distance from the median over the median. */
function bootstrapRelativeError(sorted: Float64Array, next: () => number, resamples = 400): number {
  const m = median(sorted);
  const medians = new Float64Array(resamples);
  const draw = new Float64Array(sorted.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < draw.length; i++) draw[i] = sorted[Math.floor(next() * sorted.length)]!;
    medians[r] = median(draw.sort());
  }
  medians.sort();
  const low = medians[Math.floor(0.025 * (resamples - 1))]!;
  const high = medians[Math.ceil(0.975 * (resamples - 1))]!;
  return Math.max(m - low, high - m) / m;
}

describe('the uncertainty of a cell’s median', () => {
  it('bounds the median with the order statistics of the standard tables', () => {
    // Conover's tables for 95%: n = 50 → 18th and 33rd values; n = 100 → 40th and 61st (1-based).
    expect(medianIntervalRanks(50)).toEqual({ lower: 17, upper: 32 });
    expect(medianIntervalRanks(100)).toEqual({ lower: 39, upper: 60 });
    // Small samples are clamped to the sample: all ten values.
    expect(medianIntervalRanks(10)).toEqual({ lower: 0, upper: 9 });
    const values = Float64Array.from({ length: 50 }, (_, i) => 100 + i); // 100 … 149, median 124.5
    expect(medianUncertainty(run(values))).toEqual({ confidence: 0.95, lower: 117, upper: 132, relativeError: 7.5 / 124.5 });
    expect(medianUncertainty(run(new Float64Array(20))).relativeError).toBeNull();
  });

  it('labels cells so that a bootstrap of the same values stays within the label’s stated maximum error', () => {
    const random = createRandom(20261124);
    const next = () => random.next();
    let cells = 0;
    let overstated = 0;
    let overstatedBySize = 0;
    const ratios: number[] = [];
    // Control: the rule this replaced labelled by sample size alone (cash ≥ 500 → ≤ 2%, 100 → 5%, 30 → 10%, 10 → 20%; equity 1,000 / 250 / 50 / 10 → 5 / 10 / 20 / 40%).
    const bySize = { cash: [[500, 0.02], [100, 0.05], [30, 0.1], [10, 0.2]], equity: [[1000, 0.05], [250, 0.1], [50, 0.2], [10, 0.4]] } as const;
    // Cash-like (σ 0.25) and equity-like (σ 0.8) pay, log-normal, at sample sizes from the threshold up.
    for (const [broad, sigma] of [['cash', 0.25], ['equity', 0.8]] as const) {
      for (const n of [10, 20, 50, 100, 300, 1000]) {
        for (let cell = 0; cell < 15; cell++) {
          const values = Float64Array.from({ length: n }, () => random.logNormal(120_000, sigma)).sort();
          const measured = medianUncertainty(run(values));
          const label = consistencyFor(broad, measured.relativeError);
          const bootstrap = bootstrapRelativeError(values, next);
          cells += 1;
          // "Very low" promises nothing (its maximum stands for "and above").
          if (label && label.consistencyLevel > 0 && bootstrap > label.maxError) overstated += 1;
          if (bootstrap > (bySize[broad].find(([min]) => n >= min)?.[1] ?? Infinity)) overstatedBySize += 1;
          ratios.push((measured.relativeError ?? 0) / bootstrap);
        }
      }
    }
    expect(cells).toBe(180);
    // At most 5% of labels promise less error than the bootstrap finds…
    expect(overstated / cells).toBeLessThanOrEqual(0.05);
    // …where labelling by sample size alone overstated most of them.
    expect(overstatedBySize / cells).toBeGreaterThan(0.5);
    // …and the interval is not so wide as to say nothing: on average within twice the bootstrap's.
    const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
    expect(mean).toBeGreaterThan(0.8);
    expect(mean).toBeLessThan(2);
  });
});
