import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { jobEnded } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Evaluation = Schemas['BandEvaluation'];

/*
 * How employees map to company jobs, under each of the four rules. Jobs (one zone, the catch-all):
 *   SE P3 "Backend Engineer" ENG-3: 90,000 / 100,000 / 110,000
 *   SE P4 "Staff Engineer"   ENG-4: 140,000 / 150,000 / 160,000
 *   Design P2 "Designer"     DES-2: 70,000 / 80,000 / 90,000
 *   Design P4 "Backend Engineer" DES-4: 120,000 / 130,000 / 140,000 (a title SE P3 has too)
 * Employees:
 *   Ann: SE P3, "backend  ENGINEER", code "eng-3", 100,000
 *   Bea: no family or level, "Staff Engineer", code ENG-4, 150,000
 *   Cal: SE P4, "Backend Engineer", no code, 130,000
 *   Dan: Design P2, "Designer", no code, 80,000
 */
describe('how employees map to company jobs', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let setId = '';
  const people: Record<string, string> = {};
  const bandOf: Record<string, string> = {};

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  async function match(jobMatching: Schemas['BandJobMatching']): Promise<void> {
    const settings = (await call<Data<Schemas['BandSettings']>>(admin, '/api/bands/settings')).body.data;
    const saved = await call<Data<Schemas['BandSettings']>>(admin, '/api/bands/settings', { method: 'PUT', ifMatch: settings.version, json: { jobMatching } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ jobMatching, agingRateBp: 300 });
  }

  /** Each employee's band (by job code) and compa-ratio in the evaluation, and the unplaced counts. */
  async function evaluated(): Promise<{ placed: Record<string, [string, number | undefined] | null>; unplaced: Evaluation['unplaced'] }> {
    const reply = await call<Data<Evaluation>>(admin, `/api/bands/band-sets/${setId}/evaluation`);
    expect(reply.status).toBe(200);
    const codeOf = new Map(Object.entries(bandOf).map(([code, id]) => [id, code]));
    const placed: Record<string, [string, number | undefined] | null> = {};
    for (const [name, id] of Object.entries(people)) {
      const entry = reply.body.data.employees.find((employee) => employee.employeeId === id);
      placed[name] = entry ? [codeOf.get(entry.bandId) ?? '?', entry.compaRatio] : null;
    }
    return { placed, unplaced: reply.body.data.unplaced };
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Job Matching Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    for (const flag of ['bands', 'team_view']) {
      expect((await request(`/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    }
    for (const [jobFamilyId, levelId, title, jobCode] of [
      ['software_engineering', 'p3', 'Backend Engineer', 'ENG-3'],
      ['software_engineering', 'p4', 'Staff Engineer', 'ENG-4'],
      ['design', 'p2', 'Designer', 'DES-2'],
      ['design', 'p4', 'Backend Engineer', 'DES-4'],
    ]) {
      expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId, levelId, title, jobCode } })).status).toBe(201);
    }
    const hire = async (key: string, fixture: Parameters<typeof insertEmployee>[2], dollars: number) => {
      people[key] = await insertEmployee(db, company.id, fixture);
      await insertPay(db, company.id, people[key] as string, [{ type: 'base_salary', amount: dollars * 100, effectiveDate: '2024-01-01' }]);
    };
    await hire('ann', { firstName: 'Ann', lastName: 'Backend', levelId: 'p3', title: 'backend  ENGINEER', jobCode: 'eng-3' }, 100_000);
    await hire('bea', { firstName: 'Bea', lastName: 'Staff', jobFamilyId: null, levelId: null, title: 'Staff Engineer', jobCode: 'ENG-4' }, 150_000);
    await hire('cal', { firstName: 'Cal', lastName: 'Four', levelId: 'p4', title: 'Backend Engineer' }, 130_000);
    await hire('dan', { firstName: 'Dan', lastName: 'Design', jobFamilyId: 'design', levelId: 'p2', title: 'Designer' }, 80_000);

    // The bands, by job code through the import, then live.
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Matched bands', currency: 'USD' } });
    setId = set.body.data.id;
    const csv = ['Job code,Pay zone,Currency,Min,Mid,Max', 'ENG-3,Everywhere,USD,90000,100000,110000', 'ENG-4,Everywhere,USD,140000,150000,160000', 'DES-2,Everywhere,USD,70000,80000,90000', 'DES-4,Everywhere,USD,120000,130000,140000'].join('\n');
    const file = await request<Data<Schemas['BandFile']> & ErrorBody>('/api/bands/files?kind=bands&filename=bands.csv', { method: 'POST', headers: { ...bearer(admin), 'content-type': 'text/csv' }, body: csv });
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    const started = await call<Data<Schemas['BandImport']>>(admin, `/api/bands/band-sets/${setId}/imports`, { method: 'POST', json: { fileId: file.body.data.id } });
    expect((await jobEnded(admin, started.body.data.jobId ?? '')).status).toBe('succeeded');
    const detail = (await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}`)).body.data;
    const jobs = (await call<Data<Schemas['CompanyJob'][]>>(admin, '/api/bands/jobs')).body.data;
    for (const band of detail.bands) bandOf[jobs.find((job) => job.id === band.companyJobId)?.jobCode ?? '?'] = band.id;
    expect(Object.keys(bandOf).sort()).toEqual(['DES-2', 'DES-4', 'ENG-3', 'ENG-4']);
    expect((await call(admin, `/api/bands/band-sets/${setId}/publish`, { method: 'POST', ifMatch: detail.version, json: {} })).status).toBe(200);
  });

  it('maps by family and level until the company says otherwise', async () => {
    expect((await call<Data<Schemas['BandSettings']>>(admin, '/api/bands/settings')).body.data).toEqual({ agingRateBp: 300, jobMatching: 'familyLevel', version: 0 });
    const { placed, unplaced } = await evaluated();
    // Cal (SE P4) 130 ÷ 150 = 0.8667.
    expect(placed).toEqual({ ann: ['ENG-3', 1], bea: null, cal: ['ENG-4', 0.8667], dan: ['DES-2', 1] });
    expect(unplaced).toEqual({ noFamilyOrLevel: 1, noJobKey: 0, noCompanyJob: 0, noBand: 0 });
  });

  it('by title and level: a title two levels share still tells the jobs apart', async () => {
    await match('titleLevel');
    const { placed, unplaced } = await evaluated();
    // Cal's "Backend Engineer" at P4 is Design P4's title: 130 ÷ 130 = 1.
    expect(placed).toEqual({ ann: ['ENG-3', 1], bea: null, cal: ['DES-4', 1], dan: ['DES-2', 1] });
    expect(unplaced).toEqual({ noFamilyOrLevel: 1, noJobKey: 0, noCompanyJob: 0, noBand: 0 });
  });

  it('by title alone: a title two jobs share maps no one; Bea needs no family or level', async () => {
    await match('title');
    const { placed, unplaced } = await evaluated();
    expect(placed).toEqual({ ann: null, bea: ['ENG-4', 1], cal: null, dan: ['DES-2', 1] });
    expect(unplaced).toEqual({ noFamilyOrLevel: 0, noJobKey: 0, noCompanyJob: 2, noBand: 0 });
    const unmapped = (await call<Data<Schemas['UnmappedEmployee'][]>>(admin, '/api/bands/jobs/unmapped-employees')).body.data;
    expect(unmapped.map((entry) => [entry.name, entry.reason])).toEqual([
      ['Ann Backend', 'no_company_job'],
      ['Cal Four', 'no_company_job'],
    ]);
  });

  it('by job code, whatever its case: the people without one are counted, listed and labelled in the team view', async () => {
    await match('jobCode');
    const { placed, unplaced } = await evaluated();
    expect(placed).toEqual({ ann: ['ENG-3', 1], bea: ['ENG-4', 1], cal: null, dan: null });
    expect(unplaced).toEqual({ noFamilyOrLevel: 0, noJobKey: 2, noCompanyJob: 0, noBand: 0 });
    const jobs = (await call<Data<Schemas['CompanyJob'][]>>(admin, '/api/bands/jobs')).body.data;
    expect(Object.fromEntries(jobs.map((job) => [job.jobCode, job.employeeCount]))).toEqual({ 'ENG-3': 1, 'ENG-4': 1, 'DES-2': 0, 'DES-4': 0 });
    const unmapped = (await call<Data<Schemas['UnmappedEmployee'][]>>(admin, '/api/bands/jobs/unmapped-employees')).body.data;
    expect(unmapped.map((entry) => [entry.name, entry.reason])).toEqual([
      ['Dan Design', 'no_job_code'],
      ['Cal Four', 'no_job_code'],
    ]);
    const table = await call<Data<Schemas['TeamTable']>>(admin, '/api/team/employees/table?columns=name&columns=bandPosition&limit=50');
    const position = (name: string) => table.body.data.rows.find((row) => row.name === name)?.bandPosition;
    expect(position('Bea Staff')).toMatchObject({ band: { mid: { amount: 15_000_000, currency: 'USD' } }, compaRatio: 1, position: 'inside' });
    expect(position('Cal Four')).toMatchObject({ band: null, label: 'No job code' });
  });

  it('saves the rule at the version read: a stale one, an unknown rule and an empty change are refused and change nothing', async () => {
    const settings = (await call<Data<Schemas['BandSettings']>>(admin, '/api/bands/settings')).body.data;
    expect((await call(admin, '/api/bands/settings', { method: 'PUT', ifMatch: settings.version - 1, json: { jobMatching: 'title' } })).status).toBe(409);
    expect((await call(admin, '/api/bands/settings', { method: 'PUT', ifMatch: settings.version, json: { jobMatching: 'email' } })).status).toBe(400);
    expect((await call(admin, '/api/bands/settings', { method: 'PUT', ifMatch: settings.version, json: {} })).status).toBe(400);
    expect((await call(company.users.analyst as TestUser, '/api/bands/settings', { method: 'PUT', ifMatch: settings.version, json: { jobMatching: 'title' } })).status).toBe(403);
    expect((await call<Data<Schemas['BandSettings']>>(admin, '/api/bands/settings')).body.data).toEqual(settings);
  });
});
