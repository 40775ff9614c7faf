import type { CompensationCategory, ConsistencyLabel, SampleBucket } from './types.js';

/**
 * The only percentiles the product publishes, and what a cell reports when none are named. Any
 * other is refused: enough percentiles of one cell rebuild its records one by one.
 */
export const PERCENTILES = [10, 25, 40, 50, 60, 75, 90] as const;
export type MarketPercentile = (typeof PERCENTILES)[number];

export const isAllowedPercentile = (value: number): value is MarketPercentile => (PERCENTILES as readonly number[]).includes(value);

/**
 * The allowed ones among stored percentiles (requests saved or shared before the list was
 * enforced); undefined when none is left, which answers the whole list.
 */
export function allowedPercentiles(stored: readonly number[] | null | undefined): MarketPercentile[] | undefined {
  const kept = [...new Set((stored ?? []).filter(isAllowedPercentile))];
  return kept.length > 0 ? kept : undefined;
}
/** Percentiles offered in the single-percentile picker. */
export const PICKER_PERCENTILES: readonly MarketPercentile[] = [10, 25, 50, 75, 90];
/** Percentiles offered for market-data reports. */
export const REPORT_PERCENTILES: readonly MarketPercentile[] = [25, 40, 50, 60, 75, 90];
export const DEFAULT_PERCENTILE: Readonly<Record<CompensationCategory, number>> = { cash: 25, equity: 50 };

export const INSUFFICIENT_DATA_LABEL = 'Insufficient data';

/**
 * The only bucket a withheld sample or a composition group below the threshold gets: it says the
 * group failed the privacy rule and nothing about how big it is.
 */
export const BELOW_THRESHOLD_BUCKET: Readonly<SampleBucket> = Object.freeze({ id: 'below_threshold', label: 'Below the threshold', min: 0, max: null });

function buckets(rows: [number, number | null][], unit: string): SampleBucket[] {
  return rows.map(([min, max]) => ({
    id: `${unit}_${min}${max === null ? '_plus' : `_${max}`}`,
    label: max === null ? `${min.toLocaleString('en-US')}+` : `${min.toLocaleString('en-US')}–${max.toLocaleString('en-US')}`,
    min,
    max,
  }));
}

export const COMPANY_COUNT_BUCKETS: readonly SampleBucket[] = buckets(
  [
    [0, 4],
    [5, 9],
    [10, 24],
    [25, 49],
    [50, 99],
    [100, 249],
    [250, 499],
    [500, null],
  ],
  'companies',
);

export const EMPLOYEE_COUNT_BUCKETS: readonly SampleBucket[] = buckets(
  [
    [0, 9],
    [10, 49],
    [50, 99],
    [100, 249],
    [250, 499],
    [500, 999],
    [1000, 4999],
    [5000, 24999],
    [25000, null],
  ],
  'employees',
);

export function bucketOf(buckets: readonly SampleBucket[], count: number): SampleBucket {
  for (const bucket of buckets) {
    if (count >= bucket.min && (bucket.max === null || count <= bucket.max)) return bucket;
  }
  throw new Error(`No sample bucket holds ${count}`);
}

type LabelRow = [level: number, label: string, min: number, max: number | null, minError: number, maxError: number];

function labels(broadCompType: CompensationCategory, rows: LabelRow[]): ConsistencyLabel[] {
  return rows.map(([level, label, min, max, minError, maxError]) => ({
    upstreamId: `cl_${broadCompType}_${level}`,
    consistencyLabel: label,
    version: 1,
    consistencyLevel: level,
    minError,
    maxError,
    sampleSizeBucketMin: min,
    sampleSizeBucketMax: max,
    broadCompType,
  }));
}

/**
 * Labels by the measured relative error of the cell's median (the half-width of its 95% interval
 * over the median): a label promises at most its `maxError`. Equity is far more dispersed than
 * cash, so its bands are wider. The sample sizes are where each band is typically reached; they
 * describe, they do not decide. "Very low" holds everything past "Low" (its `maxError` of 1 stands
 * for "and above").
 */
export const CONSISTENCY_LABELS: readonly ConsistencyLabel[] = [
  ...labels('cash', [
    [4, 'Very high', 500, null, 0, 0.02],
    [3, 'High', 100, 499, 0.02, 0.05],
    [2, 'Moderate', 30, 99, 0.05, 0.1],
    [1, 'Low', 10, 29, 0.1, 0.2],
    [0, 'Very low', 10, null, 0.2, 1],
  ]),
  ...labels('equity', [
    [4, 'Very high', 1000, null, 0, 0.05],
    [3, 'High', 250, 999, 0.05, 0.1],
    [2, 'Moderate', 50, 249, 0.1, 0.2],
    [1, 'Low', 10, 49, 0.2, 0.4],
    [0, 'Very low', 10, null, 0.4, 1],
  ]),
];

/** The label a published cell earns from its median's measured relative error; null when that is unknown (a median of 0). */
export function consistencyFor(broadCompType: CompensationCategory, relativeError: number | null): ConsistencyLabel | null {
  if (relativeError === null || !Number.isFinite(relativeError)) return null;
  let last: ConsistencyLabel | null = null;
  for (const label of CONSISTENCY_LABELS) {
    if (label.broadCompType !== broadCompType) continue;
    if (relativeError >= label.minError && relativeError < label.maxError) return label;
    last = label;
  }
  // Beyond every band's top: the weakest label.
  return last;
}
