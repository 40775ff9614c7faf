import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { jobEnded } from '../../test/waiting.js';
import type { components } from '../contract-types.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Job = Schemas['BackgroundJob'];

async function switchOnBands(db: Knex, companyId: string): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

const finished = jobEnded;

describe('the band set export job', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let setId = '';
  let releaseVersion = '';

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  async function exportAs(user: TestUser, body: Record<string, unknown> | undefined): Promise<{ job: Job; file: Response }> {
    const started = await call<Data<Job>>(user, `/api/bands/band-sets/${setId}/exports`, { method: 'POST', json: body });
    expect(started.status).toBe(202);
    expect(started.body.data.type).toBe('bandsExport');
    const job = await finished(user, started.body.data.id);
    expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
    return { job, file: await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(user) }) };
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Band Export Co');
    admin = company.users.admin as TestUser;
    await switchOnBands(db, company.id);
    expect((await call(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'United Kingdom', differentialBp: -1050, rules: [{ country: 'GB' }] } })).status).toBe(201);
    const job = await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', title: '=HYPERLINK("x")', jobCode: 'ENG-3' } });
    expect(job.status).toBe(201);
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Bands 2026', currency: 'USD', effectiveDate: '2026-01-01' } });
    setId = set.body.data.id;
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${setId}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status).toBe(200);
    const bands = built.body.data.bandSet.bands;
    expect(bands).toHaveLength(2);
    const zones = (await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones')).body.data;
    const uk = zones.find((zone) => zone.name === 'United Kingdom');
    const edited = bands.find((band) => band.payZoneId === uk?.id);
    if (!edited) throw new Error('no UK band');
    const source = bands.find((band) => band.id !== edited.id)?.source;
    releaseVersion = source?.kind === 'market' ? source.releaseVersion : '';
    const patched = await call(admin, `/api/bands/band-sets/${setId}/bands/${edited.id}`, {
      method: 'PATCH',
      ifMatch: edited.version,
      json: { min: { amount: 9_876_505, currency: 'USD' }, mid: { amount: 11_000_050, currency: 'USD' }, max: { amount: 12_345_600, currency: 'USD' } },
    });
    expect(patched.status).toBe(200);
  });

  it('writes one row per band as CSV: exact major units, the market source, a formula-looking title neutralised', async () => {
    const { job, file } = await exportAs(admin, undefined);
    expect(job.message).toBeDefined();
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    const text = await file.text();
    expect(text.split('\n')[0]).toBe('Band set,Status,Job code,Job title,Job family,Level,Track,Pay zone,Differential %,Currency,Min,Mid,Max,Market percentile,Market value,Market release,Grade,Bonus target %,Bonus min %,Bonus max %,Variable target,Equity unit,Equity min,Equity mid,Equity max');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    const uk = rows.find((row) => row['Pay zone'] === 'United Kingdom');
    expect(uk).toEqual({
      'Band set': 'Bands 2026',
      Status: 'draft',
      'Job code': 'ENG-3',
      'Job title': `'=HYPERLINK("x")`,
      'Job family': 'Software Engineering',
      Level: 'P3 (Career)',
      Track: 'Professional',
      'Pay zone': 'United Kingdom',
      'Differential %': '-10.5',
      Currency: 'USD',
      Min: '98765.05',
      Mid: '110000.50',
      Max: '123456.00',
      'Market percentile': '',
      'Market value': '',
      'Market release': '',
      Grade: '',
      'Bonus target %': '',
      'Bonus min %': '',
      'Bonus max %': '',
      'Variable target': '',
      'Equity unit': '',
      'Equity min': '',
      'Equity mid': '',
      'Equity max': '',
    });
    const anchor = rows.find((row) => row['Pay zone'] !== 'United Kingdom');
    expect(anchor).toMatchObject({ 'Differential %': '0', 'Market percentile': '50', 'Market release': releaseVersion });
    expect(Number(anchor?.['Market value'])).toBeGreaterThan(0);
    expect(anchor?.Mid).toMatch(/^\d+\.00$/);
  });

  it('writes XLSX with amounts as numbers and the title as plain text', async () => {
    const { file } = await exportAs(admin, { format: 'xlsx' });
    expect(file.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await file.arrayBuffer());
    const sheet = workbook.getWorksheet('Salary bands');
    if (!sheet) throw new Error('no sheet');
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const rows = [2, 3].map((at) => (sheet.getRow(at).values as unknown[]).slice(1));
    const uk = rows.find((row) => row[header.indexOf('Pay zone')] === 'United Kingdom');
    expect(uk?.[header.indexOf('Min')]).toBe(98765.05);
    expect(uk?.[header.indexOf('Max')]).toBe(123456);
    expect(uk?.[header.indexOf('Job title')]).toBe('=HYPERLINK("x")');
  });

  it('answers 404 for another company’s set and 403 without the bands permission, queueing nothing', async () => {
    const other = await createTestCompany(db, 'Other Band Co');
    await switchOnBands(db, other.id);
    const outsider = other.users.admin as TestUser;
    expect((await call(outsider, `/api/bands/band-sets/${setId}/exports`, { method: 'POST', json: {} })).status).toBe(404);
    const manager = company.users.people_manager as TestUser;
    expect((await call(manager, `/api/bands/band-sets/${setId}/exports`, { method: 'POST', json: {} })).status).toBe(403);
    expect((await call(admin, `/api/bands/band-sets/${setId}/exports`, { method: 'POST', json: { format: 'pdf' } })).status).toBe(400);
    for (const user of [outsider, manager]) {
      const jobs = await call<Data<Job[]>>(user, '/api/me/background-jobs', { method: 'POST', json: {} });
      expect(jobs.status).toBe(200);
      expect(jobs.body.data.filter((job) => job.type === 'bandsExport')).toEqual([]);
    }
  });
  it('writes a zone paid in its own currency in that currency: its amounts and its market value in pounds', async () => {
    const uk = (await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones')).body.data.find((zone) => zone.name === 'United Kingdom') as Schemas['PayZone'];
    expect((await call(admin, `/api/bands/pay-zones/${uk.id}`, { method: 'PATCH', ifMatch: uk.version, json: { currency: 'GBP' } })).status).toBe(200);
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Local 2026', currency: 'USD', effectiveDate: '2026-01-01' } });
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status).toBe(200);
    const band = built.body.data.bandSet.bands.find((candidate) => candidate.payZoneId === uk.id) as Schemas['Band'];
    expect(band.mid.currency).toBe('GBP');
    const started = await call<Data<Job>>(admin, `/api/bands/band-sets/${set.body.data.id}/exports`, { method: 'POST', json: { format: 'csv' } });
    const job = await finished(admin, started.body.data.id);
    const text = await (await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(admin) })).text();
    const row = (parse(text, { columns: true }) as Record<string, string>[]).find((candidate) => candidate['Pay zone'] === 'United Kingdom');
    const pounds = (amount: number) => (amount / 100).toFixed(2);
    expect(row).toMatchObject({ Currency: 'GBP', Min: pounds(band.min.amount), Mid: pounds(band.mid.amount), Max: pounds(band.max.amount) });
    // The market figure in dollars at the rate the band records, to the penny.
    const source = band.source?.kind === 'market' ? band.source : null;
    expect(source?.conversion?.currency).toBe('GBP');
    expect(Number(row?.['Market value'])).toBe(Number(((source?.marketValue ?? 0) * (source?.conversion?.rate ?? 0)).toFixed(2)));
    expect((await call(admin, `/api/bands/pay-zones/${uk.id}`, { method: 'PATCH', ifMatch: uk.version + 1, json: { currency: null } })).status).toBe(200);
  });
});
