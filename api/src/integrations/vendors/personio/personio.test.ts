import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../../../test/http.js';
import type { components } from '../../../contract-types.js';
import { suggestMapping } from '../../../hris/mapping.js';
import { vendorSyncFixture } from '../test/syncFixture.js';
import { PERSONIO_COLUMNS } from './connector.js';
import { type PersonioPerson, PersonioTestServer } from './testServer.js';

type Integration = components['schemas']['Integration'];
type Connector = components['schemas']['IntegrationConnector'];

const LONG_AGO = '2025-01-01T00:00:00.000Z';

describe('Personio: the mapping suggestion on its attribute names', () => {
  it('maps the employee attributes onto people fields', () => {
    expect(suggestMapping(PERSONIO_COLUMNS, 'employees')).toEqual({
      employeeId: 'id',
      firstName: 'first_name',
      lastName: 'last_name',
      email: 'email',
      title: 'position',
      department: 'department',
      managerEmployeeId: 'supervisor_id',
      location: 'office',
      currency: 'currency',
      startDate: 'hire_date',
      employmentType: 'employment_type',
      status: 'status',
      terminationDate: 'termination_date',
      legalEntity: 'subcompany',
      weeklyHours: 'weekly_working_hours',
      baseSalary: 'fix_salary.annual',
      gender: 'gender',
    });
  });
});

