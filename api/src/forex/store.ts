import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

export const ECB_SOURCE = 'European Central Bank';

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

function normalise(row: ForexRateRow): ForexRateRow {
  return { ...row, rate_date: isoDate(row.rate_date), rate: Number(row.rate) };
}

export async function latestRateDate(db: Knex): Promise<string | null> {
  const row = await db('forex_rates').max<{ latest: string | Date | null }>({ latest: 'rate_date' }).first();
  return row?.latest ? isoDate(row.latest) : null;
}

export async function insertRates(db: Knex, rows: ForexRateRow[]): Promise<void> {
  if (!rows.length) return;
  await db.transaction(async (trx) => {
    await trx.batchInsert('forex_rates', rows, 400);
  });
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
export async function latestRates(db: Knex): Promise<ForexRateRow[]> {
  const newest = db('forex_rates').select('currency').max({ latest: 'rate_date' }).groupBy('currency').as('newest');
  const rows = await db<ForexRateRow>('forex_rates as r')
    .join(newest, function joinNewest() {
      this.on('r.currency', 'newest.currency').andOn('r.rate_date', 'newest.latest');
    })
    .select('r.*')
    .orderBy('r.currency');
  return rows.map(normalise);
}

export interface HistoryPage {
  rows: ForexRateRow[];
  hasMore: boolean;
}

/** Rates of `currency`, newest first, strictly before `before` when paging. */
export async function rateHistory(
  db: Knex,
  currency: string,
  range: { from?: string; to?: string; before?: string },
  limit: number,
): Promise<HistoryPage> {
  const query = db<ForexRateRow>('forex_rates').where({ currency });
  if (range.from) query.andWhere('rate_date', '>=', range.from);
  if (range.to) query.andWhere('rate_date', '<=', range.to);
  if (range.before) query.andWhere('rate_date', '<', range.before);
  const rows = (await query.orderBy('rate_date', 'desc').limit(limit + 1)).map(normalise);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

// ── company exchange rates (company-owned) ───────────────────────────────────────────────

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

export async function listCompanyRates(db: Knex, scope: CompanyScope, filter: { base?: string; quote?: string }): Promise<CompanyExchangeRateRow[]> {
  const query = companyRatesOf(db, scope);
  if (filter.base) query.andWhere('base_currency', filter.base);
  if (filter.quote) query.andWhere('quote_currency', filter.quote);
  return query.orderBy([{ column: 'base_currency' }, { column: 'quote_currency' }, { column: 'effective_date', order: 'desc' }]);
}

export async function findCompanyRate(db: Knex, scope: CompanyScope, id: string): Promise<CompanyExchangeRateRow | undefined> {
  return companyRatesOf(db, scope).where({ id }).first();
}

export async function findCompanyRateOn(db: Knex, scope: CompanyScope, base: string, quote: string, date: string): Promise<CompanyExchangeRateRow | undefined> {
  return companyRatesOf(db, scope).where({ base_currency: base, quote_currency: quote, effective_date: date }).first();
}

export async function insertCompanyRate(db: Knex, row: CompanyExchangeRateRow): Promise<void> {
  await db('company_exchange_rates').insert(row);
}

export async function deleteCompanyRate(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await companyRatesOf(db, scope).where({ id }).delete();
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

// ── reference-rate imports ───────────────────────────────────────────────────────────────

/** Rates already held for these currencies between two dates, keyed `CUR|YYYY-MM-DD`. */
export async function ratesBetween(db: Knex, currencies: string[], from: string, to: string): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  if (!currencies.length) return held;
  const rows = await db<ForexRateRow>('forex_rates').whereIn('currency', currencies).andWhere('rate_date', '>=', from).andWhere('rate_date', '<=', to).select('currency', 'rate_date', 'rate');
  for (const row of rows) held.set(`${row.currency}|${isoDate(row.rate_date)}`, Number(row.rate));
  return held;
}

export async function correctRate(db: Knex, row: ForexRateRow): Promise<void> {
  await db('forex_rates').where({ currency: row.currency, rate_date: row.rate_date }).update({ rate: row.rate, base: row.base, source: row.source });
}
