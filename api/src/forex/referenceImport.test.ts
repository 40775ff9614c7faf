import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, type Reply, request } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';
import type { components } from '../contract-types.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';

type ReferenceRatesImport = components['schemas']['ReferenceRatesImport'];
type RateTable = components['schemas']['ForexRateTable'];
type Rate = components['schemas']['ForexRate'];

const HEADER = 'Date,USD,JPY,GBP,';

/** Importing changes the reference rates every company sees, so these tests have a server of their own. */
describe('importing ECB reference rates', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let support: TestUser;
  let companyAdmin: TestUser;

  const upload = (csv: string, options: { dryRun?: boolean; user?: TestUser; contentType?: string } = {}): Promise<Reply<{ data: ReferenceRatesImport } & ErrorBody>> =>
    request(`/api/internal/forex/reference-rates${options.dryRun ? '?dryRun=true' : ''}`, {
      base: server.url,
      method: 'POST',
      headers: { ...bearer(options.user ?? support), 'content-type': options.contentType ?? 'text/csv' },
      body: csv,
    });
  const latestUsd = async () => (await request<{ data: RateTable }>('/api/forex/rates/latest?base=EUR', { base: server.url })).body.data.rates.find((rate) => rate.currency === 'USD');

  beforeAll(async () => {
    server = await startTestServer();
    const db = await testDb(server.env);
    support = await createTestUser(db, { companyId: null, internalAdmin: true });
    companyAdmin = (await createTestCompany(db)).users.admin as TestUser;
  });
  afterAll(() => server.stop());

  const newDays = [HEADER, '2025-05-13,1.1210,N/A,0.8431,', '2025-05-12,1.1200,163.9,,', '2025-05-09,1.2000,163.36,0.8477,'].join('\n');

  it('says what a file would change and writes nothing on a dry run', async () => {
    const reply = await upload(newDays, { dryRun: true });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      dryRun: true,
      days: 3,
      firstDate: '2025-05-09',
      lastDate: '2025-05-13',
      currencies: ['USD', 'JPY', 'GBP'],
      rates: 7,
      added: 4,
      corrected: 1,
      unchanged: 2,
    });
    expect(await latestUsd()).toMatchObject({ date: '2025-05-09', rate: 1.1252 });
  });

  it('adds new days and corrects changed rates', async () => {
    const reply = await upload(newDays);
    expect(reply.body.data).toMatchObject({ dryRun: false, added: 4, corrected: 1, unchanged: 2 });
    expect(await latestUsd()).toEqual({ base: 'EUR', currency: 'USD', rate: 1.121, date: '2025-05-13', source: 'European Central Bank' });
    const history = await request<{ data: Rate[] }>('/api/forex/rates/history?currency=USD&base=EUR&from=2025-05-09&to=2025-05-12', { base: server.url });
    expect(history.body.data.map((rate) => [rate.date, rate.rate])).toEqual([
      ['2025-05-12', 1.12],
      ['2025-05-09', 1.2],
    ]);
    const again = await upload(newDays);
    expect(again.body.data).toMatchObject({ added: 0, corrected: 0, unchanged: 7 });
  });

  it('refuses a file with any problem, naming every line, and writes nothing', async () => {
    const csv = [
      HEADER,
      '2025-05-14,1.1300,164.1,0.8440,',
      '2025-05-15,abc,164.2,-0.8,',
      '2025-5-16,1.13,164.3,0.84,',
      '2025-05-14,1.13,164.4,0.84,',
      '2025-05-17,1.13,164.5,0.84,7',
    ].join('\n');
    const reply = await upload(csv);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('The rates file has 5 problems; nothing was written.');
    expect(reply.body.errors).toEqual([
      { field: 'lines.3.USD', message: '"abc" is not a rate (a positive decimal, or N/A)' },
      { field: 'lines.3.GBP', message: '"-0.8" is not a rate (a positive decimal, or N/A)' },
      { field: 'lines.4.Date', message: '"2025-5-16" is not a date (YYYY-MM-DD)' },
      { field: 'lines.5.Date', message: '2025-05-14 is already on line 2' },
      { field: 'lines.6.column 5', message: 'has a value but no currency in the header' },
    ]);
    expect(await latestUsd()).toMatchObject({ date: '2025-05-13' });
  });

  it('checks the header', async () => {
    const reply = await upload('Datum,usd,EUR,GBP,GBP\n2025-05-14,1,1,1,1\n');
    expect(reply.body.errors).toEqual([
      { field: 'lines.1.Datum', message: 'the first column must be Date' },
      { field: 'lines.1.usd', message: 'is not a currency code (three capital letters)' },
      { field: 'lines.1.EUR', message: 'is the base of the table: every rate is units of a currency per euro' },
      { field: 'lines.1.GBP', message: 'appears twice' },
    ]);
    expect((await upload('Date,USD\n')).body.errors).toEqual([{ field: 'lines.1.Date', message: 'the file has no dated rows' }]);
  });

  it('takes the body as CSV only, and only from internal admins', async () => {
    const json = await upload(newDays, { contentType: 'application/json' });
    expect(json.status).toBe(415);
    expect(json.body.message).toBe('Send the request body as text/csv.');
    const empty = await upload('');
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'body', message: 'is required' }]);
    expect((await upload(newDays, { user: companyAdmin })).status).toBe(403);
  });

  it('converts market answers with rates it imports from the next request on, and stops calling them old', async () => {
    const admin = bearer(companyAdmin);
    const ukInUsd = {
      compensationTypes: ['base'],
      marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: ['826'], industries: ['ind_all'] }],
      jobFamilies: ['bg_engineering'],
      levels: [{ type: 'level', id: 'p3' }],
      currency: 'USD',
    };
    const ask = () => request<{ data: components['schemas']['BenchmarkResult'] }>('/api/benchmarking/market-data', { base: server.url, method: 'POST', headers: admin, json: ukInUsd });
    const before = await ask();
    expect(before.status).toBe(200);
    expect(before.body.data.exchangeRatesStale).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect((await upload([HEADER, `${today},1.2500,N/A,0.8000,`].join('\n'))).status).toBe(200);
    const after = await ask();
    // 1 EUR = 1.25 USD = 0.80 GBP: 1 USD = 0.64 GBP, both as of today.
    expect(after.body.data.exchangeRates).toEqual([
      { currency: 'GBP', perUsd: expect.closeTo(0.64, 9) as number, date: today, source: 'ECB euro reference rates' },
      { currency: 'USD', perUsd: 1, date: today, source: 'ECB euro reference rates' },
    ]);
    expect(after.body.data.exchangeRatesStale).toBe(false);
  });

  it('reads the ECB’s own history file, which the server already holds', async () => {
    const shipped = readFileSync(path.resolve(import.meta.dirname, '..', '..', 'reference-data', 'eurofxref-hist.csv'), 'utf8');
    const reply = await upload(shipped, { dryRun: true });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ days: 6747, firstDate: '1999-01-04', lastDate: '2025-05-09', added: 0 });
    expect(reply.body.data.currencies).toHaveLength(41);
    // The file's 2025-05-09 USD rate undoes the correction made above; nothing else differs.
    expect(reply.body.data.corrected).toBe(1);
  });
});
