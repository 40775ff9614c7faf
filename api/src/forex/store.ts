import type { Knex } from 'knex';

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
