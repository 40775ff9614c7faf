import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { jobEnded } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Job = Schemas['BackgroundJob'];
type BandImport = Schemas['BandImport'];
type Composite = Schemas['CompositeBenchmark'];

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function switchOnBands(db: Knex, companyId: string): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

const finished = jobEnded;

/** Whole dollars → cents. */
const usd = (dollars: number) => ({ amount: Math.round(dollars * 100), currency: 'USD' });

describe('surveys, market-data associations and composite benchmarks', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let analyst: TestUser;
  let outsider: TestUser;
  const ids = { engineer: '', designer: '', surveyA: '', surveyB: '', bls: '', plus5: '', anchor: '' };

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  const upload = (user: TestUser, kind: 'survey' | 'bands', body: string | Buffer, contentType = 'text/csv', filename = `${kind}.csv`) =>
    request<Data<Schemas['BandFile']> & ErrorBody>(`/api/bands/files?kind=${kind}&filename=${encodeURIComponent(filename)}`, {
      method: 'POST',
      headers: { ...bearer(user), 'content-type': contentType },
      body,
    });

  /** Starts an import, waits for its job and reads the import again. */
  async function imported(user: TestUser, url: string, json: unknown): Promise<BandImport> {
    const started = await call<Data<BandImport>>(user, url, { method: 'POST', json });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.data.status).toBe('queued');
    const job = await finished(user, started.body.data.jobId ?? '');
    expect(job.status).toBe('succeeded');
    const reread = await call<Data<BandImport>>(user, `/api/bands/imports/${started.body.data.id}`);
    expect(reread.status).toBe(200);
    return reread.body.data;
  }

  /** Creates a survey from CSV text through the import. */
  async function surveyFrom(csv: string, survey: Record<string, string>, mapping?: Record<string, string>): Promise<BandImport> {
    const file = await upload(admin, 'survey', csv);
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    return imported(admin, '/api/bands/survey-imports', { fileId: file.body.data.id, survey, ...(mapping ? { mapping } : {}) });
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Survey Co');
    admin = company.users.admin as TestUser;
    analyst = company.users.analyst as TestUser;
    await switchOnBands(db, company.id);
    const other = await createTestCompany(db, 'Other Survey Co');
    await switchOnBands(db, other.id);
    outsider = other.users.admin as TestUser;
    const zones = await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones');
    ids.anchor = zones.body.data[0]?.id ?? '';
    ids.plus5 = (await call<Data<Schemas['PayZone']>>(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'New York', differentialBp: 500, rules: [{ country: 'US', metros: ['New York'] }] } })).body.data.id;
    ids.engineer = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', jobCode: 'ENG-3' } })).body.data.id;
    ids.designer = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'design', levelId: 'p2', jobCode: 'DES-2' } })).body.data.id;
  });

  it('suggests a column mapping for a survey file and lists the fields', async () => {
    const fields = await call<Data<Schemas['SurveyField'][]>>(analyst, '/api/bands/survey-fields');
    expect(fields.status).toBe(200);
    expect(fields.body.data.slice(0, 2).map((field) => [field.field, field.required])).toEqual([
      ['jobCode', true],
      ['title', true],
    ]);
    const file = await upload(admin, 'survey', 'Survey Job Code,Job Title,Function,Base Salary P50,10th Percentile,Number of Incumbents,Notes\nX1,Engineer,Engineering,100000,80000,12,hello\n');
    expect(file.status).toBe(201);
    expect(file.body.data).toMatchObject({
      kind: 'survey',
      rowCount: 1,
      suggestedMapping: { jobCode: 'Survey Job Code', title: 'Job Title', family: 'Function', p10: '10th Percentile', p50: 'Base Salary P50', incumbentCount: 'Number of Incumbents' },
      missingRequiredFields: [],
    });
    expect(file.body.data.suggestedMapping).not.toHaveProperty('location');
    expect((await call(admin, `/api/bands/files/${file.body.data.id}`)).status).toBe(200);
    // Files are their uploader's.
    expect((await call(company.users.compensation_planner as TestUser, `/api/bands/files/${file.body.data.id}`)).status).not.toBe(200);
    expect((await upload(admin, 'survey', '')).status).toBe(400);
  });

  it('imports a survey all or nothing: a bad line among good ones writes nothing and names the line; a dry run writes nothing', async () => {
    const csv = ['Job code,Title,Family,Level,P25,P50,P75,Incumbents', 'A1,Software Engineer II,Software Engineering,L2,90000,"100,000.00",120000,40', 'A2,Designer,Design,L2,70000,80000,90000,12', 'A3,Broken,Design,L3,70000,seventy,90000,x', 'A1,Duplicate,Design,L2,,50000,,'].join('\n');
    const before = (await call<{ data: Schemas['Survey'][] }>(admin, '/api/bands/surveys')).body.data.length;
    const rejected = await surveyFrom(csv, { name: 'Radford 2025', provider: 'Radford', effectiveDate: '2025-01-01', currency: 'USD' });
    expect(rejected.status).toBe('rejected');
    expect(rejected.message).toBe('The file has 3 problems; nothing was written.');
    expect(rejected.errors).toEqual([
      { line: 4, column: 'P50', message: '"seventy" is not an amount' },
      { line: 4, column: 'Incumbents', message: '"x" is not a whole number' },
      { line: 5, column: 'Job code', message: '"A1" is already the code of line 2' },
    ]);
    expect(rejected.surveyId).toBeNull();
    expect((await call<{ data: Schemas['Survey'][] }>(admin, '/api/bands/surveys')).body.data.length).toBe(before);

    const good = csv.split('\n').slice(0, 3).join('\n');
    const dry = await (async () => {
      const file = await upload(admin, 'survey', good);
      return imported(admin, '/api/bands/survey-imports', { fileId: file.body.data.id, dryRun: true, survey: { name: 'Radford 2025', provider: 'Radford', effectiveDate: '2025-01-01', currency: 'USD' } });
    })();
    expect(dry).toMatchObject({ status: 'planned', dryRun: true, surveyId: null, plan: { dryRun: true, rows: 2, create: 2, update: 0, unchanged: 0 }, errors: [] });
    expect((await call<{ data: Schemas['Survey'][] }>(admin, '/api/bands/surveys')).body.data.length).toBe(before);

    const applied = await surveyFrom(good, { name: 'Radford 2025', provider: 'Radford', effectiveDate: '2025-01-01', currency: 'USD' });
    expect(applied).toMatchObject({ status: 'applied', plan: { create: 2 }, mapping: { jobCode: 'Job code', title: 'Title', family: 'Family', level: 'Level', p25: 'P25', p50: 'P50', p75: 'P75', incumbentCount: 'Incumbents' } });
    ids.surveyA = applied.surveyId ?? '';
    const survey = await call<Data<Schemas['SurveyDetail']>>(analyst, `/api/bands/surveys/${ids.surveyA}`);
    expect(survey.status).toBe(200);
    expect(survey.body.data).toMatchObject({ kind: 'imported', name: 'Radford 2025', provider: 'Radford', effectiveDate: '2025-01-01', currency: 'USD', jobCount: 2, filename: 'survey.csv', version: 1 });
    expect(survey.body.data.jobs[0]).toEqual({
      code: 'A1',
      title: 'Software Engineer II',
      family: 'Software Engineering',
      jobFamilyId: 'software_engineering',
      level: 'L2',
      location: null,
      p10: null,
      p25: usd(90_000),
      p50: usd(100_000),
      p75: usd(120_000),
      p90: null,
      incumbentCount: 40,
      companyCount: null,
    });
  });

  it('imports an XLSX survey with a mapping the caller confirms, and refuses a mapping that does not fit', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Survey');
    sheet.addRow(['Code', 'Name', 'Median', 'Unrelated']);
    sheet.addRow(['B1', 'Staff Engineer', 90_000, 'x']);
    sheet.addRow(['B2', 'Design Lead', 85_000.5, 'y']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const file = await upload(admin, 'survey', bytes, XLSX, 'b.xlsx');
    expect(file.status).toBe(201);
    expect(file.body.data.format).toBe('xlsx');
    const survey = { name: 'Pave 2026', provider: 'Pave', effectiveDate: '2026-01-01', currency: 'USD' };
    const refused = await call(admin, '/api/bands/survey-imports', { method: 'POST', json: { fileId: file.body.data.id, survey, mapping: { jobCode: 'Code', title: 'Nope', p50: 'Median' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'body.mapping.title', message: 'the file has no column "Nope"' }]);
    expect((await call(admin, '/api/bands/survey-imports', { method: 'POST', json: { fileId: file.body.data.id, survey: { ...survey, currency: 'XYZ' } } })).status).toBe(400);
    const done = await imported(admin, '/api/bands/survey-imports', { fileId: file.body.data.id, survey, mapping: { jobCode: 'Code', title: 'Name', p50: 'Median' } });
    expect(done.status).toBe('applied');
    ids.surveyB = done.surveyId ?? '';
    const jobs = (await call<Data<Schemas['SurveyDetail']>>(admin, `/api/bands/surveys/${ids.surveyB}`)).body.data.jobs;
    expect(jobs.map((job) => [job.code, job.p50])).toEqual([
      ['B1', usd(90_000)],
      ['B2', { amount: 8_500_050, currency: 'USD' }],
    ]);
  });

  it('adds the BLS national survey once, with the catalog family of each occupation and top-coded figures left out', async () => {
    const added = await call<Data<Schemas['Survey']>>(admin, '/api/bands/surveys/bls', { method: 'POST' });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ kind: 'bls', name: 'BLS OEWS national, May 2023', provider: 'U.S. Bureau of Labor Statistics', effectiveDate: '2023-05-12', currency: 'USD' });
    expect(added.body.data.jobCount).toBeGreaterThan(790);
    ids.bls = added.body.data.id;
    const again = await call(admin, '/api/bands/surveys/bls', { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('survey_exists');
    const jobs = (await call<Data<Schemas['SurveyDetail']>>(admin, `/api/bands/surveys/${ids.bls}`)).body.data.jobs;
    // From the file: Software Developers 77,020 / 101,200 / 132,270 / 167,540 / 208,620; Lawyers' p90 is "#" (≥ 239,200).
    expect(jobs.find((job) => job.code === '15-1252')).toMatchObject({ title: 'Software Developers', jobFamilyId: 'software_engineering', family: 'Software Engineering', p10: usd(77_020), p50: usd(132_270), p90: usd(208_620), incumbentCount: 1_656_880 });
    expect(jobs.find((job) => job.code === '23-1011')).toMatchObject({ title: 'Lawyers', p75: usd(217_360), p90: null });
    const list = await call<{ data: Schemas['Survey'][]; market: Schemas['MarketSurveySource'] | null }>(analyst, '/api/bands/surveys');
    expect(list.body.data.map((survey) => survey.kind).sort()).toEqual(['bls', 'imported', 'imported']);
    expect(list.body.market).toMatchObject({ kind: 'market', provider: 'Paybench', releaseVersion: expect.any(String) });
  });

  it('keeps a job’s associations under If-Match and refuses what points nowhere', async () => {
    const url = `/api/bands/jobs/${ids.engineer}/associations`;
    const first = await call<Data<Schemas['MarketAssociation']>>(admin, url, { method: 'POST', json: { survey: { surveyId: ids.surveyA, surveyJobCode: 'A1' }, weight: 2 } });
    expect(first.status).toBe(201);
    expect(first.headers.get('etag')).toBe('"1"');
    expect(first.body.data).toMatchObject({ kind: 'survey', survey: { surveyId: ids.surveyA, surveyName: 'Radford 2025', surveyJobCode: 'A1', surveyJobTitle: 'Software Engineer II' }, market: null, weight: 2, version: 1 });
    const second = await call<Data<Schemas['MarketAssociation']>>(admin, url, { method: 'POST', json: { survey: { surveyId: ids.surveyB, surveyJobCode: 'B1' }, weight: 5 } });
    expect(second.status).toBe(201);
    const duplicate = await call(admin, url, { method: 'POST', json: { survey: { surveyId: ids.surveyA, surveyJobCode: 'A1' } } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('association_exists');
    expect((await call(admin, url, { method: 'POST', json: { survey: { surveyId: ids.surveyA, surveyJobCode: 'ZZ' } } })).body.errors).toEqual([{ field: 'body.survey.surveyJobCode', message: 'is not a job code of Radford 2025' }]);
    expect((await call(admin, url, { method: 'POST', json: { survey: { surveyId: ids.surveyA, surveyJobCode: 'A1' }, market: { jobFamilyId: 'design', levelId: 'p2', locationId: '840' } } })).status).toBe(400);
    expect((await call(admin, url, { method: 'POST', json: { market: { jobFamilyId: 'design', levelId: 'p99', locationId: 'atlantis' } } })).body.errors).toEqual([
      { field: 'body.market.levelId', message: 'p99 is not a catalog level' },
      { field: 'body.market.locationId', message: 'atlantis is not a catalog location' },
    ]);
    expect((await call(analyst, url, { method: 'POST', json: { survey: { surveyId: ids.surveyB, surveyJobCode: 'B2' } } })).status).toBe(403);

    // Weight 5 → 1, at the version read; a stale version is 409 and changes nothing.
    const secondUrl = `${url}/${second.body.data.id}`;
    const changed = await call<Data<Schemas['MarketAssociation']>>(admin, secondUrl, { method: 'PATCH', ifMatch: 1, json: { weight: 1 } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe('"2"');
    expect(changed.body.data).toMatchObject({ weight: 1, version: 2 });
    const stale = await call(admin, secondUrl, { method: 'PATCH', ifMatch: 1, json: { weight: 9 } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect((await call(admin, secondUrl, { method: 'PATCH', json: { weight: 9 } })).status).toBe(428);
    const listed = await call<Data<Schemas['MarketAssociation'][]>>(analyst, url);
    expect(listed.body.data.map((row) => [row.survey?.surveyJobCode, row.weight])).toEqual([
      ['A1', 2],
      ['B1', 1],
    ]);
    // A survey in use is not deleted.
    const inUse = await call(admin, `/api/bands/surveys/${ids.surveyA}`, { method: 'DELETE' });
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('survey_in_use');
  });

  it('blends the sources by weight, each aged to the date at the stated rate, with each contribution shown', async () => {
    // Radford (2025-01-01): 100,000 × 1.03^(12/12) = 103,000 at weight 2; Pave (2026-01-01): 90,000 at 0 months, weight 1.
    // Blend = (2 × 103,000 + 90,000) ÷ 3 = 98,666.666… → 98,666.67 (the nearest cent, halves up).
    // New York, +5%: 98,666.67 × 1.05 = 103,600.0035 → 103,600.00.
    const reply = await call<Data<Composite>>(analyst, `/api/bands/jobs/${ids.engineer}/composite?date=2026-01-01&agingRateBp=300`);
    expect(reply.status).toBe(200);
    const composite = reply.body.data;
    expect(composite).toMatchObject({ companyJobId: ids.engineer, date: '2026-01-01', agingRateBp: 300, percentile: 50, currency: 'USD', anchor: { amount: 9_866_667, currency: 'USD' }, benchmarkCount: 2, exchangeRates: [] });
    expect(composite.contributions).toEqual([
      expect.objectContaining({ kind: 'survey', surveyId: ids.surveyA, surveyName: 'Radford 2025', surveyJobCode: 'A1', effectiveDate: '2025-01-01', months: 12, weight: 2, share: 0.6667, value: usd(100_000), converted: usd(100_000), aged: usd(103_000), included: true, reason: null }),
      expect.objectContaining({ kind: 'survey', surveyId: ids.surveyB, surveyJobCode: 'B1', effectiveDate: '2026-01-01', months: 0, weight: 1, share: 0.3333, value: usd(90_000), aged: usd(90_000), included: true }),
    ]);
    expect(composite.zones).toEqual([
      { payZoneId: ids.anchor, name: 'Everywhere', differentialBp: 0, benchmark: { amount: 9_866_667, currency: 'USD' } },
      { payZoneId: ids.plus5, name: 'New York', differentialBp: 500, benchmark: { amount: 10_360_000, currency: 'USD' } },
    ]);

    // Half a year at 3%: 100,000 × 1.03^0.5 = 101,488.916… → 101,488.92; aging backwards discounts.
    const half = (await call<Data<Composite>>(analyst, `/api/bands/jobs/${ids.engineer}/composite?date=2025-07-01&agingRateBp=300`)).body.data.contributions;
    expect(half[0]).toMatchObject({ months: 6, aged: usd(101_488.92) });
    expect(half[1]).toMatchObject({ months: -6, aged: { amount: Math.round(9_000_000 * 1.03 ** -0.5), currency: 'USD' } });

    // The company's rate is used when the request states none (3% until it is saved), and the saved one after.
    expect((await call<Data<Schemas['BandSettings']>>(analyst, '/api/bands/settings')).body.data).toEqual({ agingRateBp: 300, jobMatching: 'familyLevel', version: 0 });
    const saved = await call<Data<Schemas['BandSettings']>>(admin, '/api/bands/settings', { method: 'PUT', ifMatch: 0, json: { agingRateBp: 0 } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ agingRateBp: 0, jobMatching: 'familyLevel', version: 1 });
    expect((await call(admin, '/api/bands/settings', { method: 'PUT', ifMatch: 0, json: { agingRateBp: 100 } })).status).toBe(409);
    const flat = (await call<Data<Composite>>(analyst, `/api/bands/jobs/${ids.engineer}/composite?date=2026-01-01`)).body.data;
    // (2 × 100,000 + 90,000) ÷ 3 = 96,666.67
    expect(flat).toMatchObject({ agingRateBp: 0, anchor: usd(96_666.67) });
    expect((await call(admin, '/api/bands/settings', { method: 'PUT', ifMatch: 1, json: { agingRateBp: 300 } })).status).toBe(200);

    // Surveys publish no 40th percentile: nothing to blend, and it says why.
    const p40 = (await call<Data<Composite>>(analyst, `/api/bands/jobs/${ids.engineer}/composite?date=2026-01-01&percentile=40`)).body.data;
    expect(p40.anchor).toBeNull();
    expect(p40.benchmarkCount).toBe(0);
    expect(p40.contributions.map((part) => [part.included, part.reason])).toEqual([
      [false, 'The survey has no 40th percentile for this job'],
      [false, 'The survey has no 40th percentile for this job'],
    ]);
    expect((await call(analyst, `/api/bands/jobs/${ids.engineer}/composite?percentile=33`)).status).toBe(400);
  });

  it('takes market cells (a withheld one contributes nothing and is reported) and converts other currencies at named rates', async () => {
    const url = `/api/bands/jobs/${ids.designer}/associations`;
    // The market's median for design P2 in the US, as the data explorer gives it.
    const market = await call<Data<Schemas['BenchmarkResult']>>(admin, '/api/benchmarking/market-data', {
      method: 'POST',
      json: {
        compensationTypes: ['base'],
        marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'], locations: ['840'] }],
        jobFamilies: ['design'],
        levels: [{ type: 'level', id: 'p2' }],
        percentiles: [50],
        currency: 'USD',
      },
    });
    const cell = market.body.data.cells[0];
    expect(cell?.status).toBe('published');
    const value = cell?.percentiles?.[0]?.value ?? 0;
    expect((await call(admin, url, { method: 'POST', json: { market: { jobFamilyId: 'design', levelId: 'p2', locationId: '840' } } })).status).toBe(201);
    // A thin cell the market withholds: a tiny metro, one stage, one sub-industry.
    const thin = await call<Data<Schemas['MarketAssociation']>>(admin, url, {
      method: 'POST',
      json: { market: { jobFamilyId: 'design', levelId: 'p2', locationId: 'us_kansas_city', industryId: 'ind_all', companyStageIds: ['seed'] } },
    });
    expect(thin.status).toBe(201);
    expect(thin.body.data.market).toEqual({ jobFamilyId: 'design', levelId: 'p2', locationId: 'us_kansas_city', industryId: 'ind_all', companyStageIds: ['seed'] });
    // A survey in euros.
    const euro = await surveyFrom('Code,Title,P50\nE1,Designer,"80,000.00"\n', { name: 'Ravio 2026', provider: 'Ravio', effectiveDate: '2026-01-01', currency: 'EUR' });
    expect(euro.status).toBe('applied');
    expect((await call(admin, url, { method: 'POST', json: { survey: { surveyId: euro.surveyId, surveyJobCode: 'E1' } } })).status).toBe(201);

    const composite = (await call<Data<Composite>>(analyst, `/api/bands/jobs/${ids.designer}/composite?date=2026-01-01&agingRateBp=0`)).body.data;
    const [fromMarket, fromThin, fromEuro] = composite.contributions;
    expect(fromMarket).toMatchObject({ kind: 'market', included: true, value: usd(value), aged: usd(value), releaseVersion: market.body.data.releaseVersion, share: 0.5 });
    if (fromThin?.included) throw new Error('the thin cell was published; pick a thinner one');
    expect(fromThin).toMatchObject({ kind: 'market', included: false, reason: 'Insufficient data', share: null, aged: null });
    // 80,000 EUR at the reference rate the forex service names (the last on or before the date).
    const converted = await request<Data<{ to: { amount: number }; rates: Schemas['ForexRate'][] }>>('/api/forex/convert', { method: 'POST', json: { amount: { amount: 8_000_000, currency: 'EUR' }, to: 'USD', date: '2026-01-01' } });
    expect(fromEuro).toMatchObject({ kind: 'survey', value: { amount: 8_000_000, currency: 'EUR' }, converted: { amount: converted.body.data.to.amount, currency: 'USD' }, included: true, share: 0.5 });
    expect(composite.exchangeRates).toEqual(converted.body.data.rates);
    expect(composite.benchmarkCount).toBe(2);
    expect(composite.anchor?.amount).toBe(Math.round((Math.round(value * 100) + converted.body.data.to.amount) / 2));

    // All jobs at once.
    const all = await call<{ data: Composite[]; exchangeRates: Schemas['ForexRate'][] }>(analyst, '/api/bands/composites?date=2026-01-01&agingRateBp=0');
    expect(all.status).toBe(200);
    expect(all.body.data.map((entry) => entry.companyJobId).sort()).toEqual([ids.engineer, ids.designer].sort());
  });

  let setId = '';

  it('builds from the composite where a job has associations, records its parts, and evaluates against it', async () => {
    const unassociated = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p4' } })).body.data.id;
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: '2026', currency: 'USD', effectiveDate: '2026-01-01' } });
    setId = set.body.data.id;
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${setId}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 10 }, rounding: 100, agingRateBp: 300 } });
    expect(built.status).toBe(200);
    expect(built.body.data.fromComposites).toBe(2);
    expect(built.body.data.bandSet.philosophy).toMatchObject({ agingRateBp: 300 });
    const bands = built.body.data.bandSet.bands;
    const engineer = bands.find((band) => band.companyJobId === ids.engineer && band.payZoneId === ids.anchor);
    // 98,666.67 ± 10%, each to the nearest 100: 88,800 / 98,700 / 108,500.
    expect(engineer).toMatchObject({ min: usd(88_800), mid: usd(98_700), max: usd(108_500) });
    expect(engineer?.source).toMatchObject({ kind: 'composite', percentile: 50, targetDate: '2026-01-01', agingRateBp: 300, marketValue: 98_666.67, marketCurrency: 'USD', differentialBp: 0 });
    if (engineer?.source?.kind !== 'composite') throw new Error('not a composite source');
    expect(engineer.source.parts.map((part) => [part.surveyJobCode, part.aged, part.share])).toEqual([
      ['A1', 10_300_000, 0.6667],
      ['B1', 9_000_000, 0.3333],
    ]);
    // New York: 98,666.67 × 1.05 = 103,600.00 → mid 103,600.
    expect(bands.find((band) => band.companyJobId === ids.engineer && band.payZoneId === ids.plus5)?.mid).toEqual(usd(103_600));
    // The job without associations still comes from the market release.
    expect(bands.find((band) => band.companyJobId === unassociated)?.source?.kind).toBe('market');

    const evaluation = (await call<Data<Schemas['BandEvaluation']>>(analyst, `/api/bands/band-sets/${setId}/evaluation`)).body.data;
    const row = evaluation.bands.find((band) => band.bandId === engineer.id);
    // 98,700 ÷ 98,666.67 − 1 = 0.000338 → 0.0003.
    expect(row).toMatchObject({ benchmark: { amount: 9_866_667, currency: 'USD' }, benchmarkCount: 2, deltaFromBenchmark: 0.0003 });
    expect(evaluation.bands.find((band) => band.companyJobId === unassociated)?.benchmarkCount).toBe(1);
  });

  it('imports a bands file into a draft: the export’s columns, all or nothing with line numbers, a dry run that writes nothing', async () => {
    const started = await call<Data<Job>>(admin, `/api/bands/band-sets/${setId}/exports`, { method: 'POST', json: {} });
    const exported = await finished(admin, started.body.data.id);
    const text = await (await fetch(`${baseUrl()}/api/downloads/${exported.downloadId}`, { headers: bearer(admin) })).text();
    const lines = text.trim().split('\n');
    const header = lines[0] ?? '';
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    const before = (await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}`)).body.data;
    const engineerLine = rows.findIndex((row) => row['Job code'] === 'ENG-3' && row['Pay zone'] === 'Everywhere');
    expect(engineerLine).toBeGreaterThanOrEqual(0);

    // Change the engineer's anchor band; break another line (line 3 of the file: mid above max, an unknown zone).
    const edited = lines.map((line, at) => {
      if (at === engineerLine + 1) return line.replace(/,88800\.00,98700\.00,108500\.00,/, ',90000,100000,110000,');
      return line;
    });
    expect(edited.join('\n')).not.toBe(lines.join('\n'));
    const broken = [...edited, 'x,draft,DES-2,,,,,Nowhere,0,USD,1,3,2,,,', 'x,draft,NOPE-1,,,,,Everywhere,0,EUR,1,2,3,,,'];
    const bad = await upload(admin, 'bands', broken.join('\n'));
    expect(bad.status).toBe(201);
    expect(bad.body.data).toMatchObject({ kind: 'bands', suggestedMapping: null, missingRequiredFields: [] });
    const rejected = await imported(admin, `/api/bands/band-sets/${setId}/imports`, { fileId: bad.body.data.id });
    expect(rejected.status).toBe('rejected');
    const last = broken.length;
    expect(rejected.errors).toEqual([
      { line: last - 1, column: 'Pay zone', message: '"Nowhere" is not one of the company\'s pay zones' },
      { line: last - 1, column: 'Max', message: 'a band runs from its minimum through its midpoint to its maximum: min ≤ mid ≤ max' },
      { line: last, column: 'Job code', message: 'no company job has the job code "NOPE-1"' },
      { line: last, column: 'Currency', message: 'bands of Everywhere are in USD, not EUR' },
    ]);
    const unchanged = (await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}`)).body.data;
    expect(unchanged.version).toBe(before.version);
    expect(unchanged.bands).toEqual(before.bands);

    const good = await upload(admin, 'bands', edited.join('\n'));
    const dry = await imported(admin, `/api/bands/band-sets/${setId}/imports`, { fileId: good.body.data.id, dryRun: true });
    expect(dry).toMatchObject({ status: 'planned', plan: { dryRun: true, rows: rows.length, create: 0, update: 1, unchanged: rows.length - 1 } });
    expect((await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}`)).body.data.version).toBe(before.version);

    const applied = await imported(admin, `/api/bands/band-sets/${setId}/imports`, { fileId: good.body.data.id });
    expect(applied).toMatchObject({ status: 'applied', bandSetId: setId, plan: { dryRun: false, update: 1 } });
    const after = (await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}`)).body.data;
    expect(after.version).toBe(before.version + 1);
    const engineer = after.bands.find((band) => band.companyJobId === ids.engineer && band.payZoneId === ids.anchor);
    expect(engineer).toMatchObject({ min: usd(90_000), mid: usd(100_000), max: usd(110_000), source: null, version: 2 });
    // The benchmark stays: 100,000 ÷ 98,666.67 − 1 = 0.0135.
    const evaluation = (await call<Data<Schemas['BandEvaluation']>>(admin, `/api/bands/band-sets/${setId}/evaluation`)).body.data;
    expect(evaluation.bands.find((band) => band.bandId === engineer?.id)).toMatchObject({ benchmarkCount: 2, deltaFromBenchmark: 0.0135 });
    // Importing the same file again changes nothing.
    expect((await imported(admin, `/api/bands/band-sets/${setId}/imports`, { fileId: good.body.data.id })).plan).toMatchObject({ update: 0, unchanged: rows.length });

    // A file without the export's columns, a survey file, and a live set are refused before anything is queued.
    const headless = await upload(admin, 'bands', 'Job,Amount\nx,1\n');
    expect(headless.body.data.missingRequiredFields).toEqual(['Job code', 'Pay zone', 'Min', 'Mid', 'Max']);
    expect((await call(admin, `/api/bands/band-sets/${setId}/imports`, { method: 'POST', json: { fileId: headless.body.data.id } })).status).toBe(400);
    const surveyFile = await upload(admin, 'survey', header);
    expect((await call(admin, `/api/bands/band-sets/${setId}/imports`, { method: 'POST', json: { fileId: surveyFile.body.data.id } })).status).toBe(400);
    const published = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}/publish`, { method: 'POST', ifMatch: after.version, json: {} });
    expect(published.status).toBe(200);
    const live = await call(admin, `/api/bands/band-sets/${setId}/imports`, { method: 'POST', json: { fileId: good.body.data.id } });
    expect(live.status).toBe(400);
    expect(live.body.message).toBe('This band set is live; bands are imported into a draft (duplicate it first).');
  });

  it("answers 404 for another company's survey, association, file and import, and lists none of them", async () => {
    const association = (await call<Data<Schemas['MarketAssociation'][]>>(admin, `/api/bands/jobs/${ids.engineer}/associations`)).body.data[0];
    const file = await upload(admin, 'survey', 'Code,Title,P50\nZ,Z,1\n');
    const run = await call<Data<BandImport>>(admin, '/api/bands/survey-imports', { method: 'POST', json: { fileId: file.body.data.id, dryRun: true, survey: { name: 'Z', provider: 'Z', effectiveDate: '2026-01-01', currency: 'USD' } } });
    expect((await call(outsider, `/api/bands/surveys/${ids.surveyA}`)).status).toBe(404);
    expect((await call(outsider, `/api/bands/surveys/${ids.surveyA}`, { method: 'PATCH', ifMatch: 1, json: { name: 'Mine' } })).status).toBe(404);
    expect((await call(outsider, `/api/bands/surveys/${ids.bls}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(outsider, `/api/bands/jobs/${ids.engineer}/associations`)).status).toBe(404);
    expect((await call(outsider, `/api/bands/jobs/${ids.engineer}/associations/${association?.id}`, { method: 'PATCH', ifMatch: 1, json: { weight: 3 } })).status).toBe(404);
    expect((await call(outsider, `/api/bands/jobs/${ids.engineer}/composite`)).status).toBe(404);
    expect((await call(outsider, `/api/bands/files/${file.body.data.id}`)).status).toBe(404);
    expect((await call(outsider, `/api/bands/imports/${run.body.data.id}`)).status).toBe(404);
    // Their survey cannot be associated, nor their file imported.
    const theirs = (await call<Data<Schemas['CompanyJob']>>(outsider, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'design', levelId: 'p2' } })).body.data.id;
    expect((await call(outsider, `/api/bands/jobs/${theirs}/associations`, { method: 'POST', json: { survey: { surveyId: ids.surveyA, surveyJobCode: 'A1' } } })).status).toBe(400);
    expect((await call(outsider, '/api/bands/survey-imports', { method: 'POST', json: { fileId: file.body.data.id, survey: { name: 'Z', provider: 'Z', effectiveDate: '2026-01-01', currency: 'USD' } } })).status).toBe(400);
    const lists = await call<{ data: Schemas['Survey'][] }>(outsider, '/api/bands/surveys');
    expect(lists.body.data).toEqual([]);
    expect((await call<{ data: Composite[] }>(outsider, '/api/bands/composites')).body.data).toEqual([]);
  });

  it('renames a survey at the version read and deletes one no association uses', async () => {
    const renamed = await call<Data<Schemas['Survey']>>(admin, `/api/bands/surveys/${ids.bls}`, { method: 'PATCH', ifMatch: 1, json: { name: 'BLS 2023' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'BLS 2023', version: 2 });
    expect((await call(admin, `/api/bands/surveys/${ids.bls}`, { method: 'PATCH', ifMatch: 1, json: { name: 'Again' } })).status).toBe(409);
    const deleted = await call<Data<Schemas['Survey']>>(admin, `/api/bands/surveys/${ids.bls}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await call(admin, `/api/bands/surveys/${ids.bls}`)).status).toBe(404);
    expect((await call(admin, '/api/bands/surveys/bls', { method: 'POST' })).status).toBe(201);
  });
});

describe('saved survey mappings and replacing a survey’s jobs from a new file', () => {
  let db: Knex;
  let admin: TestUser;
  let analyst: TestUser;
  let outsider: TestUser;
  const ids = { mapping: '', survey: '', analystJob: '', pmJob: '', kept: '', dropped: '' };

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  async function uploadSurvey(csv: string): Promise<Schemas['BandFile']> {
    const reply = await request<Data<Schemas['BandFile']> & ErrorBody>('/api/bands/files?kind=survey&filename=mercer.csv', { method: 'POST', headers: { ...bearer(admin), 'content-type': 'text/csv' }, body: csv });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data;
  }

  /** Starts an import (new survey or replacement), waits for its job and reads the import again. */
  async function imported(url: string, json: unknown, ifMatch?: number): Promise<BandImport> {
    const started = await call<Data<BandImport>>(admin, url, { method: 'POST', json, ifMatch });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const job = await jobEnded(admin, started.body.data.jobId ?? '');
    expect(job.status).toBe('succeeded');
    return (await call<Data<BandImport>>(admin, `/api/bands/imports/${started.body.data.id}`)).body.data;
  }

  const surveyNow = async () => (await call<Data<Schemas['SurveyDetail']>>(analyst, `/api/bands/surveys/${ids.survey}`)).body.data;

  // Headers the suggestion reads no job code, title or percentile from: only a saved mapping reads them.
  const FIRST = ['Ref,Role,Mid', 'M1,Data Analyst,"100,000"', 'M2,Product Manager,80000', 'M3,Designer,60000'].join('\n');
  const MERCER = { jobCode: 'Ref', title: 'Role', p50: 'Mid' };
  const SURVEY = { name: 'Mercer 2025', provider: 'Mercer', effectiveDate: '2025-01-01', currency: 'USD' };

  beforeAll(async () => {
    db = await testDb();
    const company = await createTestCompany(db, 'Mapping Co');
    admin = company.users.admin as TestUser;
    analyst = company.users.analyst as TestUser;
    await switchOnBands(db, company.id);
    const other = await createTestCompany(db, 'Other Mapping Co');
    await switchOnBands(db, other.id);
    outsider = other.users.admin as TestUser;
    ids.analystJob = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'data_analytics', levelId: 'p3' } })).body.data.id;
    ids.pmJob = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'product_management', levelId: 'p2' } })).body.data.id;
  });

  it('saves a provider’s mapping once, changes it at the version read, and refuses an incomplete one', async () => {
    const saved = await call<Data<Schemas['SavedSurveyMapping']>>(admin, '/api/bands/survey-mappings', { method: 'POST', json: { provider: 'Mercer', mapping: { ...MERCER, p25: 'Mid' } } });
    expect(saved.status).toBe(400);
    expect(saved.body.errors).toEqual([{ field: 'body.mapping.p25', message: 'column "Mid" is already mapped to p50' }]);
    const incomplete = await call(admin, '/api/bands/survey-mappings', { method: 'POST', json: { provider: 'Mercer', mapping: { jobCode: 'Ref', p50: 'Mid' } } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors).toEqual([{ field: 'body.mapping.title', message: 'is required: name the column that holds it' }]);

    const created = await call<Data<Schemas['SavedSurveyMapping']>>(admin, '/api/bands/survey-mappings', { method: 'POST', json: { provider: 'Mercer', mapping: { jobCode: 'Ref', title: 'Role', p75: 'Mid' } } });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.body.data).toMatchObject({ provider: 'Mercer', mapping: { jobCode: 'Ref', title: 'Role', p75: 'Mid' }, version: 1 });
    ids.mapping = created.body.data.id;
    // The same provider in another case or spacing is the same provider.
    const twice = await call(admin, '/api/bands/survey-mappings', { method: 'POST', json: { provider: '  mercer ', mapping: MERCER } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'survey_mapping_exists', message: 'A mapping is already saved for mercer; change that one instead.' });
    expect((await call(analyst, '/api/bands/survey-mappings', { method: 'POST', json: { provider: 'Radford', mapping: MERCER } })).status).toBe(403);

    // The median, not the 75th percentile: at version 1. A second change at version 1 is 409, without If-Match 428.
    const url = `/api/bands/survey-mappings/${ids.mapping}`;
    const changed = await call<Data<Schemas['SavedSurveyMapping']>>(admin, url, { method: 'PATCH', ifMatch: 1, json: { mapping: MERCER } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe('"2"');
    expect(changed.body.data).toMatchObject({ mapping: MERCER, version: 2 });
    const stale = await call(admin, url, { method: 'PATCH', ifMatch: 1, json: { mapping: { ...MERCER, p50: 'Other' } } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect((await call(admin, url, { method: 'PATCH', json: { mapping: MERCER } })).status).toBe(428);
    const listed = await call<Data<Schemas['SavedSurveyMapping'][]>>(analyst, '/api/bands/survey-mappings');
    expect(listed.body.data).toEqual([expect.objectContaining({ id: ids.mapping, provider: 'Mercer', mapping: MERCER, version: 2 })]);
    // Another company sees none and reaches none.
    expect((await call<Data<unknown[]>>(outsider, '/api/bands/survey-mappings')).body.data).toEqual([]);
    expect((await call(outsider, url, { method: 'PATCH', ifMatch: 2, json: { mapping: MERCER } })).status).toBe(404);
    expect((await call(outsider, url, { method: 'DELETE' })).status).toBe(404);
  });

  it('reads the next file of the same provider through its saved mapping', async () => {
    const file = await uploadSurvey(FIRST);
    // The suggestion finds no job code, title or percentile among these headers…
    expect(file.suggestedMapping).not.toHaveProperty('jobCode');
    expect(file.missingRequiredFields).toEqual(['jobCode', 'title', 'p50']);
    // …so for another provider the file is refused before anything is queued (the positive control)…
    const otherProvider = await call(admin, '/api/bands/survey-imports', { method: 'POST', json: { fileId: file.id, survey: { ...SURVEY, provider: 'Radford' } } });
    expect(otherProvider.status).toBe(400);
    // …and for Mercer it is read through Mercer's saved mapping.
    const done = await imported('/api/bands/survey-imports', { fileId: file.id, survey: SURVEY });
    expect(done).toMatchObject({ status: 'applied', mapping: MERCER, plan: { create: 3 } });
    ids.survey = done.surveyId ?? '';
    expect((await surveyNow()).jobs.map((job) => [job.code, job.p50])).toEqual([
      ['M1', usd(100_000)],
      ['M2', usd(80_000)],
      ['M3', usd(60_000)],
    ]);
    ids.kept = (await call<Data<Schemas['MarketAssociation']>>(admin, `/api/bands/jobs/${ids.analystJob}/associations`, { method: 'POST', json: { survey: { surveyId: ids.survey, surveyJobCode: 'M1' }, weight: 2 } })).body.data.id;
    ids.dropped = (await call<Data<Schemas['MarketAssociation']>>(admin, `/api/bands/jobs/${ids.pmJob}/associations`, { method: 'POST', json: { survey: { surveyId: ids.survey, surveyJobCode: 'M2' } } })).body.data.id;
  });

  it('replaces a survey’s jobs all or nothing, keeping the associations whose job is still there and listing those that no longer match', async () => {
    const url = `/api/bands/surveys/${ids.survey}/imports`;
    const before = await surveyNow();
    expect(before).toMatchObject({ version: 1, jobCount: 3, effectiveDate: '2025-01-01', associationCount: 2 });

    // A bad line: nothing changes — jobs, version and both associations as they were.
    const bad = await uploadSurvey(['Ref,Role,Mid', 'M1,Data Analyst,110000', 'M3,Designer,sixty', 'M4,Engineer,120000'].join('\n'));
    const rejected = await imported(url, { fileId: bad.id, effectiveDate: '2026-01-01' }, 1);
    expect(rejected).toMatchObject({ status: 'rejected', surveyId: ids.survey, errorCount: 1, message: 'The file has 1 problem; nothing was written.' });
    expect(rejected.errors).toEqual([{ line: 3, column: 'Mid', message: '"sixty" is not an amount' }]);
    expect(await surveyNow()).toEqual(before);
    expect((await call<Data<Schemas['MarketAssociation'][]>>(admin, `/api/bands/jobs/${ids.pmJob}/associations`)).body.data.map((row) => row.id)).toEqual([ids.dropped]);

    // The 2026 file: M1 changes (100,000 → 110,000), M3 stays, M4 is new, M2 is gone.
    const next = await uploadSurvey(['Ref,Role,Mid', 'M1,Data Analyst,110000', 'M3,Designer,60000', 'M4,Engineer,120000'].join('\n'));
    const dropped = { associationId: ids.dropped, companyJobId: ids.pmJob, companyJobTitle: 'Product Management P2', surveyJobCode: 'M2', surveyJobTitle: 'Product Manager', weight: 1 };
    const dry = await imported(url, { fileId: next.id, effectiveDate: '2026-01-01', dryRun: true }, 1);
    expect(dry).toMatchObject({ status: 'planned', surveyId: ids.survey, mapping: MERCER });
    expect(dry.plan).toEqual({ dryRun: true, rows: 3, create: 1, update: 1, unchanged: 1, remove: 1, unmatchedAssociations: [dropped] });
    expect(await surveyNow()).toEqual(before);

    // A stale version is refused before anything is queued; so is the BLS survey.
    const stale = await call(admin, url, { method: 'POST', ifMatch: 7, json: { fileId: next.id } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect((await call(admin, url, { method: 'POST', json: { fileId: next.id } })).status).toBe(428);
    const bls = await call<Data<Schemas['Survey']>>(admin, '/api/bands/surveys/bls', { method: 'POST' });
    const blsReplace = await call(admin, `/api/bands/surveys/${bls.body.data.id}/imports`, { method: 'POST', ifMatch: 1, json: { fileId: next.id } });
    expect(blsReplace.status).toBe(400);
    expect(blsReplace.body.message).toBe('The BLS survey is the file the product ships; it is not replaced from a file.');
    expect((await call(outsider, url, { method: 'POST', ifMatch: 1, json: { fileId: next.id } })).status).toBe(404);

    const applied = await imported(url, { fileId: next.id, effectiveDate: '2026-01-01' }, 1);
    expect(applied).toMatchObject({ status: 'applied', surveyId: ids.survey, plan: { dryRun: false, create: 1, update: 1, unchanged: 1, remove: 1, unmatchedAssociations: [dropped] } });
    const after = await surveyNow();
    expect(after).toMatchObject({ id: ids.survey, name: 'Mercer 2025', version: 2, jobCount: 3, effectiveDate: '2026-01-01', associationCount: 1 });
    expect(after.jobs.map((job) => [job.code, job.p50])).toEqual([
      ['M1', usd(110_000)],
      ['M3', usd(60_000)],
      ['M4', usd(120_000)],
    ]);
    // The analyst's association to M1 stays and prices with the new figure; the product manager's to M2 is gone.
    expect((await call<Data<Schemas['MarketAssociation'][]>>(admin, `/api/bands/jobs/${ids.analystJob}/associations`)).body.data).toEqual([expect.objectContaining({ id: ids.kept, weight: 2, survey: expect.objectContaining({ surveyJobCode: 'M1' }) })]);
    expect((await call<Data<unknown[]>>(admin, `/api/bands/jobs/${ids.pmJob}/associations`)).body.data).toEqual([]);
    const composite = (await call<Data<Composite>>(analyst, `/api/bands/jobs/${ids.analystJob}/composite?date=2026-01-01&agingRateBp=0`)).body.data;
    expect(composite).toMatchObject({ anchor: usd(110_000), benchmarkCount: 1 });
    expect(composite.contributions[0]).toMatchObject({ effectiveDate: '2026-01-01', months: 0, value: usd(110_000) });
  });

  it('forgets a saved mapping', async () => {
    const removed = await call<Data<Schemas['SavedSurveyMapping']>>(admin, `/api/bands/survey-mappings/${ids.mapping}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await call<Data<unknown[]>>(admin, '/api/bands/survey-mappings')).body.data).toEqual([]);
    // Without it, Mercer's headers are no longer read: the same kind of file is refused.
    const file = await uploadSurvey(FIRST);
    expect((await call(admin, '/api/bands/survey-imports', { method: 'POST', json: { fileId: file.id, survey: SURVEY } })).status).toBe(400);
  });
});
