import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../../../test/http.js';
import type { components } from '../../../contract-types.js';
import { suggestMapping } from '../../../hris/mapping.js';
import { vendorSyncFixture } from '../test/syncFixture.js';
import { BAMBOOHR_COLUMNS } from './connector.js';
import { BambooHrTestServer } from './testServer.js';

type Integration = components['schemas']['Integration'];
type Connector = components['schemas']['IntegrationConnector'];

/** Before any sync: BambooHR's records last changed long ago. */
const LONG_AGO = '2025-01-01T00:00:00Z';

describe('BambooHR: the mapping suggestion on its field names', () => {
  it('maps the report and compensation columns onto people fields', () => {
    expect(suggestMapping(BAMBOOHR_COLUMNS, 'employees')).toEqual({
      employeeId: 'id',
      firstName: 'firstName',
      lastName: 'lastName',
      email: 'workEmail',
      title: 'jobTitle',
      department: 'department',
      managerEmployeeId: 'supervisorEId',
      country: 'country',
      location: 'location',
      currency: 'compensation.currency',
      startDate: 'hireDate',
      employmentType: 'employmentHistoryStatus',
      status: 'status',
      terminationDate: 'terminationDate',
      baseSalary: 'compensation.rate',
      effectiveDate: 'compensation.startDate',
      gender: 'gender',
      ethnicity: 'ethnicity',
    });
  });
});

