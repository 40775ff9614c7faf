import { type SortedRun, countOfRuns, percentileIncOfRuns, valueAtRankOfRuns } from './percentile.js';

/** The confidence level every published median's interval is stated at. */
export const MEDIAN_CONFIDENCE = 0.95;
const Z = 1.959963984540054;

/**
 * The 0-based ranks bounding the distribution-free confidence interval for the median of n values:
 * order statistics j and k with P(j ≤ #values below the true median < k) ≈ 95% under Binomial(n, ½)
 * (normal approximation with continuity, as in Conover), clamped to the sample.
 */
export function medianIntervalRanks(n: number): { lower: number; upper: number } {
  const spread = Z * Math.sqrt(n);
  const j = Math.max(1, Math.floor((n - spread) / 2));
  const k = Math.min(n, Math.ceil(1 + (n + spread) / 2));
  return { lower: j - 1, upper: k - 1 };
}

export interface MedianUncertainty {
  confidence: number;
  /** The interval's ends, in the cell's units. */
  lower: number;
  upper: number;
  /** The larger distance from the median to an end, over the median; null when the median is not positive. */
  relativeError: number | null;
}

/** How far a cell's median may be from the market's, measured from the cell's own values. */
export function medianUncertainty(runs: readonly SortedRun[]): MedianUncertainty {
  const n = countOfRuns(runs);
  const median = percentileIncOfRuns(runs, 50);
  const ranks = medianIntervalRanks(n);
  const lower = valueAtRankOfRuns(runs, ranks.lower);
  const upper = valueAtRankOfRuns(runs, ranks.upper);
  return intervalOf(median, lower, upper);
}

/** A median's interval with its relative error: the larger distance to an end over the median; null when the median is not positive. */
export function intervalOf(median: number, lower: number, upper: number): MedianUncertainty {
  const relativeError = median > 0 ? Math.max(median - lower, upper - median) / median : null;
  return { confidence: MEDIAN_CONFIDENCE, lower, upper, relativeError };
}
