import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestCompany } from '../../../../test/factories.js';
import type { ErrorBody } from '../../../../test/http.js';
import type { components } from '../../../contract-types.js';
import { suggestMapping } from '../../../hris/mapping.js';
import { vendorSyncFixture } from '../test/syncFixture.js';
import { HIBOB_COLUMNS } from './connector.js';
import { type BobPerson, HiBobTestServer } from './testServer.js';

type Integration = components['schemas']['Integration'];
type Connector = components['schemas']['IntegrationConnector'];

describe('HiBob: the mapping suggestion on its field names', () => {
  it('maps the search fields and the work and salary histories onto people fields', () => {
    expect(suggestMapping(HIBOB_COLUMNS, 'employees')).toEqual({
      employeeId: 'id',
      firstName: 'firstName',
      lastName: 'surname',
      email: 'email',
      title: 'work.title',
      department: 'work.department',
      managerEmployeeId: 'work.reportsTo',
      location: 'work.site',
      currency: 'salary.currency',
      startDate: 'work.startDate',
      employmentType: 'payroll.employment.type',
      status: 'internal.status',
      terminationDate: 'internal.terminationDate',
      baseSalary: 'salary.base',
      effectiveDate: 'salary.effectiveDate',
    });
  });
});

describe('HiBob sync against a server speaking its API', () => {
  const bob = new HiBobTestServer();
  const fixture = vendorSyncFixture({ kind: 'hibob', companyName: 'Bob Co', vendor: bob });
  let apiUrl: string;
  let connection: Integration;
  const { api, employee, payOf, peopleTables } = fixture;
  const person = (id: string, firstName: string, surname: string, extra: Partial<BobPerson> = {}): BobPerson => ({
    id,
    firstName,
    surname,
    email: `${firstName.toLowerCase()}@bob.test`,
    startDate: '21/01/2021',
    employmentType: 'Full-Time',
    status: 'Active',
    terminationDate: null,
    ...extra,
  });

  beforeAll(() => {
    apiUrl = fixture.baseUrl;
    bob.addPerson(person('3332883804594373380', 'Ana', 'Lopez'), [{ effectiveDate: '2021-01-21', title: 'VP Engineering', department: 'Engineering', site: 'Seattle', reportsTo: null }], [
      { effectiveDate: '2021-01-21', value: 100000, currency: 'USD', payPeriod: 'Annual' },
      { effectiveDate: '2024-03-01', value: 120000, currency: 'USD', payPeriod: 'Annual', reason: 'Promotion' },
    ]);
    bob.addPerson(person('3332883804594373381', 'Bo', 'Berg', { startDate: '01/05/2022' }), [
      { effectiveDate: '2022-05-01', title: 'Engineer', department: 'Engineering', site: 'Berlin', reportsTo: '3332883804594373380' },
      { effectiveDate: '2099-01-01', title: 'Staff Engineer', department: 'Engineering', site: 'Berlin', reportsTo: '3332883804594373380' },
    ], [{ effectiveDate: '2022-05-01', value: 5000, currency: 'EUR', payPeriod: 'Monthly' }]);
    bob.addPerson(person('3332883804594373382', 'Cy', 'Chen', { startDate: '01/02/2023', employmentType: 'Part-Time' }), [
      { effectiveDate: '2023-02-01', title: 'Support Specialist', department: 'Support', site: 'Seattle', reportsTo: '3332883804594373381' },
    ], [{ effectiveDate: '2023-02-01', value: 50, currency: 'USD', payPeriod: 'Hourly' }]);
    bob.addPerson(person('3332883804594373383', 'Dee', 'Old', { status: 'Inactive', terminationDate: '31/12/2023', startDate: '01/01/2020' }), [
      { effectiveDate: '2020-01-01', title: 'Engineer', department: 'Engineering', site: 'Seattle', reportsTo: '3332883804594373380' },
    ], [{ effectiveDate: '2020-01-01', value: 90000, currency: 'USD', payPeriod: 'Annual' }]);
  });

  const syncNow = (dryRun = false) => fixture.sync(connection.id, { dryRun });
  const connect = (config: Record<string, string>, name: string) => fixture.connect(name, config);

  it('is available, and a connection test names what is wrong: credentials, a missing permission', async () => {
    const catalogue = await api<{ data: Connector[] }>('/api/integration-connectors');
    expect(catalogue.body.data.find((connector) => connector.kind === 'hibob')).toMatchObject({ available: true, availabilityNote: null, category: 'hris' });

    const wrong = await connect({ apiUrl, serviceUserId: bob.serviceUserId, serviceUserToken: 'nope' }, 'Wrong token');
    expect(wrong.body.data).toMatchObject({ status: 'error', statusMessage: 'HiBob refused the credentials (401): Service user credentials are invalid. Check the API key or token and enter it again.' });
    const noPayroll = await connect({ apiUrl, serviceUserId: bob.noPayrollUserId, serviceUserToken: bob.tokenOf(bob.noPayrollUserId) }, 'No payroll');
    expect(noPayroll.body.data.statusMessage).toBe(
      'HiBob denied access to the payroll (salary) history (403): The service user has no permission to view payroll section histories. Add the service user to a permission group that can see every employee’s work and payroll sections and their histories (People’s data › Work, Payroll: view sections and section histories).',
    );
    const noBasic = await connect({ apiUrl, serviceUserId: bob.noBasicInfoUserId, serviceUserToken: bob.tokenOf(bob.noBasicInfoUserId) }, 'No basic info');
    expect(noBasic.body.data).toMatchObject({ status: 'error', statusMessage: expect.stringContaining('cannot see the employees’ basic info') });
    const missing = await connect({ apiUrl, serviceUserId: bob.serviceUserId }, 'Missing');
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'config.serviceUserToken', message: 'is required' }]);

    const reply = await connect({ apiUrl, serviceUserId: bob.serviceUserId, serviceUserToken: bob.serviceUserToken }, 'HiBob');
    expect(reply.status).toBe(201);
    connection = reply.body.data;
    expect(connection).toMatchObject({ status: 'connected', statusMessage: 'Connected to HiBob: 4 employees, and their work and payroll histories can be read.', secretsSet: ['serviceUserToken'] });
    expect(JSON.stringify(connection)).not.toContain(bob.serviceUserToken);
    expect((await fixture.db('integrations').where({ id: connection.id }).first<{ secrets: string }>()).secrets).toMatch(/^v1:/);
  });

  it('a dry run writes nothing; the sync writes people, managers, the work in force and the pay history, leavers included', async () => {
    // A row per payroll-history entry: Ana's two, one for each of the others.
    const dry = await syncNow(true);
    expect(dry).toMatchObject({ status: 'planned', rowCount: 5, plan: { create: 4 }, conflicts: [] });
    expect(await fixture.db('employees').where({ company_id: fixture.company.id })).toEqual([]);

    bob.calls.length = 0;
    const run = await syncNow();
    expect(run).toMatchObject({ status: 'applied', rowCount: 5, plan: { create: 4, update: 0, compensationRecords: { add: 5 } } });
    const ana = await employee('3332883804594373380');
    const bo = await employee('3332883804594373381');
    expect(ana).toMatchObject({ first_name: 'Ana', last_name: 'Lopez', email: 'ana@bob.test', title: 'VP Engineering', start_date: '2021-01-21', status: 'active', manager_id: null });
    // Bo's 2099 promotion is not in force yet: today's entry counts.
    expect(bo).toMatchObject({ title: 'Engineer', manager_id: ana.id, currency: 'EUR', start_date: '2022-05-01' });
    expect(await employee('3332883804594373382')).toMatchObject({ manager_id: bo.id, employment_type: 'part_time' });
    expect(await employee('3332883804594373383')).toMatchObject({ status: 'terminated', termination_date: '2023-12-31' });
    // Ana's payroll history: 100,000 USD from her start, 120,000 from 2024.
    expect(await payOf('3332883804594373380')).toEqual([
      { amount: 10_000_000, currency: 'USD', effective_date: '2021-01-21' },
      { amount: 12_000_000, currency: 'USD', effective_date: '2024-03-01' },
    ]);
    // 5,000 EUR monthly × 12; 50 USD hourly × 2,080.
    expect(await payOf('3332883804594373381')).toEqual([{ amount: 6_000_000, currency: 'EUR', effective_date: '2022-05-01' }]);
    expect(await payOf('3332883804594373382')).toEqual([{ amount: 10_400_000, currency: 'USD', effective_date: '2023-02-01' }]);
    expect(bob.calls.filter((call) => call.startsWith('GET /v1/bulk/people/salaries')).every((call) => call.includes('limit=200'))).toBe(true);
  });

  it('reads every page of the histories, and a second sync finds what changed', async () => {
    for (let index = 0; index < 250; index += 1) {
      const id = `44${String(index).padStart(4, '0')}`;
      bob.addPerson(person(id, `P${index}`, 'Bulk'), [{ effectiveDate: '2024-01-01', title: 'Engineer', department: 'Engineering', site: 'Seattle', reportsTo: '3332883804594373380' }], [{ effectiveDate: '2024-01-01', value: 100000 + index, currency: 'USD', payPeriod: 'Annual' }]);
    }
    bob.work.get('3332883804594373382')?.push({ effectiveDate: '2024-06-01', title: 'Support Lead', department: 'Support', site: 'Seattle', reportsTo: '3332883804594373381' });
    bob.calls.length = 0;
    const run = await syncNow();
    expect(run).toMatchObject({ status: 'applied', rowCount: 255, plan: { create: 250, update: 1, unchanged: 3 } });
    expect((await employee('3332883804594373382')).title).toBe('Support Lead');
    expect((await payOf('440249'))[0]).toMatchObject({ amount: 10_024_900 });
    // 254 employees in pages of 200: two pages of each history.
    expect(bob.calls.filter((call) => call.startsWith('GET /v1/bulk/people/salaries'))).toHaveLength(2);
    expect(bob.calls.filter((call) => call.startsWith('GET /v1/bulk/people/work'))).toHaveLength(2);
  });

  it('waits for the rate limit window Bob names (X-RateLimit-Reset) and then syncs', async () => {
    bob.rateLimitNext = 2;
    bob.calls.length = 0;
    const run = await syncNow();
    expect(run).toMatchObject({ status: 'applied', plan: { update: 0 } });
    expect(bob.calls.filter((call) => call.startsWith('POST /v1/people/search'))).toHaveLength(3);
  });

  it('fails mid-way with nothing half-written', async () => {
    bob.work.get('3332883804594373380')?.push({ effectiveDate: '2025-01-01', title: 'CTO', department: 'Engineering', site: 'Seattle', reportsTo: null });
    bob.failSalaries = true;
    const before = await peopleTables();
    try {
      const run = await syncNow();
      expect(run).toMatchObject({ status: 'failed', message: 'HiBob answered 500: Something went wrong for the payroll (salary) history, 5 times; it may be down.' });
      expect(await peopleTables()).toEqual(before);
      expect((await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data).toMatchObject({ status: 'error', statusMessage: run.message });
    } finally {
      bob.failSalaries = false;
    }
    const retried = await syncNow();
    expect(retried).toMatchObject({ status: 'applied', plan: { update: 1 } });
    expect((await employee('3332883804594373380')).title).toBe('CTO');
  });

  it('keeps a correction made in Paybench and reports the conflict', async () => {
    const ana = await employee('3332883804594373380');
    const corrected = await api<ErrorBody>(`/api/employees/${ana.id}`, { method: 'PATCH', headers: { 'If-Match': `"${ana.version}"` }, json: { title: 'Chief Technology Officer' } });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    const run = await syncNow();
    expect(run.status).toBe('applied');
    // On Ana's row in force: line 3, her 2024 pay.
    expect(run.conflicts).toEqual([{ line: 3, employeeId: '3332883804594373380', field: 'title', column: 'work.title', appValue: 'Chief Technology Officer', systemValue: 'CTO', setAt: expect.any(String) }]);
    expect((await employee('3332883804594373380')).title).toBe('Chief Technology Officer');
  });

  it('keeps a sync history: when, who, the counts, conflicts and the problems of each run', async () => {
    bob.addPerson(person('5550001', 'Eve', 'Error', { startDate: '31/02/2024' }), [{ effectiveDate: '2024-02-01', title: 'Engineer', department: 'Engineering', site: 'Seattle', reportsTo: null }], []);
    const rejected = await syncNow();
    bob.people.pop();
    expect(rejected).toMatchObject({ status: 'rejected', errorCount: 1 });
    const reply = await api<{ data: components['schemas']['IntegrationSync'][] }>(`/api/integrations/${connection.id}/syncs`);
    expect(reply.status).toBe(200);
    const history = reply.body.data;
    // Dry run, full, paged, rate-limited, failed, retried, conflict, rejected: newest first.
    expect(history.map((sync) => sync.status)).toEqual(['rejected', 'applied', 'applied', 'failed', 'applied', 'applied', 'applied', 'planned']);
    expect(history[0]).toMatchObject({ trigger: 'manual', triggeredBy: { userId: fixture.company.users.admin!.id, name: expect.any(String) }, errorCount: 1, problems: [{ line: 257, column: 'work.startDate', field: 'startDate', message: expect.any(String) }] });
    expect(history[1]).toMatchObject({ conflictCount: 1, update: 0, unchanged: 254 });
    expect(history[3]).toMatchObject({ status: 'failed', message: expect.stringContaining('HiBob answered 500'), problems: [] });
    expect(history[6]).toMatchObject({ create: 4, dryRun: false, finishedAt: expect.any(String), startedAt: expect.any(String) });
    expect(history.at(-1)).toMatchObject({ dryRun: true, create: 4 });
    expect((await api<{ data: unknown[] }>(`/api/integrations/${connection.id}/syncs?limit=2`)).body.data).toHaveLength(2);

    const other = await createTestCompany(fixture.db, 'Other Co');
    // Another company's admin (their token in place of this company's).
    const foreign = await api<ErrorBody>(`/api/integrations/${connection.id}/syncs`, { headers: bearer(other.users.admin!) });
    expect(foreign.status).toBe(404);
  });

  it('disconnects keeping the kept values, or removing them when asked', async () => {
    const bad = await api<ErrorBody>(`/api/integrations/${connection.id}?keptValues=maybe`, { method: 'DELETE' });
    expect(bad.status).toBe(400);
    expect(await fixture.db('people_field_overrides').where({ company_id: fixture.company.id }).pluck('field')).toEqual(['title']);
    const kept = await connect({ apiUrl, serviceUserId: bob.serviceUserId, serviceUserToken: bob.serviceUserToken }, 'HiBob again');
    expect((await api(`/api/integrations/${kept.body.data.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await fixture.db('people_field_overrides').where({ company_id: fixture.company.id }).pluck('field')).toEqual(['title']);

    const removed = await api<{ data: Integration }>(`/api/integrations/${connection.id}?keptValues=remove`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await fixture.db('people_field_overrides').where({ company_id: fixture.company.id })).toEqual([]);
    expect(await fixture.db('integrations').where({ id: connection.id })).toEqual([]);
    // The people data stays.
    expect((await employee('3332883804594373380')).title).toBe('Chief Technology Officer');
  });
});
