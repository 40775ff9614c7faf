import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';

type Job = components['schemas']['BackgroundJob'];
type Result = components['schemas']['BenchmarkResult'];

const EXPLORER_REQUEST = {
  compensationTypes: ['base', 'total_cash', 'total_equity'],
  marketFilters: [
    { companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: ['840'], industries: ['ind_all'] },
    { companyStages: ['series_b', 'series_c'], companyOwnershipGroups: ['venture_backed'], locations: ['840_1'], industries: ['ind_technology'] },
  ],
  jobFamilies: ['software_engineering', 'product_management', 'bg_engineering'],
  levels: [
    { type: 'level', id: 'p2' },
    { type: 'level', id: 'p3' },
    { type: 'levelBlend', id: 'lb_p4_m4' },
  ],
  currency: 'USD',
};

let company: TestCompany;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Exporting Market Co');
  analyst = company.users.analyst as TestUser;
});

async function finished(user: TestUser, jobId: string): Promise<Job> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reply = await request<{ data: Job }>(`/api/background-jobs/${jobId}`, { headers: bearer(user) });
    if (['succeeded', 'failed', 'cancelled'].includes(reply.body.data.status)) return reply.body.data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${reply.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function exported(format: 'csv' | 'xlsx', body: object = EXPLORER_REQUEST): Promise<Response> {
  const started = await request<{ data: Job }>('/api/benchmarking/market-data/exports', { method: 'POST', headers: bearer(analyst), json: { format, request: body } });
  expect(started.status).toBe(202);
  const job = await finished(analyst, started.body.data.id);
  expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
  return fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(analyst) });
}

/** The request's two markets as the export names them, written out by hand. */
const MARKET_NAMES = ['United States', 'US Tier 1 · Series B, Series C · Venture-backed · Technology'];

/** What the explorer shows for a cell, keyed the way the export's rows are. */
function expectedRows(result: Result): Map<string, (number | null)[]> {
  const rows = new Map<string, (number | null)[]>();
  for (const cell of result.cells) {
    const key = [MARKET_NAMES[cell.marketFilterIndex], cell.jobFamilyId, cell.levelId, cell.compensationTypeId].join('|');
    // Amounts in major units at the currency's precision: dollars to the cent (the request is in USD).
    const cents = (value: number | undefined) => (value === undefined ? null : cell.unit === 'currency' ? Math.round(value * 100) / 100 : value);
    rows.set(key, result.percentiles.map((p) => cents(cell.percentiles?.find((v) => v.percentile === p)?.value)));
  }
  return rows;
}

