import { describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { type ErrorBody, request } from '../../test/http.js';

type RateTable = components['schemas']['ForexRateTable'];
type Rate = components['schemas']['ForexRate'];
type Conversion = components['schemas']['Conversion'];

const convert = (json: unknown) => request<{ data: Conversion }>('/api/forex/convert', { method: 'POST', json });

describe('GET /api/forex/rates/latest', () => {
  it('gives each currency its newest ECB rate, with its date and source', async () => {
    const reply = await request<{ data: RateTable }>('/api/forex/rates/latest?base=EUR');
    expect(reply.status).toBe(200);
    const usd = reply.body.data.rates.find((rate) => rate.currency === 'USD');
    // eurofxref-hist.csv, 2025-05-09: USD 1.1252
    expect(usd).toEqual({ base: 'EUR', currency: 'USD', rate: 1.1252, date: '2025-05-09', source: 'European Central Bank' });
    expect(reply.body.data.date).toBe('2025-05-09');
    // Withdrawn currencies (the Cypriot pound) are history, not "latest".
    expect(reply.body.data.rates.some((rate) => rate.currency === 'CYP')).toBe(false);
    // The rouble stopped being published in 2022; its date says so.
    const rub = reply.body.data.rates.find((rate) => rate.currency === 'RUB');
    expect(rub?.date).toMatch(/^202[0-2]-/);
  });

  it('quotes against USD by default, crossing through EUR on the same date', async () => {
    const reply = await request<{ data: RateTable }>('/api/forex/rates/latest');
    expect(reply.body.data.base).toBe('USD');
    const gbp = reply.body.data.rates.find((rate) => rate.currency === 'GBP');
    const eur = reply.body.data.rates.find((rate) => rate.currency === 'EUR');
    expect(gbp?.rate).toBeCloseTo(0.8477 / 1.1252, 12);
    expect(eur?.rate).toBeCloseTo(1 / 1.1252, 12);
    expect(gbp?.date).toBe('2025-05-09');
  });

  it('refuses a currency that is not current ISO 4217', async () => {
    const reply = await request<ErrorBody>('/api/forex/rates/latest?base=XYZ');
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('Unknown currency code XYZ');
    expect(reply.body.errors?.[0]?.field).toBe('query.base');
  });
});

describe('GET /api/forex/rates/history', () => {
  it('pages through dated rates newest first with a cursor', async () => {
    const first = await request<{ data: Rate[]; page: { nextCursor: string | null; limit: number } }>(
      '/api/forex/rates/history?currency=USD&base=EUR&limit=3',
    );
    expect(first.status).toBe(200);
    expect(first.body.data.map((rate) => [rate.date, rate.rate])).toEqual([
      ['2025-05-09', 1.1252],
      ['2025-05-08', 1.1297],
      ['2025-05-07', 1.136],
    ]);
    expect(first.body.page).toEqual({ limit: 3, nextCursor: '2025-05-07' });
    const second = await request<{ data: Rate[] }>(
      `/api/forex/rates/history?currency=USD&base=EUR&limit=2&cursor=${first.body.page.nextCursor}`,
    );
    expect(second.body.data.map((rate) => rate.date)).toEqual(['2025-05-06', '2025-05-05']);
  });

  it('ends on the last page with a null cursor', async () => {
    const reply = await request<{ data: Rate[]; page: { nextCursor: string | null } }>(
      '/api/forex/rates/history?currency=USD&base=EUR&from=2025-05-08&limit=5',
    );
    expect(reply.body.data.map((rate) => rate.date)).toEqual(['2025-05-09', '2025-05-08']);
    expect(reply.body.page.nextCursor).toBeNull();
  });
});

describe('POST /api/forex/convert', () => {
  it('converts exactly at the rates of the date asked for and names them', async () => {
    // 2024-01-02: 1 EUR = 1.0956 USD = 155.68 JPY → $1,000.00 = ¥142,095.65… → ¥142,096
    const reply = await convert({ amount: { amount: 100_000, currency: 'USD' }, to: 'JPY', date: '2024-01-02' });
    expect(reply.status).toBe(200);
    expect(reply.body.data.to).toEqual({ amount: 142_096, currency: 'JPY' });
    expect(reply.body.data.rates).toEqual([
      { base: 'EUR', currency: 'USD', rate: 1.0956, date: '2024-01-02', source: 'European Central Bank' },
      { base: 'EUR', currency: 'JPY', rate: 155.68, date: '2024-01-02', source: 'European Central Bank' },
    ]);
  });

  it('uses the newest rate on or before a non-business day', async () => {
    // 2024-01-06 is a Saturday: the Friday 2024-01-05 rates apply.
    const reply = await convert({ amount: { amount: 100, currency: 'EUR' }, to: 'USD', date: '2024-01-06' });
    expect(reply.body.data.rates[0]?.date).toBe('2024-01-05');
  });

  it('rounds to the target minor units by the rule asked for', async () => {
    // €0.05 at 1.1252 = $0.05626 → 6 cents either way; €0.02 → $0.022504 → 2 cents, or 3 rounding up.
    const at = { to: 'USD', date: '2025-05-09' };
    expect((await convert({ amount: { amount: 2, currency: 'EUR' }, ...at })).body.data.to.amount).toBe(2);
    expect((await convert({ amount: { amount: 2, currency: 'EUR' }, ...at, rounding: 'up' })).body.data.to.amount).toBe(3);
    expect((await convert({ amount: { amount: -2, currency: 'EUR' }, ...at, rounding: 'down' })).body.data.to.amount).toBe(-2);
  });

  it('says when there is no reference rate for a currency', async () => {
    const reply = await request<ErrorBody>('/api/forex/convert', {
      method: 'POST',
      json: { amount: { amount: 100, currency: 'USD' }, to: 'AED' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('no_reference_rate');
    expect(reply.body.message).toMatch(/^No reference rate for AED on or before \d{4}-\d{2}-\d{2}$/);
    expect(reply.body.errors?.[0]?.field).toBe('body.to');
  });

  it('refuses dates before the euro existed', async () => {
    const reply = await request<ErrorBody>('/api/forex/convert', {
      method: 'POST',
      json: { amount: { amount: 100, currency: 'USD' }, to: 'EUR', date: '1998-12-31' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('No reference rate for USD on or before 1998-12-31');
  });
});
