import type { Knex } from 'knex';
import type { components } from '../contract-types.js';
import { latestRates } from './store.js';
import { STALE_RATE_DAYS, staleBefore } from '../money/ratesUsed.js';

type Schemas = components['schemas'];

const FOREX_TTL_MS = 10 * 60 * 1000;
export { STALE_RATE_DAYS };

interface DatedMapping {
  at: number;
  /** Units of each currency per 1 USD. */
  mapping: Record<string, number>;
  /** The reference date each of those stands on: the older of the currency's and the dollar's euro rate. */
  dates: Record<string, string>;
}

// Keyed by the database's connection settings, which a request's transaction shares with the pool.
const cache = new WeakMap<object, DatedMapping>();

/** The newest ECB reference rates (quoted per euro) as units per 1 USD, with their dates; kept a few minutes. */
async function datedMapping(db: Knex): Promise<DatedMapping> {
  const key = (db.client as { config: object }).config;
  const known = cache.get(key);
  if (known && Date.now() - known.at < FOREX_TTL_MS) return known;
  const rows = await latestRates(db);
  const perEuro = new Map(rows.map((row) => [row.currency, { rate: Number(row.rate), date: row.rate_date }]));
  const usd = perEuro.get('USD');
  const mapping: Record<string, number> = {};
  const dates: Record<string, string> = {};
  if (usd) {
    // The euro is the reference itself: it stands on the dollar's date alone.
    perEuro.set('EUR', { rate: 1, date: usd.date });
    for (const [currency, { rate, date }] of [...perEuro].sort(([a], [b]) => a.localeCompare(b))) {
      mapping[currency] = rate / usd.rate;
      dates[currency] = date < usd.date ? date : usd.date;
    }
  }
  const fresh = { at: Date.now(), mapping, dates };
  cache.set(key, fresh);
  datedOf.set(mapping, fresh);
  return fresh;
}

/** Drops what this node keeps, after new reference rates were written here (other nodes catch up within minutes). */
export function forgetForexMapping(db: Knex): void {
  const key = (db.client as { config: object }).config;
  const known = cache.get(key);
  if (known) forgotten.add(known.mapping);
  cache.delete(key);
}

const forgotten = new WeakSet<Record<string, number>>();
const datedOf = new WeakMap<Record<string, number>, DatedMapping>();

/** Whether a mapping `currencyForexMapping` gave is what it would give now (not expired, not forgotten), without reading. */
export function isCurrentMapping(mapping: Record<string, number>): boolean {
  const dated = datedOf.get(mapping);
  return dated !== undefined && !forgotten.has(mapping) && Date.now() - dated.at < FOREX_TTL_MS;
}

/**
 * Units of each currency per 1 USD, from the newest ECB reference rates (quoted per euro).
 * Rates change once a day, so a node keeps the mapping for a few minutes.
 */
export async function currencyForexMapping(db: Knex): Promise<Record<string, number>> {
  return (await datedMapping(db)).mapping;
}

/** The named rates in a line of text for files: "1 USD = 0.888731 EUR (ECB 2025-05-09)", flagged when old. */
export function ratesText(named: Awaited<ReturnType<typeof ratesNamed>>): string {
  const quoted = named.exchangeRates.filter((rate) => rate.currency !== 'USD').map((rate) => `1 USD = ${Number(rate.perUsd.toFixed(6))} ${rate.currency} (ECB ${rate.date})`);
  if (!quoted.length) return '';
  return `${quoted.join('; ')}${named.exchangeRatesStale ? `; older than ${STALE_RATE_DAYS} days` : ''}`;
}

/**
 * The rates an answer was converted with, named: units per 1 USD and the reference date of each,
 * and whether any of them is more than 30 days older than today.
 */
export async function ratesNamed(db: Knex, currencies: string[], today = new Date()): Promise<{ exchangeRates: Schemas['MarketExchangeRate'][]; exchangeRatesStale: boolean }> {
  if (!currencies.length) return { exchangeRates: [], exchangeRatesStale: false };
  const { mapping, dates } = await datedMapping(db);
  const exchangeRates = currencies.flatMap((currency) => {
    const perUsd = mapping[currency];
    const date = dates[currency];
    return perUsd !== undefined && date !== undefined ? [{ currency, perUsd, date, source: 'ECB euro reference rates' }] : [];
  });
  const oldest = staleBefore(today);
  return { exchangeRates, exchangeRatesStale: exchangeRates.some((rate) => rate.date < oldest) };
}
