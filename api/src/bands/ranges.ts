import type { components } from '../contract-types.js';
import { badRequest } from '../kernel/errors.js';

/*
 * A band's optional variable pay, bonus target and equity ranges (BandRanges), stored with the band as
 * JSON and versioned with it. Every part is optional; an empty object is no ranges at all.
 */

export type BandRanges = components['schemas']['BandRanges'];
type Money = components['schemas']['Money'];

export function parseRanges(text: string | null | undefined): BandRanges | null {
  if (!text) return null;
  return JSON.parse(text) as BandRanges;
}

/** The stored text: null when there is nothing to keep. */
export function rangesText(ranges: BandRanges | null | undefined): string | null {
  if (!ranges) return null;
  return Object.keys(ranges).length ? JSON.stringify(ranges) : null;
}

/**
 * Checks ranges against the set's currency: bonus min ≤ target ≤ max, equity min ≤ mid ≤ max, the
 * variable target in the set's currency (400 naming the field under `at`).
 */
export function checkRanges(ranges: BandRanges | null | undefined, currency: string, at = 'body.ranges'): void {
  if (!ranges) return;
  const bonus = ranges.bonusTargetPercent;
  if (bonus) {
    if ((bonus.min ?? bonus.target) > bonus.target || bonus.target > (bonus.max ?? bonus.target)) {
      throw badRequest('A bonus target range runs from its minimum through its target to its maximum.', [{ field: `${at}.bonusTargetPercent`, message: 'must satisfy min ≤ target ≤ max' }]);
    }
  }
  if (ranges.variableTarget && ranges.variableTarget.currency !== currency) {
    throw badRequest(`This band is in ${currency}.`, [{ field: `${at}.variableTarget.currency`, message: `must be ${currency}` }]);
  }
  if (ranges.variableTarget && ranges.variableTarget.amount < 0) {
    throw badRequest('A variable pay target cannot be negative.', [{ field: `${at}.variableTarget.amount`, message: 'must not be negative' }]);
  }
  const equity = ranges.equity;
  if (equity && (equity.min > equity.mid || equity.mid > equity.max)) {
    throw badRequest('An equity range runs from its minimum through its midpoint to its maximum: min ≤ mid ≤ max.', [{ field: `${at}.equity`, message: 'must satisfy min ≤ mid ≤ max' }]);
  }
}

/** min ≤ mid ≤ max in the band's currency, mid above 0 (the same rule and messages as a job's band). */
export function checkFigures(figures: { min: Money; mid: Money; max: Money }, currency: string): void {
  for (const key of ['min', 'mid', 'max'] as const) {
    if (figures[key].currency !== currency) throw badRequest(`This band is in ${currency}.`, [{ field: `body.${key}.currency`, message: `must be ${currency}` }]);
  }
  const [min, mid, max] = [figures.min.amount, figures.mid.amount, figures.max.amount];
  if (min < 0 || mid <= 0) throw badRequest('A band’s midpoint must be above 0 and its minimum not below 0.', [{ field: mid <= 0 ? 'body.mid.amount' : 'body.min.amount', message: mid <= 0 ? 'must be above 0' : 'must not be negative' }]);
  if (min > mid || mid > max) {
    throw badRequest('A band runs from its minimum through its midpoint to its maximum: min ≤ mid ≤ max.', [
      ...(min > mid ? [{ field: 'body.min.amount', message: 'must not exceed the midpoint' }] : []),
      ...(mid > max ? [{ field: 'body.max.amount', message: 'must not be below the midpoint' }] : []),
    ]);
  }
}
