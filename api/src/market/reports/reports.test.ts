import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../../test/http.js';
import type { components } from '../../contract-types.js';
import { EVERYWHERE_US, jobEnded } from '../test/requests.js';

type Schemas = components['schemas'];
type Job = Schemas['BackgroundJob'];

let company: TestCompany;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Reports Co');
  analyst = company.users.analyst as TestUser;
});

const reports = (user: TestUser = analyst) => request<{ data: Schemas['MarketDataReports'] }>('/api/benchmarking/market-data-reports', { headers: bearer(user) });

async function report(json: unknown): Promise<Response> {
  const started = await request<{ data: Job }>('/api/benchmarking/market-data-reports', { method: 'POST', headers: bearer(analyst), json });
  expect(started.status, JSON.stringify(started.body).slice(0, 300)).toBe(202);
  const job = await jobEnded(async () => (await request<{ data: Job }>(`/api/background-jobs/${started.body.data.id}`, { headers: bearer(analyst) })).body.data);
  expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
  return fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(analyst) });
}

describe('market-data reports', () => {
  it('list each published release with its reports', async () => {
    const reply = await reports();
    expect(reply.status).toBe(200);
    const serving = reply.body.data.releases.find((r) => r.serving);
    expect(serving?.reports.map((r) => `${r.report}.${r.format}`)).toEqual(['market_summary.csv', 'market_summary.xlsx', 'data_composition.csv', 'data_composition.xlsx']);
    expect(reply.body.data.files).toEqual([]);
  });

  it('write the market summary as XLSX: every family × level × comp type per location, the same numbers as the explorer, thin cells withheld', async () => {
    const releaseId = (await reports()).body.data.releases.find((r) => r.serving)?.releaseId;
    const file = await report({ releaseId, report: 'market_summary', format: 'xlsx' });
    expect(file.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await file.arrayBuffer());
    const sheet = workbook.getWorksheet('Market summary');
    if (!sheet) throw new Error('no Market summary sheet');
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    expect(header.slice(-3)).toEqual(['P25', 'P50', 'P75']);
    expect(sheet.rowCount - 1).toBe(29 * 16 * 3 * 7);
    const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) => Object.fromEntries(header.map((name, c) => [name, sheet.getRow(i + 2).getCell(c + 1).value])));
    const row = rows.find((r) => r.Location === '840' && r['Job family'] === 'software_engineering' && r.Level === 'p3' && r['Compensation type'] === 'base');
    const explorer = await request<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', {
      method: 'POST',
      headers: bearer(analyst),
      json: { compensationTypes: ['base'], marketFilters: [{ ...EVERYWHERE_US, founderTypes: ['founder', 'non_founder'] }], jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }], percentiles: [25, 50, 75] },
    });
    expect([row?.P25, row?.P50, row?.P75]).toEqual(explorer.body.data.cells[0]?.percentiles?.map((p) => p.value));
    const withheld = rows.filter((r) => r.Status === 'Insufficient data');
    expect(withheld.length).toBeGreaterThan(0);
    expect(withheld.every((r) => r.P25 === null && r.P50 === null && r.P75 === null)).toBe(true);
  });

  it('write the data composition as CSV, and list the files the company made', async () => {
    const releaseId = (await reports()).body.data.releases.find((r) => r.serving)?.releaseId;
    const file = await report({ releaseId, report: 'data_composition' });
    const rows = parse(await file.text(), { columns: true }) as Record<string, string>[];
    const composition = await request<{ data: Schemas['CompanyComposition'] }>('/api/benchmarking/data-composition/companies', { headers: bearer(analyst) });
    expect(rows[0]).toMatchObject({ Dimension: 'All', Companies: String(composition.body.data.companies), Employees: String(composition.body.data.employees) });
    expect(rows.filter((r) => r.Dimension === 'Industry').length).toBe(composition.body.data.industries.length);
    const listed = (await reports()).body.data.files;
    expect(listed.map((f) => f.kind)).toEqual(['marketDataReport', 'marketDataReport']);
    expect(listed[0]?.filename).toMatch(/^data-composition-.+\.csv$/);
    const other = await createTestCompany(await testDb(), 'Reports Neighbour');
    expect((await reports(other.users.analyst as TestUser)).body.data.files).toEqual([]);
  });

  it('are only for published releases and people who benchmark', async () => {
    const unknown = await request<ErrorBody>('/api/benchmarking/market-data-reports', { method: 'POST', headers: bearer(analyst), json: { releaseId: '0190c0de-0000-7000-8000-000000000000', report: 'market_summary' } });
    expect(unknown.status).toBe(404);
    const wrongKind = await request<ErrorBody>('/api/benchmarking/market-data-reports', { method: 'POST', headers: bearer(analyst), json: { releaseId: 'x', report: 'salaries_of_everyone' } });
    expect(wrongKind.body.errors).toEqual([{ field: 'body.report', message: 'must be one of: market_summary, data_composition' }]);
    expect((await reports(company.users.employee as TestUser)).status).toBe(403);
  });
});

describe('the marketing data composition', () => {
  it('shows prospects what the market covers in buckets and rounded totals, without signing in', async () => {
    const reply = await request<{ data: Schemas['MarketingComposition'] }>('/api/benchmarking/data-composition/marketing');
    expect(reply.status).toBe(200);
    const counted = await request<{ data: Schemas['CompanyComposition'] }>('/api/benchmarking/data-composition/companies', { headers: bearer(analyst) });
    const { companiesAtLeast, employeesAtLeast, industries, locations } = reply.body.data;
    // Both round the whole market down to two figures: 750 companies, 150,000 employees.
    expect([companiesAtLeast, employeesAtLeast]).toEqual([counted.body.data.companies, counted.body.data.employees]);
    expect(industries.length).toBe(counted.body.data.industries.length);
    expect(Object.keys(industries[0] ?? {}).sort()).toEqual(['companyBucket', 'employeeBucket', 'id', 'name']);
    expect(locations.map((l) => l.id)).toEqual(expect.arrayContaining(['840', '840_1', '124', '826']));
    expect(locations.some((l) => l.id === 'us_sf_bay_area')).toBe(false);
  });
});
