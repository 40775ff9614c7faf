import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { HttpError } from '../kernel/errors.js';
import { type Rational, divide, fromDecimal, fromNumber } from './rational.js';
import { COMPANY_OVERRIDE_SOURCE, type ForexRateRow, commonDateOnOrBefore, companyRateInForce, rateOn, rateOnOrBefore } from './rateStore.js';

type ForexRate = components['schemas']['ForexRate'];
type Conversion = components['schemas']['Conversion'];

/** The reference rates are published per euro. */
export const EURO = 'EUR';

export function presentRate(row: ForexRateRow): ForexRate {
  return { base: row.base, currency: row.currency, rate: row.rate, date: row.rate_date, source: row.source };
}

export function noRate(currency: string, date: string, field: string): HttpError {
  const message = `No reference rate for ${currency} on or before ${date}`;
  return new HttpError(400, 'no_reference_rate', { message, errors: [{ field, message }] });
}

/** The published rates that price `quote` in `base` on the newest common date on or before `onOrBefore`. */
export async function crossRate(
  db: Knex,
  base: string,
  quote: string,
  onOrBefore: string,
  fields: { base: string; quote: string },
): Promise<{ rate: Rational; date: string; used: ForexRateRow[] }> {
  if (base === quote) return { rate: { n: 1n, d: 1n }, date: onOrBefore, used: [] };
  if (base === EURO || quote === EURO) {
    const other = base === EURO ? quote : base;
    const row = await rateOnOrBefore(db, other, onOrBefore);
    if (!row) throw noRate(other, onOrBefore, base === EURO ? fields.quote : fields.base);
    const perEuro = fromNumber(row.rate);
    return { rate: base === EURO ? perEuro : divide({ n: 1n, d: 1n }, perEuro), date: row.rate_date, used: [row] };
  }
  // Usually both are published the same day: two index look-ups instead of a join.
  const newestQuote = await rateOnOrBefore(db, quote, onOrBefore);
  const sameDayBase = newestQuote ? await rateOn(db, base, newestQuote.rate_date) : undefined;
  if (newestQuote && sameDayBase) {
    return { rate: divide(fromNumber(newestQuote.rate), fromNumber(sameDayBase.rate)), date: newestQuote.rate_date, used: [sameDayBase, newestQuote] };
  }
  const date = await commonDateOnOrBefore(db, base, quote, onOrBefore);
  if (!date) {
    const missing = (await rateOnOrBefore(db, base, onOrBefore)) ? quote : base;
    throw noRate(missing, onOrBefore, missing === base ? fields.base : fields.quote);
  }
  // Sequential: inside a request's transaction both reads share one connection.
  const baseRow = await rateOn(db, base, date);
  const quoteRow = await rateOn(db, quote, date);
  if (!baseRow || !quoteRow) throw noRate(base, date, fields.base);
  return { rate: divide(fromNumber(quoteRow.rate), fromNumber(baseRow.rate)), date, used: [baseRow, quoteRow] };
}

/** The rate and its provenance: the company's own for the pair, or the reference rates. */
export interface RateUsed {
  rate: Rational;
  rates: ForexRate[];
  source: Conversion['source'];
  exchangeRateId: string | null;
}

/** The rate from → to in force on the date: the company's own for the pair when `scope` has one, else the ECB reference rates. */
export async function rateFor(db: Knex, scope: CompanyScope | undefined, from: string, to: string, onOrBefore: string): Promise<RateUsed> {
  const own = scope && from !== to ? await companyRateInForce(db, scope, from, to, onOrBefore) : undefined;
  const exact = own ? fromDecimal(own.rate) : undefined;
  if (own && exact) {
    const named: ForexRate = { base: own.base_currency, currency: own.quote_currency, rate: Number(own.rate), date: own.effective_date, source: COMPANY_OVERRIDE_SOURCE };
    return { rate: own.base_currency === from ? exact : divide({ n: 1n, d: 1n }, exact), rates: [named], source: 'company_override', exchangeRateId: own.id };
  }
  const { rate, used } = await crossRate(db, from, to, onOrBefore, { base: 'body.amount.currency', quote: 'body.to' });
  return { rate, rates: used.map(presentRate), source: 'ecb_reference', exchangeRateId: null };
}