describe('the data-explorer export', () => {
  it('writes an XLSX that, read back, equals the API results cell for cell', async () => {
    const api = await request<{ data: Result }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(analyst), json: EXPLORER_REQUEST });
    expect(api.status).toBe(200);
    const file = await exported('xlsx');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await file.arrayBuffer());
    const sheet = workbook.getWorksheet('Market data');
    if (!sheet) throw new Error('no Market data sheet');
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(-7)).toEqual(['P10', 'P25', 'P40', 'P50', 'P60', 'P75', 'P90']);
    const column = (name: string): number => header.indexOf(name) + 1;
    const read = new Map<string, (number | null)[]>();
    const labels: string[] = [];
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      const cell = (name: string) => row.getCell(column(name)).value;
      const key = [cell('Market'), cell('Job family'), cell('Level'), cell('Compensation type')].join('|');
      read.set(key, ['P10', 'P25', 'P40', 'P50', 'P60', 'P75', 'P90'].map((p) => (cell(p) as number | null) ?? null));
      labels.push(String(cell('Status')));
    }
    expect(api.body.data.cells.some((c) => c.status === 'published')).toBe(true);
    expect(read).toEqual(expectedRows(api.body.data));
    // Read as on screen: the header frozen, names beside the ids, dollars with two decimals and their code.
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const published = [...Array(sheet.rowCount - 1).keys()]
      .map((i) => sheet.getRow(i + 2))
      .find((row) => row.getCell(column('Job family')).value === 'software_engineering' && row.getCell(column('Compensation type')).value === 'base' && typeof row.getCell(column('P50')).value === 'number');
    expect(published?.getCell(column('P50')).numFmt).toBe('#,##0.00 "USD"');
    expect(published?.getCell(column('Job family name')).value).toBe('Software Engineering');
    expect(published?.getCell(column('Compensation type name')).value).toBe('Base salary');
    expect(published?.getCell(column('Level name')).value).toBe(String(published?.getCell(column('Level')).value).toUpperCase());
    expect(sheet.rowCount - 1).toBe(2 * 3 * 3 * 3);
    expect(labels.filter((l) => l === 'Insufficient data')).toHaveLength(api.body.data.cells.filter((c) => c.status === 'insufficient_data').length);
  });

  it('writes the same rows as CSV', async () => {
    const file = await exported('csv');
    const rows = parse(await file.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2 * 3 * 3 * 3);
    expect(rows[0]).toMatchObject({ Market: 'United States', 'Job family': 'software_engineering', Currency: 'USD' });
    expect(new Set(rows.map((row) => row.Market))).toEqual(new Set(MARKET_NAMES));
  });

  it('names each market by its location and filters, in UTF-8 with a byte-order mark', async () => {
    const twoMarkets = {
      compensationTypes: ['base'],
      marketFilters: [
        { companyStages: ['series_b'], companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: ['us_sf_bay_area'], industries: ['ind_all'] },
        { companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: ['us_raleigh', '826'], industries: ['ind_fin_fintech'] },
      ],
      jobFamilies: ['software_engineering'],
      levels: [{ type: 'level', id: 'p3' }],
      currency: 'USD',
    };
    const bytes = Buffer.from(await (await exported('csv', twoMarkets)).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3, 18).toString('utf8')).toBe('Release,Market,');
    const rows = parse(bytes, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((row) => row.Market)).toEqual(['San Francisco Bay Area · Series B', 'Raleigh–Durham, United Kingdom · Fintech']);
    // The en-dash of "Raleigh–Durham" is written as UTF-8 (E2 80 93), which the mark tells a spreadsheet to expect.
    expect(bytes.includes(Buffer.from([0xe2, 0x80, 0x93]))).toBe(true);
  });

  it('says in every row how sure its median is and which exchange rates converted it', async () => {
    const germanyInUsd = {
      compensationTypes: ['base'],
      marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: ['276'], industries: ['ind_all'] }],
      jobFamilies: ['software_engineering'],
      levels: [{ type: 'level', id: 'p3' }],
      currency: 'USD',
    };
    const api = (await request<{ data: Result }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(analyst), json: germanyInUsd })).body.data;
    const [row] = parse(await (await exported('csv', germanyInUsd)).text(), { columns: true }) as Record<string, string>[];
    expect(Number(row?.['Median error (95%)'])).toBeCloseTo(api.cells[0]?.medianUncertainty?.relativeError ?? NaN, 12);
    // The demo market is generated from end to end, and every row says so.
    expect(row?.['Demo share']).toBe('1');
    // The bundled ECB rates of 9 May 2025: 1 EUR = 1.1252 USD, so 1 USD = 0.888731 EUR.
    expect(row?.['Exchange rates']).toBe('1 USD = 0.888731 EUR (ECB 2025-05-09); older than 30 days');
    // Nothing converted, nothing named (the US in dollars).
    const [us] = parse(await (await exported('csv', { ...germanyInUsd, marketFilters: [{ ...germanyInUsd.marketFilters[0], locations: ['840'] }] })).text(), { columns: true }) as Record<string, string>[];
    expect(us?.['Exchange rates']).toBe('');
  });

  it('refuses an invalid request before starting a job, and people without the permission', async () => {
    const invalid = await request<ErrorBody>('/api/benchmarking/market-data/exports', { method: 'POST', headers: bearer(analyst), json: { format: 'csv', request: { ...EXPLORER_REQUEST, jobFamilies: [] } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([{ field: 'body.request.jobFamilies', message: 'Please select at least one job family' }]);
    const employee = await request<ErrorBody>('/api/benchmarking/market-data/exports', { method: 'POST', headers: bearer(company.users.employee as TestUser), json: { request: EXPLORER_REQUEST } });
    expect(employee.status).toBe(403);
  });
});
