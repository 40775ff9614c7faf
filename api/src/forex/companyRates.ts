import { companyScope } from '../access/caller.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { findCurrency } from '../currencies/store.js';
import { newId } from '../db/ids.js';
import { type FieldError, HttpError, badRequest, notFound } from '../kernel/errors.js';
import { isoTimestamp } from '../db/timestamps.js';
import { fromDecimal } from '../money/rational.js';
import type { CompanyExchangeRateRow } from '../money/rateStore.js';
import { deleteCompanyRate, findCompanyRate, findCompanyRateOn, insertCompanyRate, listCompanyRates } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type CompanyExchangeRate = components['schemas']['CompanyExchangeRate'];

export function presentCompanyRate(row: CompanyExchangeRateRow): CompanyExchangeRate {
  return {
    id: row.id,
    base: row.base_currency,
    quote: row.quote_currency,
    rate: row.rate,
    effectiveDate: row.effective_date,
    note: row.note,
    createdBy: row.created_by,
    createdAt: isoTimestamp(row.created_at),
  };
}

export async function companyRates(ctx: Pick<ServiceContext, 'db' | 'caller'>, filter: { base?: string; quote?: string }): Promise<CompanyExchangeRate[]> {
  const { db, caller } = ctx;
  return (await listCompanyRates(db, companyScope(caller), filter)).map(presentCompanyRate);
}

/** "1.08500" and "1.085" are the same rate: kept without trailing zeros so equal rates read alike. */
function canonical(rate: string): string {
  return rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;
}

export async function createCompanyRate(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: components['schemas']['CompanyExchangeRateInput']): Promise<CompanyExchangeRate> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const errors: FieldError[] = [];
  for (const [field, code] of [['body.base', input.base], ['body.quote', input.quote]] as const) {
    if (!(await findCurrency(db, code))) errors.push({ field, message: `${code} is not a current ISO 4217 currency` });
  }
  if (input.base === input.quote) errors.push({ field: 'body.quote', message: 'must differ from base' });
  const exact = fromDecimal(input.rate);
  if (!exact || exact.n === 0n) errors.push({ field: 'body.rate', message: 'must be greater than zero' });
  if (errors.length) throw badRequest(errors.map((error) => `${error.field} ${error.message}`).join('; '), errors);
  const row = await db.transaction(async (trx) => {
    if (await findCompanyRateOn(trx, scope, input.base, input.quote, input.effectiveDate)) {
      const message = `The company already has a ${input.base}→${input.quote} rate from ${input.effectiveDate}; remove it first to set another.`;
      throw new HttpError(409, 'rate_exists', { message, errors: [{ field: 'body.effectiveDate', message }] });
    }
    const row: CompanyExchangeRateRow = {
      id: newId(),
      company_id: scope.companyId,
      base_currency: input.base,
      quote_currency: input.quote,
      rate: canonical(input.rate),
      effective_date: input.effectiveDate,
      note: (input.note ?? '').trim(),
      created_by: caller.userId,
      created_at: new Date().toISOString(),
    };
    await insertCompanyRate(trx, row);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'exchange_rate.created', subjectType: 'exchange_rate', subjectId: row.id, payload: { base: row.base_currency, quote: row.quote_currency, rate: row.rate, effectiveDate: row.effective_date } });
    return row;
  });
  return presentCompanyRate(row);
}

export async function removeCompanyRate(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<CompanyExchangeRate> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await db.transaction(async (trx) => {
    const row = await findCompanyRate(trx, scope, id);
    if (!row) throw notFound();
    await deleteCompanyRate(trx, scope, id);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'exchange_rate.removed', subjectType: 'exchange_rate', subjectId: id, payload: presentCompanyRate(row) });
    return row;
  });
  return presentCompanyRate(row);
}