describe('BambooHR sync against a server speaking its API', () => {
  const bamboo = new BambooHrTestServer();
  // The fixture starts 5xx back-offs at 10 ms, so the failing sync ends quickly; Retry-After is still honoured.
  const fixture = vendorSyncFixture({ kind: 'bamboohr', companyName: 'Bamboo Co', vendor: bamboo });
  let apiUrl: string;
  let connection: Integration;
  const { api, employee, peopleTables } = fixture;

  const person = (first: string, last: string, extra: Record<string, string | null>) => ({
    employeeNumber: null,
    firstName: first,
    lastName: last,
    workEmail: `${first.toLowerCase()}@acme.test`,
    division: 'North America',
    hireDate: '2021-01-01',
    terminationDate: '0000-00-00',
    status: 'Active',
    employmentHistoryStatus: 'Full-Time',
    supervisorEId: null,
    gender: null,
    ethnicity: null,
    ...extra,
  });

  beforeAll(() => {
    apiUrl = fixture.baseUrl;
    bamboo.addEmployee('1', person('Ana', 'Lopez', { jobTitle: 'VP Engineering', department: 'Engineering', location: 'Seattle', country: 'United States', gender: 'Female' }), LONG_AGO);
    bamboo.addEmployee('2', person('Bo', 'Berg', { jobTitle: 'Engineer', department: 'Engineering', location: 'Berlin', country: 'Germany', supervisorEId: '1', hireDate: '2022-05-01' }), LONG_AGO);
    bamboo.addEmployee('3', person('Cy', 'Chen', { jobTitle: 'Support Specialist', department: 'Support', location: 'Seattle', country: 'United States', supervisorEId: '2', employmentHistoryStatus: 'Part-Time', hireDate: '2023-02-01' }), LONG_AGO);
    bamboo.addCompensation('1', { startDate: '2021-01-01', rate: '100000.00 USD' }, LONG_AGO);
    bamboo.addCompensation('1', { startDate: '2024-03-01', rate: '120000.00 USD', reason: 'Promotion' }, LONG_AGO);
    bamboo.addCompensation('2', { startDate: '2022-05-01', rate: '5000.00 EUR', paidPer: 'Month' }, LONG_AGO);
    bamboo.addCompensation('3', { startDate: '2023-02-01', rate: '50.00 USD', paidPer: 'Hour', type: 'Hourly' }, LONG_AGO);
  });

  /**
   * A sync, ten minutes (BambooHR's clock) after the changes before it: past the five-minute margin
   * an incremental sync reads again, so the next one reads only what changes after this one.
   */
  const syncNow = (dryRun = false) => fixture.sync(connection.id, { dryRun });
  const connect = (config: Record<string, string>, name: string) => fixture.connect(name, config);
  const payOf = (number: string) => fixture.payOf(number, ['reason']);

  it('is in the catalogue as available, and a connection test names what is wrong with the key', async () => {
    const catalogue = await api<{ data: Connector[] }>('/api/integration-connectors');
    expect(catalogue.body.data.find((connector) => connector.kind === 'bamboohr')).toMatchObject({ available: true, availabilityNote: null, category: 'hris', importKinds: ['employees'] });

    const wrongKey = await connect({ companyDomain: 'acme', apiUrl, apiKey: 'not-the-key' }, 'Wrong key');
    expect(wrongKey.body.data).toMatchObject({ status: 'error', statusMessage: 'BambooHR refused the credentials (401): Invalid API key. Check the API key or token and enter it again.' });
    const limited = await connect({ companyDomain: 'acme', apiUrl, apiKey: bamboo.limitedKey }, 'Limited key');
    expect(limited.body.data.status).toBe('error');
    expect(limited.body.data.statusMessage).toBe(
      'BambooHR denied access to the compensation table (403): You do not have access to this resource. The API key’s BambooHR user needs access to every employee’s job information and compensation (a full admin, or an access level with them).',
    );
    const badDomain = await connect({ companyDomain: 'acme.bamboohr.com', apiKey: 'k' }, 'Bad domain');
    expect(badDomain.status).toBe(400);
    expect(badDomain.body.errors).toEqual([{ field: 'config.companyDomain', message: 'must be the part before .bamboohr.com: letters, digits and hyphens' }]);

    const reply = await connect({ companyDomain: 'acme', apiUrl, apiKey: bamboo.apiKey }, 'BambooHR');
    expect(reply.status).toBe(201);
    connection = reply.body.data;
    expect(connection).toMatchObject({ status: 'connected', statusMessage: 'Connected to BambooHR: 3 employees, and their compensation can be read.', secretsSet: ['apiKey'] });
    expect(JSON.stringify(connection)).not.toContain(bamboo.apiKey);
    const stored = await fixture.db('integrations').where({ id: connection.id }).first<{ secrets: string }>();
    expect(stored.secrets).toMatch(/^v1:/);
  });

  it('syncs everything the first time: a dry run writes nothing, the sync writes people, managers and their pay history', async () => {
    // A row per compensation row: Ana's two, Bo's and Cy's one each.
    const dry = await syncNow(true);
    expect(dry).toMatchObject({ status: 'planned', rowCount: 4, plan: { create: 3, compensationRecords: { add: 4 } }, conflicts: [] });
    expect(await fixture.db('employees').where({ company_id: fixture.company.id })).toEqual([]);

    const run = await syncNow();
    expect(run).toMatchObject({ status: 'applied', rowCount: 4, plan: { create: 3, update: 0, compensationRecords: { add: 4 } } });
    const ana = await employee('1');
    const bo = await employee('2');
    const cy = await employee('3');
    expect(ana).toMatchObject({ first_name: 'Ana', email: 'ana@acme.test', title: 'VP Engineering', country_code: 'US', start_date: '2021-01-01', termination_date: null, status: 'active', employment_type: 'full_time', manager_id: null });
    expect(bo).toMatchObject({ manager_id: ana.id, country_code: 'DE', currency: 'EUR' });
    expect(cy).toMatchObject({ manager_id: bo.id, employment_type: 'part_time' });
    // Ana: her history, 100,000.00 USD a year from 2021 (her hire), 120,000.00 from 2024 (in force) = 10,000,000 and 12,000,000 cents.
    expect(await payOf('1')).toEqual([
      { amount: 10_000_000, currency: 'USD', effective_date: '2021-01-01', reason: 'hire' },
      { amount: 12_000_000, currency: 'USD', effective_date: '2024-03-01', reason: 'import' },
    ]);
    // Bo: 5,000.00 EUR a month × 12 = 60,000.00 EUR a year = 6,000,000 cents.
    expect(await payOf('2')).toEqual([{ amount: 6_000_000, currency: 'EUR', effective_date: '2022-05-01', reason: 'hire' }]);
    // Cy: 50.00 USD an hour × 2,080 hours = 104,000.00 USD a year = 10,400,000 cents.
    expect(await payOf('3')).toEqual([{ amount: 10_400_000, currency: 'USD', effective_date: '2023-02-01', reason: 'hire' }]);
    const listed = (await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data;
    expect(listed.lastSync).toMatchObject({ importId: run.id, status: 'applied', incremental: false, conflictCount: 0, create: 3 });
    expect(bamboo.calls.filter((call) => call.startsWith('GET /api/v1/employees/all/tables/compensation')).length).toBeGreaterThan(0);
  });

  it('then reads only what changed since the last applied sync', async () => {
    bamboo.calls.length = 0;
    bamboo.update('2', { jobTitle: 'Senior Engineer' });
    bamboo.addCompensation('2', { startDate: '2026-01-01', rate: '5500.00 EUR', paidPer: 'Month', reason: 'Promotion' });
    const run = await syncNow();
    // Only Bo changed: his two compensation rows read, one update, and a raise of 5,500.00 × 12 = 66,000.00 EUR from 2026-01-01.
    expect(run).toMatchObject({ status: 'applied', rowCount: 2, plan: { create: 0, update: 1, unchanged: 0, compensationRecords: { add: 1 } } });
    expect((await employee('2')).title).toBe('Senior Engineer');
    expect(await payOf('2')).toEqual([
      { amount: 6_000_000, currency: 'EUR', effective_date: '2022-05-01', reason: 'hire' },
      { amount: 6_600_000, currency: 'EUR', effective_date: '2026-01-01', reason: 'import' },
    ]);
    expect(bamboo.calls.some((call) => call.startsWith('GET /api/v1/employees/changed/tables/compensation?since='))).toBe(true);
    expect(bamboo.calls.some((call) => call.startsWith('GET /api/v1/employees/all/tables/compensation'))).toBe(false);
    expect((await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data.lastSync).toMatchObject({ incremental: true, rows: 2 });
  });

  it('waits as long as a 429 asks and then syncs', async () => {
    bamboo.calls.length = 0;
    bamboo.update('3', { department: 'Customer Support' });
    bamboo.rateLimitNext = 2;
    const started = Date.now();
    const run = await syncNow();
    expect(run).toMatchObject({ status: 'applied', rowCount: 1, plan: { update: 1 } });
    expect((await employee('3')).department).toBe('Customer Support');
    // Two 429s with Retry-After: 1 → at least two seconds of waiting, then the report and the table.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(bamboo.calls.filter((call) => call.startsWith('POST /api/v1/reports/custom'))).toHaveLength(3);
  });

  it('fails mid-way with nothing half-written, and the next sync reads the same changes again', async () => {
    bamboo.update('1', { jobTitle: 'CTO' });
    bamboo.addEmployee('4', person('Di', 'Diaz', { jobTitle: 'Engineer', department: 'Engineering', location: 'Seattle', country: 'United States', supervisorEId: '1' }));
    bamboo.addCompensation('4', { startDate: '2026-06-01', rate: '95000.00 USD' });
    bamboo.failCompensation = true;
    const before = await peopleTables();
    const cursorOfLastApplied = async () => (await fixture.db('people_import_runs').where({ integration_id: connection.id, status: 'applied', dry_run: false }).orderBy('created_at', 'desc').first<{ sync_cursor: string }>()).sync_cursor;
    const cursor = await cursorOfLastApplied();
    try {
      const run = await syncNow();
      // The report was read; the compensation table answered 500 on the first try and all four retries.
      expect(run).toMatchObject({ status: 'failed', message: 'BambooHR answered 500: Internal error for the changed compensation rows, 5 times; it may be down.' });
      expect(await peopleTables()).toEqual(before);
      expect(await cursorOfLastApplied()).toBe(cursor);
      expect(cursor).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect((await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data).toMatchObject({ status: 'error', statusMessage: run.message });
    } finally {
      bamboo.failCompensation = false;
    }
    const retried = await syncNow();
    // Ana's two compensation rows and Di's one.
    expect(retried).toMatchObject({ status: 'applied', rowCount: 3, plan: { create: 1, update: 1, compensationRecords: { add: 1 } } });
    expect((await employee('1')).title).toBe('CTO');
    expect(await payOf('4')).toEqual([{ amount: 9_500_000, currency: 'USD', effective_date: '2026-06-01', reason: 'hire' }]);
  });

  it('keeps a field edited in Paybench over the system’s value and reports the conflict until they agree', async () => {
    const ana = await employee('1');
    // An admin corrects Ana's title and salary in Paybench's record editor (the people API, under If-Match).
    const corrected = await api<{ data: { version: number } } & ErrorBody>(`/api/employees/${ana.id}`, { method: 'PATCH', headers: { 'If-Match': `"${ana.version}"` }, json: { title: 'Chief Technology Officer' } });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    const raise = await api<ErrorBody>(`/api/employees/${ana.id}/compensation`, {
      method: 'POST',
      json: { type: 'base_salary', amount: { amount: 13_000_000, currency: 'USD' }, effectiveDate: new Date().toISOString().slice(0, 10), reason: 'adjustment' },
    });
    expect(raise.status, JSON.stringify(raise.body)).toBe(201);
    // Meanwhile BambooHR changes her department (no conflict) and still says CTO at 120,000.00.
    bamboo.update('1', { department: 'Office of the CTO' });
    const run = await syncNow();
    expect(run.status).toBe('applied');
    // On the row in force (line 3, her 2024 pay); her 2021 row is past history and stays as the system has it.
    expect(run.conflicts).toEqual([
      { line: 3, employeeId: '1', field: 'title', column: 'jobTitle', appValue: 'Chief Technology Officer', systemValue: 'CTO', setAt: expect.any(String) },
      { line: 3, employeeId: '1', field: 'baseSalary', column: 'compensation.rate', appValue: '130000.00', systemValue: '120000', setAt: expect.any(String) },
    ]);
    expect(await employee('1')).toMatchObject({ title: 'Chief Technology Officer', department: 'Office of the CTO' });
    // The app's 130,000.00 stays the pay in force: no record of the system's 120,000.00 is added after it.
    expect((await payOf('1')).map((record) => record.amount)).toEqual([10_000_000, 12_000_000, 13_000_000]);
    expect((await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data.lastSync).toMatchObject({ conflictCount: 2 });

    // BambooHR comes to hold the same title: that correction is done; the salary still differs.
    bamboo.update('1', { jobTitle: 'Chief Technology Officer' });
    const agreed = await syncNow();
    expect(agreed.conflicts?.map((conflict) => conflict.field)).toEqual(['baseSalary']);
    expect(await fixture.db('people_field_overrides').where({ employee_id: ana.id }).pluck('field')).toEqual(['baseSalary']);
  });
});
