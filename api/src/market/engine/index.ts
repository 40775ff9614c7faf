/** The benchmarking engine: releases held in memory, queries against them, and request validation. */
export {
  describeRelease,
  disclose,
  roundDownCount,
  type CompositionEntry,
  type DisclosedEntry,
  type FamilyCoverage,
  type ReleaseComposition,
} from './composition.js';
export {
  MEASURE_IDS,
  NO_AMOUNT,
  UNKNOWN_PRACTICE,
  EQUITY_PROGRAMME_UNKNOWN,
  catalogDimensions,
  catalogPracticeTables,
  emptyMarket,
  type EquityPractices,
  type MeasureId,
  type ParticipantMarket,
  type ReleaseDimensions,
} from './participants.js';
export { registerDisclosureKey } from './disclosure/cellDraws.js';
export { PUBLISHED_SIGNIFICANT_FIGURES, toPrecision } from './disclosure/figures.js';
export { DISCLOSURE_KEY_BYTES, randomDisclosureKey } from './prf.js';
export { percentileInc } from './percentile.js';
export type { EquityOption } from './plan.js';
export { DEFAULT_PRIVACY_RULE, NO_PAY_MASS_CHECKS, isPublishable, payMassReason, meetsMinimums, withheldStatement, withholdingReason, type InsufficientReason, type PrivacyRule } from './privacy.js';
export {
  queryRelease,
  type BenchmarkCell,
  type BenchmarkResult,
  type CellSample,
  type PercentileValue,
  type QueryOptions,
} from './query.js';
export { amountColumn, buildRelease, type BuildReleaseOptions, type MarketRelease } from './release.js';
export type {
  BenchmarkRequest,
  BenchmarkRequestInput,
  CurrencyMode,
  EquitySelection,
  LevelSelection,
  MarketFilter,
  ValidationIssue,
} from './request.js';
export { MESSAGES as BENCHMARK_REQUEST_MESSAGES, isValidBenchmarkRequest, validateBenchmarkRequest } from './validate.js';
export { measureUtility, privacyScorecard, SCORECARD_KEYS, type PrivacyScorecard, type ReleaseUtility } from './scorecard.js';
export { runAttackBattery, type AttackOutcome, type BatteryOptions } from './attacks/index.js';