describe('Personio sync against a server speaking its API', () => {
  const personio = new PersonioTestServer();
  const fixture = vendorSyncFixture({ kind: 'personio', companyName: 'Personio Co', vendor: personio });
  let apiUrl: string;
  let connection: Integration;
  const { api, employee, payOf, peopleTables } = fixture;
  const person = (id: number, first: string, last: string, extra: Partial<PersonioPerson> = {}): Omit<PersonioPerson, 'last_modified_at'> => ({
    id,
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}@personio.test`,
    position: 'Engineer',
    department: 'Engineering',
    office: 'Berlin',
    supervisorId: null,
    hire_date: '2021-01-01',
    termination_date: null,
    status: 'active',
    employment_type: 'internal',
    weekly_working_hours: '40',
    subcompany: 'Acme GmbH',
    gender: 'female',
    fix_salary: 5000,
    fix_salary_interval: 'monthly',
    hourly_salary: 0,
    ...extra,
  });

  beforeAll(() => {
    apiUrl = fixture.baseUrl;
    personio.add(person(1, 'Alexander', 'Bergmann', { position: 'CTO', gender: 'male', fix_salary: 120000, fix_salary_interval: 'yearly' }), LONG_AGO);
    for (let id = 2; id <= 150; id += 1) personio.add(person(id, `P${id}`, 'Muster', { supervisorId: 1, fix_salary: 4000 + id }), LONG_AGO);
    personio.add(person(151, 'Fiona', 'Frei', { employment_type: 'external', fix_salary: 0, hourly_salary: 80, supervisorId: 1, weekly_working_hours: '20' }), LONG_AGO);
    personio.add(person(152, 'Otto', 'Onboard', { status: 'onboarding', hire_date: '2099-01-01', supervisorId: 1 }), LONG_AGO);
  });

  /** A sync ten minutes (Personio's clock) after the changes before it, past the margin an incremental sync reads again. */
  const syncNow = (dryRun = false) => fixture.sync(connection.id, { dryRun });
  const connect = (config: Record<string, string>, name: string) => fixture.connect(name, config);

  it('is available, and a connection test names what is wrong: credentials, scope, an attribute not readable', async () => {
    const catalogue = await api<{ data: Connector[] }>('/api/integration-connectors');
    expect(catalogue.body.data.find((connector) => connector.kind === 'personio')).toMatchObject({ available: true, availabilityNote: null, category: 'hris' });

    const wrong = await connect({ apiUrl, clientId: personio.clientId, clientSecret: 'nope' }, 'Wrong secret');
    expect(wrong.body.data).toMatchObject({ status: 'error', statusMessage: 'Personio refused the credentials (401): Wrong credentials. Check the API key or token and enter it again.' });
    const noScope = await connect({ apiUrl, clientId: personio.noEmployeesClientId, clientSecret: personio.secretOf(personio.noEmployeesClientId) }, 'No scope');
    expect(noScope.body.data.statusMessage).toBe(
      'Personio denied access to the employee list (403): Access to employees is not granted to these credentials. The API credentials need read access to employees (Settings › Integrations › API credentials › Employees: read).',
    );
    const noSalary = await connect({ apiUrl, clientId: personio.noSalaryClientId, clientSecret: personio.secretOf(personio.noSalaryClientId) }, 'No salary');
    expect(noSalary.body.data).toMatchObject({
      status: 'error',
      statusMessage: 'Personio does not let these credentials read fix_salary and fix_salary_interval: add them to the credentials’ readable attributes (Settings › Integrations › API credentials).',
    });
    const badCurrency = await connect({ apiUrl, clientId: personio.clientId, clientSecret: personio.clientSecret, currency: 'Euro' }, 'Bad currency');
    expect(badCurrency.status).toBe(400);
    expect(badCurrency.body.errors).toEqual([{ field: 'config.currency', message: 'must be an ISO 4217 code such as EUR' }]);

    personio.rateLimitNext = 1;
    const reply = await connect({ apiUrl, clientId: personio.clientId, clientSecret: personio.clientSecret, currency: 'EUR' }, 'Personio');
    expect(reply.status).toBe(201);
    connection = reply.body.data;
    expect(connection).toMatchObject({ status: 'connected', statusMessage: 'Connected to Personio: 152 employees, and their fixed salaries can be read.', secretsSet: ['clientSecret'] });
    expect(JSON.stringify(connection)).not.toContain(personio.clientSecret);
    expect((await fixture.db('integrations').where({ id: connection.id }).first<{ secrets: string }>()).secrets).toMatch(/^v1:/);
  });

  it('a dry run writes nothing; the sync reads every page and writes people, managers and annual pay', async () => {
    const dry = await syncNow(true);
    expect(dry).toMatchObject({ status: 'planned', rowCount: 152, plan: { create: 152 }, conflicts: [] });
    expect(await fixture.db('employees').where({ company_id: fixture.company.id })).toEqual([]);

    personio.calls.length = 0;
    const run = await syncNow();
    expect(run).toMatchObject({ status: 'applied', rowCount: 152, plan: { create: 152, update: 0 } });
    const cto = await employee('1');
    expect(cto).toMatchObject({ first_name: 'Alexander', title: 'CTO', department: 'Engineering', start_date: '2021-01-01', status: 'active', currency: 'EUR', legal_entity: 'Acme GmbH' });
    expect(await employee('2')).toMatchObject({ manager_id: cto.id, employment_type: 'full_time' });
    expect(await employee('151')).toMatchObject({ employment_type: 'contractor' });
    expect(await employee('152')).toMatchObject({ status: 'active', start_date: '2099-01-01' });
    expect(await payOf('1')).toEqual([{ amount: 12_000_000, currency: 'EUR', effective_date: '2021-01-01' }]);
    // 4,002 EUR a month × 12; 80 EUR an hour × 2,080.
    expect(await payOf('2')).toEqual([{ amount: 4_802_400, currency: 'EUR', effective_date: '2021-01-01' }]);
    expect(await payOf('151')).toEqual([{ amount: 16_640_000, currency: 'EUR', effective_date: '2021-01-01' }]);
    // One sign-in, two pages of 100 with the token each page handed back.
    const pages = personio.calls.filter((call) => call.startsWith('GET /v1/company/employees'));
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain('offset=100');
    expect(pages[0]).toContain('attributes%5B%5D=fix_salary');
    expect(personio.calls.filter((call) => call.startsWith('POST /v1/auth'))).toHaveLength(1);
  });

  it('then reads only the employees updated since the last applied sync', async () => {
    personio.update(2, { position: 'Senior Engineer', fix_salary: 4500 });
    personio.calls.length = 0;
    const today = new Date().toISOString().slice(0, 10);
    const run = await syncNow();
    expect(run).toMatchObject({ status: 'applied', rowCount: 1, plan: { update: 1, compensationRecords: { add: 1 } } });
    expect((await employee('2')).title).toBe('Senior Engineer');
    // Personio gives no date for a salary change: the raise counts from the day of the sync.
    expect((await payOf('2')).at(-1)).toEqual({ amount: 5_400_000, currency: 'EUR', effective_date: today });
    expect(personio.calls.some((call) => call.includes('updated_since='))).toBe(true);
    expect((await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data.lastSync).toMatchObject({ incremental: true, rows: 1 });
  });

  it('retries a 429 with a back-off and then syncs', async () => {
    personio.update(3, { office: 'Munich' });
    personio.rateLimitNext = 2;
    const run = await syncNow();
    expect(run).toMatchObject({ status: 'applied', rowCount: 1, plan: { update: 1 } });
  });

  it('fails mid-way with nothing half-written, and the next sync reads the same changes', async () => {
    // A full read (the connection changed: its name) whose second page keeps failing.
    const current = (await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data;
    const renamed = await api<{ data: Integration }>(`/api/integrations/${connection.id}`, { method: 'PATCH', json: { version: current.version, name: 'Personio (Berlin)' } });
    expect(renamed.status).toBe(200);
    personio.update(1, { position: 'Chief Technology Officer' });
    personio.failFromOffset = 100;
    const before = await peopleTables();
    try {
      const run = await syncNow();
      expect(run).toMatchObject({ status: 'failed', message: 'Personio answered 500: Internal Server Error for the employee list, 5 times; it may be down.' });
      expect(await peopleTables()).toEqual(before);
    } finally {
      personio.failFromOffset = null;
    }
    const retried = await syncNow();
    expect(retried).toMatchObject({ status: 'applied', rowCount: 152, plan: { update: 1 } });
    expect((await employee('1')).title).toBe('Chief Technology Officer');
  });

  it('keeps a salary corrected in Paybench and reports the conflict', async () => {
    const worker = await employee('4');
    const raise = await api<ErrorBody>(`/api/employees/${worker.id}/compensation`, {
      method: 'POST',
      json: { type: 'base_salary', amount: { amount: 6_000_000, currency: 'EUR' }, effectiveDate: new Date().toISOString().slice(0, 10), reason: 'adjustment' },
    });
    expect(raise.status, JSON.stringify(raise.body)).toBe(201);
    personio.update(4, { position: 'Engineer II' });
    const run = await syncNow();
    expect(run.status).toBe('applied');
    expect(run.conflicts).toEqual([{ line: 2, employeeId: '4', field: 'baseSalary', column: 'fix_salary.annual', appValue: '60000.00', systemValue: '48048', setAt: expect.any(String) }]);
    expect((await employee('4')).title).toBe('Engineer II');
    expect((await payOf('4')).at(-1)).toMatchObject({ amount: 6_000_000 });
  });
});
