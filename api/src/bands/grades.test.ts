import { parse } from 'csv-parse/sync';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { jobEnded } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type BandSetDetail = Schemas['BandSetDetail'];
type Evaluation = Schemas['BandEvaluation'];
type BandImport = Schemas['BandImport'];

/** Whole dollars → cents. */
const usd = (dollars: number) => ({ amount: Math.round(dollars * 100), currency: 'USD' });

/*
 * Comp grades and grade bands, and a band's variable / bonus / equity ranges. Zones: the catch-all
 * anchor "Everywhere" and "US" (country US, differential 0). Jobs: Software Engineering P3 and P4,
 * both graded G5; P4 gets a band of its own, P3 is priced by G5's band.
 */
describe('comp grades, grade bands and band ranges', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  const ids = { us: '', g5: '', g6: '', p3: '', p4: '', set: '', gradeBand: '', ada: '', bo: '' };

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  const readSet = async () => (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${ids.set}`)).body.data;

  async function importBands(csv: string, dryRun = false): Promise<BandImport> {
    const file = await request<Data<Schemas['BandFile']> & ErrorBody>('/api/bands/files?kind=bands&filename=bands.csv', { method: 'POST', headers: { ...bearer(admin), 'content-type': 'text/csv' }, body: csv });
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    const started = await call<Data<BandImport>>(admin, `/api/bands/band-sets/${ids.set}/imports`, { method: 'POST', json: { fileId: file.body.data.id, dryRun } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect((await jobEnded(admin, started.body.data.jobId ?? '')).status).toBe('succeeded');
    return (await call<Data<BandImport>>(admin, `/api/bands/imports/${started.body.data.id}`)).body.data;
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Grades Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const us = await call<Data<Schemas['PayZone']>>(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'US', rules: [{ country: 'US' }] } });
    expect(us.status, JSON.stringify(us.body)).toBe(201);
    ids.us = us.body.data.id;
    ids.p3 = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', jobCode: 'SE3' } })).body.data.id;
    ids.p4 = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p4', jobCode: 'SE4' } })).body.data.id;
    ids.ada = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Graded', levelId: 'p3', locationId: 'us_new_york' });
    await insertPay(db, company.id, ids.ada, [{ type: 'base_salary', amount: 10_800_000, effectiveDate: '2024-01-01' }]);
    ids.bo = await insertEmployee(db, company.id, { firstName: 'Bo', lastName: 'Banded', levelId: 'p4', locationId: 'us_new_york' });
    await insertPay(db, company.id, ids.bo, [{ type: 'base_salary', amount: 15_000_000, effectiveDate: '2024-01-01' }]);
    const set = await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Graded bands', currency: 'USD', effectiveDate: '2026-01-01' } });
    expect(set.status).toBe(201);
    ids.set = set.body.data.id;
  });

  it('keeps grades with a unique key, in their order, changed at the version read', async () => {
    const g5 = await call<Data<Schemas['CompGrade']>>(admin, '/api/bands/grades', { method: 'POST', json: { key: 'G5', name: 'Grade 5', order: 5 } });
    expect(g5.status, JSON.stringify(g5.body)).toBe(201);
    expect(g5.body.data).toMatchObject({ key: 'G5', name: 'Grade 5', order: 5, jobCount: 0, version: 1 });
    ids.g5 = g5.body.data.id;
    const g6 = await call<Data<Schemas['CompGrade']>>(admin, '/api/bands/grades', { method: 'POST', json: { key: 'G6' } });
    expect(g6.body.data).toMatchObject({ key: 'G6', name: 'G6', order: 6 });
    ids.g6 = g6.body.data.id;
    const twice = await call(admin, '/api/bands/grades', { method: 'POST', json: { key: 'g5' } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'grade_exists', message: 'There is already a grade “g5”.' });

    const renamed = await call<Data<Schemas['CompGrade']>>(admin, `/api/bands/grades/${ids.g6}`, { method: 'PATCH', ifMatch: 1, json: { name: 'Grade 6' } });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get('etag')).toBe('"2"');
    const stale = await call(admin, `/api/bands/grades/${ids.g6}`, { method: 'PATCH', ifMatch: 1, json: { name: 'Stale' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect((await call(admin, `/api/bands/grades/${ids.g6}`, { method: 'PATCH', json: { name: 'No version' } })).status).toBe(428);
    const list = await call<Data<Schemas['CompGrade'][]>>(admin, '/api/bands/grades');
    expect(list.body.data.map((grade) => [grade.key, grade.name, grade.order])).toEqual([
      ['G5', 'Grade 5', 5],
      ['G6', 'Grade 6', 6],
    ]);
  });

  it('assigns grades to company jobs; a grade in use is not deleted', async () => {
    for (const jobId of [ids.p3, ids.p4]) {
      const job = (await call<Data<Schemas['CompanyJob'][]>>(admin, '/api/bands/jobs')).body.data.find((entry) => entry.id === jobId);
      const graded = await call<Data<Schemas['CompanyJob']>>(admin, `/api/bands/jobs/${jobId}`, { method: 'PATCH', ifMatch: job?.version, json: { gradeId: ids.g5 } });
      expect(graded.status, JSON.stringify(graded.body)).toBe(200);
      expect(graded.body.data).toMatchObject({ gradeId: ids.g5, gradeKey: 'G5' });
    }
    const foreign = await call(admin, `/api/bands/jobs/${ids.p3}`, { method: 'PATCH', ifMatch: 2, json: { gradeId: '01900000-0000-7000-8000-000000000000' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([{ field: 'body.gradeId', message: 'is not a grade of the company' }]);
    expect((await call<Data<Schemas['CompGrade'][]>>(admin, '/api/bands/grades')).body.data[0]?.jobCount).toBe(2);
    const inUse = await call(admin, `/api/bands/grades/${ids.g5}`, { method: 'DELETE' });
    expect(inUse.status).toBe(409);
    expect(inUse.body).toMatchObject({ code: 'grade_in_use', message: '2 company jobs use grade “G5”; take it off them first.' });
    const unused = await call<Data<Schemas['CompGrade']>>(admin, `/api/bands/grades/${ids.g6}`, { method: 'DELETE' });
    expect(unused.status).toBe(200);
  });

  it('adds a grade band from a midpoint and a width: spread 40% around 120,000 → 100,000 / 120,000 / 140,000', async () => {
    const created = await call<Data<Schemas['GradeBand']>>(admin, `/api/bands/band-sets/${ids.set}/grade-bands`, {
      method: 'POST',
      json: { gradeId: ids.g5, payZoneId: ids.us, mid: usd(120_000), width: { kind: 'spread', percent: 40 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // min = 2 × 120,000 ÷ 2.4 = 100,000; max = 100,000 × 1.4 = 140,000.
    expect(created.body.data).toMatchObject({ gradeId: ids.g5, gradeKey: 'G5', payZoneId: ids.us, min: usd(100_000), mid: usd(120_000), max: usd(140_000), ranges: null, version: 1 });
    ids.gradeBand = created.body.data.id;
    const twice = await call(admin, `/api/bands/band-sets/${ids.set}/grade-bands`, { method: 'POST', json: { gradeId: ids.g5, payZoneId: ids.us, mid: usd(1), min: usd(1), max: usd(1) } });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('grade_band_exists');
    const inverted = await call(admin, `/api/bands/band-sets/${ids.set}/grade-bands/${ids.gradeBand}`, { method: 'PATCH', ifMatch: 1, json: { min: usd(130_000), mid: usd(120_000), max: usd(140_000) } });
    expect(inverted.status).toBe(400);
    expect(inverted.body.message).toBe('A band runs from its minimum through its midpoint to its maximum: min ≤ mid ≤ max.');
    expect((await readSet()).gradeBands.map((band) => [band.gradeKey, band.min.amount, band.mid.amount, band.max.amount])).toEqual([['G5', 10_000_000, 12_000_000, 14_000_000]]);
  });

  it('imports a job band with its ranges beside the grade band; the grade prices the job without a band of its own', async () => {
    // P4 gets its own band in US; "Everywhere" gets a G5 band from the file too.
    const csv = [
      'Job code,Pay zone,Currency,Min,Mid,Max,Grade,Bonus target %,Bonus min %,Bonus max %,Variable target,Equity unit,Equity min,Equity mid,Equity max',
      'SE4,US,USD,130000,150000,170000,G5,15,10,20,22500,shares,800,1000,1200',
      ',Everywhere,USD,90000,110000,130000,G5,,,,,,,,',
    ].join('\n');
    const bad = await importBands(csv.replace('shares,800,1000,1200', 'shares,1300,1000,1200').replace(',Everywhere,', ',Nowhere,'));
    expect(bad.status).toBe('rejected');
    expect(bad.errors).toEqual([
      { line: 2, column: 'Equity mid', message: 'An equity range runs from its minimum through its midpoint to its maximum: min ≤ mid ≤ max.' },
      { line: 3, column: 'Pay zone', message: '"Nowhere" is not one of the company\'s pay zones' },
    ]);
    expect((await readSet()).bands).toHaveLength(0);

    const applied = await importBands(csv);
    expect(applied).toMatchObject({ status: 'applied', plan: { create: 2, update: 0, unchanged: 0 } });
    const set = await readSet();
    expect(set.bands).toHaveLength(1);
    expect(set.bands[0]).toMatchObject({
      companyJobId: ids.p4,
      min: usd(130_000),
      ranges: { bonusTargetPercent: { target: 15, min: 10, max: 20 }, variableTarget: usd(22_500), equity: { unit: 'shares', min: 800, mid: 1000, max: 1200, percentile: null } },
    });
    // G5's band in US (added above) and in Everywhere (from the file).
    const gradeBand = (zone: 'US' | 'Everywhere') => set.gradeBands.find((band) => (band.payZoneId === ids.us) === (zone === 'US'));
    expect(set.gradeBands).toHaveLength(2);
    expect(gradeBand('US')).toMatchObject({ gradeKey: 'G5', min: usd(100_000), mid: usd(120_000), max: usd(140_000) });
    expect(gradeBand('Everywhere')).toMatchObject({ gradeKey: 'G5', min: usd(90_000), mid: usd(110_000), max: usd(130_000), ranges: null });

    // Ada (P3, 108,000, US) has no job band: G5's US band prices her. 108 ÷ 120 = 0.9; (108 − 100) ÷ (140 − 100) = 0.2.
    // Bo (P4, 150,000, US) is priced by P4's own band: 150 ÷ 150 = 1; (150 − 130) ÷ 40 = 0.5.
    const evaluation = await call<Data<Evaluation>>(admin, `/api/bands/band-sets/${ids.set}/evaluation`);
    expect(evaluation.status, JSON.stringify(evaluation.body)).toBe(200);
    const entry = (id: string) => evaluation.body.data.employees.find((employee) => employee.employeeId === id);
    expect(entry(ids.ada)).toMatchObject({ bandId: ids.gradeBand, payZoneId: ids.us, source: 'grade', base: usd(108_000), compaRatio: 0.9, rangePenetration: 0.2, position: 'inside' });
    expect(entry(ids.bo)).toMatchObject({ bandId: set.bands[0]?.id, source: 'job', compaRatio: 1, rangePenetration: 0.5 });
    expect(evaluation.body.data.gradeBands.find((band) => band.gradeBandId === ids.gradeBand)).toEqual({
      gradeBandId: ids.gradeBand,
      gradeId: ids.g5,
      payZoneId: ids.us,
      employeeCount: 1,
      spread: 0.4,
      // Entered by hand: no benchmark to measure it against.
      benchmark: null,
      benchmarkCount: 0,
      deltaFromBenchmark: null,
    });
    expect(evaluation.body.data.unplaced).toEqual({ noFamilyOrLevel: 0, noJobKey: 0, noCompanyJob: 0, noBand: 0 });
  });

  it('exports grade bands as rows naming their grade, and every band’s ranges', async () => {
    const started = await call<Data<Schemas['BackgroundJob']>>(admin, `/api/bands/band-sets/${ids.set}/exports`, { method: 'POST', json: {} });
    const job = await jobEnded(admin, started.body.data.id);
    expect(job.status).toBe('succeeded');
    const text = await (await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(admin) })).text();
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ 'Job code': 'SE4', 'Pay zone': 'US', Mid: '150000.00', Grade: 'G5', 'Bonus target %': '15', 'Bonus min %': '10', 'Bonus max %': '20', 'Variable target': '22500.00', 'Equity unit': 'shares', 'Equity min': '800', 'Equity mid': '1000', 'Equity max': '1200' });
    const gradeRows = rows.slice(1).map((row) => [row['Job code'], row['Pay zone'], row.Min, row.Mid, row.Max, row.Grade, row['Bonus target %']]);
    expect(gradeRows).toEqual(
      expect.arrayContaining([
        ['', 'Everywhere', '90000.00', '110000.00', '130000.00', 'G5', ''],
        ['', 'US', '100000.00', '120000.00', '140000.00', 'G5', ''],
      ]),
    );
  });

  it('changes a band’s ranges at the version read, keeping its figures; a stale version changes nothing', async () => {
    const band = (await readSet()).bands[0];
    if (!band) throw new Error('no band');
    const ranges = { bonusTargetPercent: { target: 12 }, equity: { unit: 'value', min: 2_000_000, mid: 2_500_000, max: 3_000_000 } };
    const changed = await call<Data<Schemas['Band']>>(admin, `/api/bands/band-sets/${ids.set}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: band.min, mid: band.mid, max: band.max, ranges } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ min: usd(130_000), mid: usd(150_000), ranges, version: band.version + 1 });
    const stale = await call(admin, `/api/bands/band-sets/${ids.set}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: band.min, mid: band.mid, max: band.max, ranges: null } });
    expect(stale.status).toBe(409);
    const wrong = await call(admin, `/api/bands/band-sets/${ids.set}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version + 1, json: { min: band.min, mid: band.mid, max: band.max, ranges: { bonusTargetPercent: { min: 20, target: 10 } } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: 'body.ranges.bonusTargetPercent', message: 'must satisfy min ≤ target ≤ max' }]);
    expect((await readSet()).bands[0]?.ranges).toEqual(ranges);
    // Duplicating a set copies its grade bands and ranges.
    const copy = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${ids.set}/duplicate`, { method: 'POST', json: {} });
    expect(copy.status).toBe(201);
    expect(copy.body.data.bands[0]?.ranges).toEqual(ranges);
    expect(copy.body.data.gradeBands).toHaveLength(2);
  });

  it('builds a bonus target into every band and an equity range where the market has equity', async () => {
    const set = await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Built with ranges', currency: 'USD' } });
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, {
      method: 'POST',
      json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 10 }, rounding: 1000, bonusTargetPercent: 15, equityPercentile: 50 },
    });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const result = built.body.data;
    expect(result.bandSet.philosophy).toMatchObject({ bonusTargetPercent: 15, equityPercentile: 50 });
    expect(result.bandSet.bands.length).toBeGreaterThan(0);
    // The market's total equity (annualised grant value) at p50 for each job, in the United States (the anchor's location; both zones at 0).
    const market = await call<Data<Schemas['BenchmarkResult']>>(admin, '/api/benchmarking/market-data', {
      method: 'POST',
      json: {
        compensationTypes: ['total_equity'],
        marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'], locations: [result.bandSet.philosophy?.marketLocationId ?? ''] }],
        jobFamilies: ['software_engineering'],
        levels: [{ type: 'level', id: 'p3' }, { type: 'level', id: 'p4' }],
        percentiles: [50],
        currency: 'USD',
      },
    });
    expect(market.status, JSON.stringify(market.body)).toBe(200);
    const equityOf = new Map(market.body.data.cells.map((cell) => [cell.levelId, cell.status === 'published' ? (cell.percentiles?.[0]?.value ?? null) : null]));
    const round = (value: number) => Math.round(value / 1000) * 1000 * 100;
    let priced = 0;
    for (const band of result.bandSet.bands) {
      expect(band.ranges?.bonusTargetPercent).toEqual({ target: 15 });
      const value = equityOf.get(band.levelId) ?? null;
      if (value === null) {
        expect(band.ranges?.equity).toBeUndefined();
        expect(result.equityWithheld.map((entry) => entry.companyJobId)).toContain(band.companyJobId);
        continue;
      }
      priced += 1;
      // ± 10% around the market figure, each rounded to the nearest 1,000 (then cents).
      expect(band.ranges?.equity).toEqual({ unit: 'value', min: round(value * 0.9), mid: round(value), max: round(value * 1.1), percentile: 50 });
    }
    expect(priced).toBeGreaterThan(0);
  });

  it('builds grade bands from the mean of the grade’s priced jobs; a job the market cannot price is placed by its grade’s band, in the evaluation, the team view and the changes', async () => {
    // A survey effective on the set's date (no aging): P3 → S3 at 100,000, P4 → S4 at 120,000; S9 has no median.
    const file = await request<Data<Schemas['BandFile']> & ErrorBody>('/api/bands/files?kind=survey&filename=grades.csv', {
      method: 'POST',
      headers: { ...bearer(admin), 'content-type': 'text/csv' },
      body: 'Code,Title,P25,P50\nS3,Engineer III,,100000\nS4,Engineer IV,,120000\nS9,Principal,150000,\n',
    });
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    const started = await call<Data<BandImport>>(admin, '/api/bands/survey-imports', { method: 'POST', json: { fileId: file.body.data.id, survey: { name: 'Grades survey', provider: 'Radford', effectiveDate: '2026-01-01', currency: 'USD' } } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect((await jobEnded(admin, started.body.data.jobId ?? '')).status).toBe('succeeded');
    const surveyId = (await call<Data<BandImport>>(admin, `/api/bands/imports/${started.body.data.id}`)).body.data.surveyId ?? '';
    const associate = async (jobId: string, code: string) =>
      expect((await call(admin, `/api/bands/jobs/${jobId}/associations`, { method: 'POST', json: { survey: { surveyId, surveyJobCode: code } } })).status).toBe(201);
    await associate(ids.p3, 'S3');
    await associate(ids.p4, 'S4');
    // P5 is graded G5 and priced by nothing; G7's one job neither.
    const p5 = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p5', jobCode: 'SE5', gradeId: ids.g5 } })).body.data;
    expect(p5.gradeKey).toBe('G5');
    await associate(p5.id, 'S9');
    const g7 = (await call<Data<Schemas['CompGrade']>>(admin, '/api/bands/grades', { method: 'POST', json: { key: 'G7' } })).body.data;
    const designer = (await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'design', levelId: 'p1', gradeId: g7.id } })).body.data;
    await associate(designer.id, 'S9');
    const cy = await insertEmployee(db, company.id, { firstName: 'Cy', lastName: 'Staff', levelId: 'p5', locationId: 'us_new_york' });
    await insertPay(db, company.id, cy, [{ type: 'base_salary', amount: 12_100_000, effectiveDate: '2024-01-01' }]);

    const set = (await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Graded from market', currency: 'USD', effectiveDate: '2026-01-01' } })).body.data;
    // G7's band in US, entered by hand before the build: the build cannot price G7, so it keeps it.
    const kept = await call<Data<Schemas['GradeBand']>>(admin, `/api/bands/band-sets/${set.id}/grade-bands`, { method: 'POST', json: { gradeId: g7.id, payZoneId: ids.us, min: usd(40_000), mid: usd(50_000), max: usd(60_000) } });
    expect(kept.status).toBe(201);
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.id}/build`, {
      method: 'POST',
      json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 10 }, rounding: 100, agingRateBp: 0 },
    });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const result = built.body.data;
    expect(result.withheld.map((entry) => entry.companyJobId).sort()).toEqual([p5.id, designer.id].sort());
    expect(result.gradeBandsBuilt).toBe(2);
    expect(result.gradesWithheld).toEqual([{ gradeId: g7.id, gradeKey: 'G7', reason: 'None of its 1 company job could be priced; its grade bands are kept as they were' }]);
    // G5 = (100,000 + 120,000) ÷ 2 = 110,000 in both zones (differential 0); ± 10% → 99,000 / 110,000 / 121,000.
    const g5Bands = result.bandSet.gradeBands.filter((band) => band.gradeId === ids.g5);
    expect(g5Bands.map((band) => [band.min, band.mid, band.max])).toEqual([
      [usd(99_000), usd(110_000), usd(121_000)],
      [usd(99_000), usd(110_000), usd(121_000)],
    ]);
    expect(g5Bands[0]?.source).toEqual({
      kind: 'grade',
      percentile: 50,
      marketValue: 110_000,
      marketCurrency: 'USD',
      differentialBp: 0,
      jobs: [
        { companyJobId: ids.p3, value: 100_000 },
        { companyJobId: ids.p4, value: 120_000 },
      ],
    });
    expect(result.bandSet.gradeBands.filter((band) => band.gradeId === g7.id)).toEqual([expect.objectContaining({ payZoneId: ids.us, mid: usd(50_000), source: null })]);
    const g5Us = g5Bands.find((band) => band.payZoneId === ids.us);

    // Cy (P5, 121,000, US): no job band, so G5's: 121 ÷ 110 = 1.1; (121 − 99) ÷ (121 − 99) = 1 (at the maximum: inside).
    const evaluation = (await call<Data<Evaluation>>(admin, `/api/bands/band-sets/${set.id}/evaluation`)).body.data;
    expect(evaluation.employees.find((entry) => entry.employeeId === cy)).toMatchObject({ bandId: g5Us?.id, source: 'grade', compaRatio: 1.1, rangePenetration: 1, position: 'inside' });
    expect(evaluation.gradeBands.find((band) => band.gradeBandId === g5Us?.id)).toMatchObject({ employeeCount: 1, benchmark: usd(110_000), benchmarkCount: 2, deltaFromBenchmark: 0 });

    // What changed since the hand-made set: G5 US 100/120/140 → 99/110/121 (mid −10,000 ÷ 120,000 = −8.33% → −833 bp),
    // G5 Everywhere 90/110/130 → 99/110/121 (mid 0), G7 US added.
    const changes = (await call<Data<Schemas['BandSetChanges']>>(admin, `/api/bands/band-sets/${set.id}/changes?since=${ids.set}`)).body.data;
    expect(changes.gradeBands.map((change) => [change.gradeKey, change.payZoneId === ids.us ? 'US' : 'Everywhere', change.change, change.midChangeBp]).sort()).toEqual([
      ['G5', 'Everywhere', 'changed', 0],
      ['G5', 'US', 'changed', -833],
      ['G7', 'US', 'added', null],
    ]);
    expect(changes.gradeBands.find((change) => change.gradeKey === 'G5' && change.payZoneId === ids.us)?.before).toEqual({ min: usd(100_000), mid: usd(120_000), max: usd(140_000) });

    // Published, the team view places Cy by the grade band, and Bo (P4) by his job's own band.
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/team_view`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const current = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${set.id}`)).body.data;
    const published = await call(admin, `/api/bands/band-sets/${set.id}/publish`, { method: 'POST', ifMatch: current.version, json: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const table = await call<Data<Schemas['TeamTable']>>(admin, '/api/team/employees/table?columns=name&columns=bandPosition&limit=50');
    expect(table.status).toBe(200);
    const position = (name: string) => table.body.data.rows.find((row) => row.name === name)?.bandPosition;
    expect(position('Cy Staff')).toMatchObject({ bandSetName: 'Graded from market', source: 'grade', gradeKey: 'G5', band: { min: usd(99_000), mid: usd(110_000), max: usd(121_000) }, compaRatio: 1.1, rangePenetration: 1, position: 'inside', label: null });
    // Bo: P4's own band 108,000 / 120,000 / 132,000; 150 ÷ 120 = 1.25, above.
    expect(position('Bo Banded')).toMatchObject({ source: 'job', gradeKey: null, band: { mid: usd(120_000) }, compaRatio: 1.25, position: 'above' });
  });
});
