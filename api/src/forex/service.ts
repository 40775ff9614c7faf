import type { Knex } from 'knex';
import type { components } from '../contract-types.js';
import { requireMinorUnit } from '../money/minorUnits.js';
import { listCurrencies } from '../currencies/store.js';
import { badRequest } from '../kernel/errors.js';
import type { CompanyScope } from '../access/caller.js';
import { type Rational, type Rounding, multiply, pow10, round } from '../money/rational.js';
import { EURO, crossRate, noRate, rateFor } from '../money/rates.js';
import type { ForexRateRow } from '../money/rateStore.js';
import { latestRates, rateHistory } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type ForexRate = components['schemas']['ForexRate'];
type Conversion = components['schemas']['Conversion'];
type Money = components['schemas']['Money'];

async function requireCurrency(db: Knex, code: string, field: string): Promise<{ code: string; minorUnit: number }> {
  return { code, minorUnit: await requireMinorUnit(db, code, field) };
}

const toNumber = (value: Rational): number => Number(value.n) / Number(value.d);
const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * Converts at the rate in force on the date: the caller's company's own rate for the pair when it
 * has one (`scope`), else the ECB reference rates; the answer names which.
 */
export async function convert(
  ctx: Pick<ServiceContext, 'db'>,
  input: { amount: Money; to: string; date?: string; rounding?: Rounding },
  scope?: CompanyScope,
): Promise<Conversion> {
  const { db } = ctx;
  const from = await requireCurrency(db, input.amount.currency, 'body.amount.currency');
  const to = await requireCurrency(db, input.to, 'body.to');
  const onOrBefore = input.date ?? today();
  const used = await rateFor(db, scope, from.code, to.code, onOrBefore);
  // amount (minor of `from`) → major → × rate → minor of `to`, exactly, then rounded once.
  const scaled = multiply(multiply({ n: BigInt(input.amount.amount), d: 1n }, used.rate), {
    n: pow10(to.minorUnit),
    d: pow10(from.minorUnit),
  });
  const amount = round(scaled, input.rounding ?? 'halfEven');
  if (amount > BigInt(Number.MAX_SAFE_INTEGER) || amount < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw badRequest('The converted amount is too large', [{ field: 'body.amount.amount', message: 'is too large to convert' }]);
  }
  return {
    from: { amount: input.amount.amount, currency: from.code },
    to: { amount: Number(amount), currency: to.code },
    rate: toNumber(used.rate),
    rates: used.rates,
    source: used.source,
    exchangeRateId: used.exchangeRateId,
  };
}

export async function latestTable(ctx: Pick<ServiceContext, 'db'>, base: string): Promise<components['schemas']['ForexRateTable']> {
  const { db } = ctx;
  await requireCurrency(db, base, 'query.base');
  const newest = await latestRates(db);
  const quotes = [...newest.map((row) => row.currency), EURO].filter((code) => code !== base);
  const current = new Set((await listCurrencies(db)).map((currency) => currency.code));
  const rates: ForexRate[] = [];
  for (const quote of quotes) {
    if (!current.has(quote)) continue; // withdrawn currencies (CYP, EEK, …) are history, not "latest"
    const own = newest.find((row) => row.currency === quote);
    const day = own?.rate_date ?? newest.reduce((max, row) => (row.rate_date > max ? row.rate_date : max), '');
    const cross = await crossRate(db, base, quote, day, { base: 'query.base', quote: 'query.base' }).catch(() => undefined);
    if (cross) rates.push({ base, currency: quote, rate: toNumber(cross.rate), date: cross.date, source: sourceOf(cross.used) });
  }
  if (!rates.length) throw noRate(base, today(), 'query.base');
  const date = rates.reduce((max, rate) => (rate.date > max ? rate.date : max), '');
  return { base, date, rates };
}

function sourceOf(used: ForexRateRow[]): string {
  return [...new Set(used.map((row) => row.source))].join('; ') || 'identity';
}

export interface HistoryQuery {
  currency: string;
  base: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** Dated rates of `currency` in `base`, newest first; the cursor is the last date of the previous page. */
export async function history(ctx: Pick<ServiceContext, 'db'>, query: HistoryQuery): Promise<{ rates: ForexRate[]; nextCursor: string | null }> {
  const { db } = ctx;
  await requireCurrency(db, query.currency, 'query.currency');
  await requireCurrency(db, query.base, 'query.base');
  if (query.currency === query.base) throw badRequest('currency and base must differ', [{ field: 'query.currency', message: 'must differ from base' }]);
  if (query.cursor !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(query.cursor)) {
    throw badRequest('The cursor is not one this server gave out', [{ field: 'query.cursor', message: 'is not a valid cursor' }]);
  }
  // Page through the dates of whichever side is not the euro; each date is then priced exactly.
  const anchor = query.currency === EURO ? query.base : query.currency;
  const page = await rateHistory(db, anchor, { from: query.from, to: query.to, before: query.cursor }, query.limit);
  const rates: ForexRate[] = [];
  for (const row of page.rows) {
    const cross = await crossRate(db, query.base, query.currency, row.rate_date, { base: 'query.base', quote: 'query.currency' }).catch(
      () => undefined,
    );
    if (cross && cross.date === row.rate_date) {
      rates.push({ base: query.base, currency: query.currency, rate: toNumber(cross.rate), date: cross.date, source: sourceOf(cross.used) });
    }
  }
  const last = page.rows.at(-1);
  return { rates, nextCursor: page.hasMore && last ? last.rate_date : null };
}
