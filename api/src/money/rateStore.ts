import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/**
 * Reading the exchange rates money is converted at: the published reference rates and a company's
 * own rates in force. The forex area writes them (imports, corrections, a company's own rates).
 */

export interface ForexRateRow {
  currency: string;
  rate_date: string;
  base: string;
  rate: number;
  source: string;
}

/** SQLite hands dates back as text, Postgres as Date objects at UTC midnight. */
export function isoDate(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

export function normalise(row: ForexRateRow): ForexRateRow {
  return { ...row, rate_date: isoDate(row.rate_date), rate: Number(row.rate) };
}

/** The newest rate of `currency` on or before `onOrBefore`. */
export async function rateOnOrBefore(db: Knex, currency: string, onOrBefore: string): Promise<ForexRateRow | undefined> {
  const row = await db<ForexRateRow>('forex_rates')
    .where({ currency })
    .andWhere('rate_date', '<=', onOrBefore)
    .orderBy('rate_date', 'desc')
    .first();
  return row ? normalise(row) : undefined;
}

/** The newest date on or before `onOrBefore` on which both currencies have a published rate. */
export async function commonDateOnOrBefore(db: Knex, a: string, b: string, onOrBefore: string): Promise<string | undefined> {
  const row = await db('forex_rates as a')
    .join('forex_rates as b', 'a.rate_date', 'b.rate_date')
    .where('a.currency', a)
    .andWhere('b.currency', b)
    .andWhere('a.rate_date', '<=', onOrBefore)
    .max<{ day: string | Date | null }>({ day: 'a.rate_date' })
    .first();
  return row?.day ? isoDate(row.day) : undefined;
}

export async function rateOn(db: Knex, currency: string, date: string): Promise<ForexRateRow | undefined> {
  const row = await db<ForexRateRow>('forex_rates').where({ currency, rate_date: date }).first();
  return row ? normalise(row) : undefined;
}

/** The newest published rate of each currency. */
export const COMPANY_OVERRIDE_SOURCE = 'Company override';

export interface CompanyExchangeRateRow {
  id: string;
  company_id: string;
  base_currency: string;
  quote_currency: string;
  /** Exact decimal text: 1 base = rate quote. */
  rate: string;
  effective_date: string;
  note: string;
  created_by: string | null;
  created_at: string | Date;
}

export function companyRatesOf(db: Knex, scope: CompanyScope) {
  return db<CompanyExchangeRateRow>('company_exchange_rates').where('company_exchange_rates.company_id', scope.companyId);
}

/**
 * The company's rate for the pair in force on `date`: the newest effective on or before it, set
 * either way round (USD→EUR serves EUR→USD too). On the same date the pair as asked wins.
 */
export async function companyRateInForce(db: Knex, scope: CompanyScope, from: string, to: string, date: string): Promise<CompanyExchangeRateRow | undefined> {
  const rows = await companyRatesOf(db, scope)
    .andWhere((q) => q.where({ base_currency: from, quote_currency: to }).orWhere({ base_currency: to, quote_currency: from }))
    .andWhere('effective_date', '<=', date)
    .orderBy('effective_date', 'desc')
    .limit(2);
  const [newest, next] = rows;
  if (newest && next && next.effective_date === newest.effective_date && next.base_currency === from) return next;
  return newest;
}
