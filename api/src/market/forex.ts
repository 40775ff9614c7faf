import type { Knex } from 'knex';
import { latestRates } from '../forex/store.js';

const FOREX_TTL_MS = 10 * 60 * 1000;
// Keyed by the database's connection settings, which a request's transaction shares with the pool.
const cache = new WeakMap<object, { at: number; mapping: Record<string, number> }>();

/**
 * Units of each currency per 1 USD, from the newest ECB reference rates (quoted per euro).
 * Rates change once a day, so a node keeps the mapping for a few minutes.
 */
export async function currencyForexMapping(db: Knex): Promise<Record<string, number>> {
  const key = (db.client as { config: object }).config;
  const known = cache.get(key);
  if (known && Date.now() - known.at < FOREX_TTL_MS) return known.mapping;
  const perEuro = new Map((await latestRates(db)).map((row) => [row.currency, Number(row.rate)]));
  perEuro.set('EUR', 1);
  const usd = perEuro.get('USD');
  const mapping: Record<string, number> = {};
  if (usd) for (const [currency, rate] of [...perEuro].sort(([a], [b]) => a.localeCompare(b))) mapping[currency] = rate / usd;
  cache.set(key, { at: Date.now(), mapping });
  return mapping;
}
