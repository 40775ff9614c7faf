import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { type CompanyExchangeRateRow, type ForexRateRow, companyRatesOf, isoDate, normalise } from '../money/rateStore.js';


export const ECB_SOURCE = 'European Central Bank';

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
