import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Conversion = components['schemas']['Conversion'];
type CompanyExchangeRate = components['schemas']['CompanyExchangeRate'];

/** What `amount` (minor units, both currencies with two decimals) comes to at `rate`, rounded half to even. */
function atRate(amount: number, rate: number): number {
  const exact = amount * rate;
  const floor = Math.floor(exact);
  const diff = exact - floor;
  if (Math.abs(diff - 0.5) < 1e-9) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(exact);
}

describe("a company's own exchange rates", () => {
  let company: TestCompany;
  let other: TestCompany;
  let admin: Record<string, string>;
  const rates: Record<string, CompanyExchangeRate> = {};

  const create = (json: unknown, headers = admin) => request<{ data: CompanyExchangeRate } & ErrorBody>('/api/company/exchange-rates', { method: 'POST', headers, json });
  const convert = (json: unknown, headers: Record<string, string> = admin) => request<{ data: Conversion } & ErrorBody>('/api/forex/convert', { method: 'POST', headers, json });

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'Rates Co');
    other = await createTestCompany(db, 'Other Rates Co');
    admin = bearer(company.users.admin!);
    for (const [key, json] of Object.entries({
      usdEur2024: { base: 'USD', quote: 'EUR', rate: '0.9000', effectiveDate: '2024-01-01', note: 'Budget rate 2024' },
      usdEurJune: { base: 'USD', quote: 'EUR', rate: '0.95', effectiveDate: '2024-06-01' },
      eurUsd2025: { base: 'EUR', quote: 'USD', rate: '1.2', effectiveDate: '2025-01-01' },
      usdEur2025: { base: 'USD', quote: 'EUR', rate: '0.8', effectiveDate: '2025-01-01' },
    })) {
      const reply = await create(json);
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      rates[key] = reply.body.data;
    }
  });

  it('keeps the exact decimal, who set it and why', async () => {
    expect(rates.usdEur2024).toMatchObject({ base: 'USD', quote: 'EUR', rate: '0.9', effectiveDate: '2024-01-01', note: 'Budget rate 2024', createdBy: company.users.admin?.id });
    const list = await request<{ data: CompanyExchangeRate[] }>('/api/company/exchange-rates?base=USD', { headers: bearer(company.users.compensation_planner!) });
    expect(list.status).toBe(200);
    expect(list.body.data.map((rate) => [rate.quote, rate.effectiveDate, rate.rate])).toEqual([
      ['EUR', '2025-01-01', '0.8'],
      ['EUR', '2024-06-01', '0.95'],
      ['EUR', '2024-01-01', '0.9'],
    ]);
  });

  it('converts at the company rate in force on the date, and names it', async () => {
    const reply = await convert({ amount: { amount: 100_000, currency: 'USD' }, to: 'EUR', date: '2024-05-31' });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      from: { amount: 100_000, currency: 'USD' },
      to: { amount: 90_000, currency: 'EUR' },
      rate: 0.9,
      rates: [{ base: 'USD', currency: 'EUR', rate: 0.9, date: '2024-01-01', source: 'Company override' }],
      source: 'company_override',
      exchangeRateId: rates.usdEur2024?.id,
    });
    const june = await convert({ amount: { amount: 100_000, currency: 'USD' }, to: 'EUR', date: '2024-06-03' });
    expect(june.body.data).toMatchObject({ to: { amount: 95_000 }, exchangeRateId: rates.usdEurJune?.id, rates: [{ date: '2024-06-01', rate: 0.95 }] });
  });

  it('uses the rate it names, whichever way round the pair was set', async () => {
    for (const [json, expected] of [
      [{ amount: { amount: 12_345, currency: 'EUR' }, to: 'USD', date: '2024-07-01' }, 'usdEurJune'],
      [{ amount: { amount: 98_765, currency: 'EUR' }, to: 'USD', date: '2025-02-01' }, 'eurUsd2025'],
      [{ amount: { amount: 98_765, currency: 'USD' }, to: 'EUR', date: '2025-02-01' }, 'usdEur2025'],
    ] as const) {
      const reply = await convert(json);
      const named = reply.body.data.rates[0];
      expect(reply.body.data.exchangeRateId).toBe(rates[expected]?.id);
      expect(named?.source).toBe('Company override');
      // 1 named.base = named.rate named.currency; the conversion must agree with that, exactly rounded.
      const perUnit = named?.base === json.amount.currency ? (named?.rate ?? 0) : 1 / (named?.rate ?? 1);
      expect(reply.body.data.to.amount).toBe(atRate(json.amount.amount, perUnit));
    }
    // 12,345 EUR cents ÷ 0.95 = 12,994.736… → 12,995
    expect((await convert({ amount: { amount: 12_345, currency: 'EUR' }, to: 'USD', date: '2024-07-01' })).body.data.to.amount).toBe(12_995);
  });

  it('uses the ECB reference rates before the first company rate, for anonymous callers and for other companies', async () => {
    const json = { amount: { amount: 100_000, currency: 'USD' }, to: 'EUR', date: '2024-06-03' };
    const checks = [
      await convert({ ...json, date: '2023-12-29' }),
      await convert(json, {}),
      await convert(json, bearer(other.users.admin!)),
    ];
    for (const reply of checks) {
      expect(reply.status).toBe(200);
      expect(reply.body.data.source).toBe('ecb_reference');
      expect(reply.body.data.exchangeRateId).toBeNull();
      const [named] = reply.body.data.rates;
      expect(named).toMatchObject({ base: 'EUR', currency: 'USD', source: 'European Central Bank' });
      expect(reply.body.data.to.amount).toBe(atRate(100_000, 1 / (named?.rate ?? 1)));
    }
    expect(checks[0]?.body.data.rates[0]?.date).toBe('2023-12-29');
  });

  it('refuses a token that is not valid even where anonymous callers are welcome', async () => {
    const reply = await convert({ amount: { amount: 1, currency: 'USD' }, to: 'EUR' }, { Authorization: 'Bearer pb_not-a-real-token-at-all' });
    expect(reply.status).toBe(401);
  });

  it('names what is wrong with a rate', async () => {
    const same = await create({ base: 'USD', quote: 'USD', rate: '1', effectiveDate: '2024-01-01' });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual([{ field: 'body.quote', message: 'must differ from base' }]);
    const zero = await create({ base: 'XYZ', quote: 'EUR', rate: '0.000', effectiveDate: '2024-01-01' });
    expect(zero.body.errors).toEqual([
      { field: 'body.base', message: 'XYZ is not a current ISO 4217 currency' },
      { field: 'body.rate', message: 'must be greater than zero' },
    ]);
    const text = await create({ base: 'USD', quote: 'EUR', rate: '1e3', effectiveDate: '2024-01-01' });
    expect(text.body.errors?.[0]?.field).toBe('body.rate');
    const twice = await create({ base: 'USD', quote: 'EUR', rate: '0.91', effectiveDate: '2024-01-01' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('The company already has a USD→EUR rate from 2024-01-01; remove it first to set another.');
  });

  it('lets only settings editors change rates', async () => {
    expect((await create({ base: 'USD', quote: 'GBP', rate: '0.8', effectiveDate: '2024-01-01' }, bearer(company.users.compensation_planner!))).status).toBe(403);
    expect((await request('/api/company/exchange-rates', { headers: bearer(company.users.employee!) })).status).toBe(403);
  });

  it('falls back to the reference rates once the company rate is removed', async () => {
    const added = await create({ base: 'GBP', quote: 'JPY', rate: '190', effectiveDate: '2024-01-01' });
    const json = { amount: { amount: 100, currency: 'GBP' }, to: 'JPY', date: '2024-02-01' };
    expect((await convert(json)).body.data.to.amount).toBe(190);
    const removed = await request<{ data: CompanyExchangeRate }>(`/api/company/exchange-rates/${added.body.data.id}`, { method: 'DELETE', headers: admin });
    expect(removed.status).toBe(200);
    const after = await convert(json);
    expect(after.body.data.source).toBe('ecb_reference');
    expect(after.body.data.rates.map((rate) => rate.currency)).toEqual(['GBP', 'JPY']);
    expect((await request(`/api/company/exchange-rates/${added.body.data.id}`, { method: 'DELETE', headers: admin })).status).toBe(404);
  });
});
