import type { components } from '../contract-types.js';
import type { ForexRateRow } from './store.js';

export function presentRate(row: ForexRateRow): components['schemas']['ForexRate'] {
  return { base: row.base, currency: row.currency, rate: row.rate, date: row.rate_date, source: row.source };
}
