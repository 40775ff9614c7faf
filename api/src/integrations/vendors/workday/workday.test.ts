import { describe, expect, it } from 'vitest';
import type { components } from '../../../contract-types.js';
import { suggestMapping } from '../../../hris/mapping.js';
import { vendorSyncFixture } from '../test/syncFixture.js';
import { flatten, reportFields, reportTable, tokenUrlOf } from './connector.js';
import { HISTORY_FIELDS, HISTORY_GROUP, REPORT_FIELDS, type WorkdayWorker, WorkdayTestServer } from './testServer.js';

type Integration = components['schemas']['Integration'];
type Connector = components['schemas']['IntegrationConnector'];

const LONG_AGO = '2025-01-01T00:00:00.000Z';

describe('Workday: the mapping suggestion on a worker report’s field aliases', () => {
  it('maps Workday’s usual report fields onto people fields', () => {
    expect(suggestMapping([...REPORT_FIELDS], 'employees')).toEqual({
      employeeId: 'Employee_ID',
      firstName: 'Legal_Name_-_First_Name',
      lastName: 'Legal_Name_-_Last_Name',
      email: 'Email_-_Primary_Work',
      title: 'Business_Title',
      department: 'Supervisory_Organization',
      managerEmployeeId: 'Manager_ID',
      country: 'Country',
      location: 'Location',
      currency: 'Currency',
      startDate: 'Hire_Date',
      employmentType: 'Time_Type',
      status: 'Worker_Status',
      terminationDate: 'Termination_Date',
      legalEntity: 'Company',
      fte: 'FTE',
      baseSalary: 'Total_Base_Pay_Annualized',
      gender: 'Gender',
    });
  });

  it('reads the fields of a report from its schema, and entries with groups, lists and dated offsets as cells', () => {
    const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="Report_Data" type="wd:Report_DataType"/>
      <xs:complexType name="Report_DataType"><xs:sequence><xs:element name="Report_Entry" type="wd:Report_EntryType" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
      <xs:complexType name="Report_EntryType"><xs:sequence><xs:element name="Employee_ID" type="xs:string"/><xs:element name="Hire_Date" type="xs:date"/></xs:sequence></xs:complexType></xs:schema>`;
    expect(reportFields(xsd)).toEqual(['Employee_ID', 'Hire_Date']);
    expect(reportFields('<html>not a schema</html>')).toEqual([]);
    expect([...flatten({ Employee_ID: '21001', Hire_Date: '2021-01-04-08:00', FTE: 100, Cost_Centers: ['CC1', 'CC2'], Pay: [{ Amount: '10', Currency: 'USD' }, { Amount: '2' }] })]).toEqual([
      ['Employee_ID', '21001'],
      ['Hire_Date', '2021-01-04'],
      ['FTE', '100'],
      ['Cost_Centers', 'CC1; CC2'],
      ['Pay.Amount', '10'],
      ['Pay.Currency', 'USD'],
    ]);
    // Columns the schema names come first, also when no entry has them; a field the schema lacks follows.
    expect(reportTable([{ Employee_ID: '1', Extra: 'x' }, { Hire_Date: '2020-02-02' }], ['Employee_ID', 'Hire_Date', 'Gender'])).toEqual({
      columns: ['Employee_ID', 'Hire_Date', 'Gender', 'Extra'],
      rows: [
        { line: 2, values: ['1', '', '', 'x'] },
        { line: 3, values: ['', '2020-02-02', '', ''] },
      ],
    });
    // A group's fields, listed by a type of their own, as "Group.Field".
    const grouped = xsd
      .replace('<xs:element name="Hire_Date" type="xs:date"/>', '<xs:element name="Hire_Date" type="xs:date"/><xs:element name="Compensation_History" type="wd:Compensation_HistoryType" maxOccurs="unbounded"/>')
      .replace('</xs:schema>', '<xs:complexType name="Compensation_HistoryType"><xs:sequence><xs:element name="Effective_Date" type="xs:date"/><xs:element name="Base_Pay" type="xs:decimal"/></xs:sequence></xs:complexType></xs:schema>');
    expect(reportFields(grouped)).toEqual(['Employee_ID', 'Hire_Date', 'Compensation_History.Effective_Date', 'Compensation_History.Base_Pay']);
    expect(tokenUrlOf({ values: { reportUrl: 'https://wd5-services1.myworkday.com/ccx/service/customreport2/acme/ISU_Paybench/Paybench_Workers?format=json' }, secrets: {} })).toBe(
      'https://wd5-services1.myworkday.com/ccx/oauth2/acme/token',
    );
  });
});

describe('Workday: a compensation history group as rows', () => {
  const schema = ['Employee_ID', 'Total_Base_Pay_Annualized', 'Currency', ...HISTORY_FIELDS.map((field) => `${HISTORY_GROUP}.${field}`)];
  const history = { group: HISTORY_GROUP, day: '2026-06-30' };

  it('writes a row per dated entry, oldest first, its amount made yearly, and the suggestion takes pay from them', () => {
    const table = reportTable(
      [
        {
          Employee_ID: '7',
          Total_Base_Pay_Annualized: '90000',
          Currency: 'USD',
          Compensation_History: [
            { Effective_Date: '2024-04-01', Base_Pay: '90000', Currency: 'USD', Frequency: 'Annual' },
            { Effective_Date: '2021-01-04-08:00', Base_Pay: '7000', Currency: 'USD', Frequency: 'Monthly' },
          ],
        },
        // One instance as the object itself; an amount under Amount; no frequency is a year's pay.
        { Employee_ID: '8', Compensation_History: { Effective_Date: '2022-02-01', Amount: '61000.5', Currency: 'EUR' } },
        { Employee_ID: '9', Total_Base_Pay_Annualized: '50000' },
      ],
      schema,
      history,
    );
    expect(table.columns).toEqual(['Annual_Base_Salary', 'Pay_Currency', 'Pay_Effective_Date', 'Pay_Frequency', 'Employee_ID', 'Total_Base_Pay_Annualized', 'Currency']);
    // 7,000 a month × 12 = 84,000 a year.
    expect(table.rows).toEqual([
      { line: 2, values: ['84000', 'USD', '2021-01-04', 'Monthly', '7', '90000', 'USD'] },
      { line: 3, values: ['90000', 'USD', '2024-04-01', 'Annual', '7', '90000', 'USD'] },
      { line: 4, values: ['61000.5', 'EUR', '2022-02-01', '', '8', '', ''] },
      { line: 5, values: ['', '', '', '', '9', '50000', ''] },
    ]);
    expect(suggestMapping(table.columns, 'employees')).toMatchObject({ employeeId: 'Employee_ID', baseSalary: 'Annual_Base_Salary', currency: 'Pay_Currency', effectiveDate: 'Pay_Effective_Date' });
  });

  it('names every worker with an entry it cannot read: no date, not a number, an unknown frequency', () => {
    const bad = [
      { Employee_ID: '7', Compensation_History: [{ Effective_Date: '2024-04-01', Base_Pay: '90000' }, { Base_Pay: '95000' }] },
      { Employee_ID: '8', Compensation_History: [{ Effective_Date: '2024-04-01', Base_Pay: 'ninety' }] },
      { Compensation_History: [{ Effective_Date: '2024-04-01', Base_Pay: '10', Frequency: 'Fortnightly' }] },
    ];
    expect(() => reportTable(bad, schema, history)).toThrow(
      'Workday’s report has compensation history entries Paybench cannot read, so nothing was written: worker 7: Compensation_History entry 2 has no Effective_Date; worker 8: Compensation_History entry 1 has Base_Pay "ninety", not a number; the report’s entry 3: Compensation_History entry 1 has Frequency "Fortnightly", which Paybench cannot make a yearly amount of (Annual, Monthly, Semi-monthly, Bi-weekly, Weekly, Daily or Hourly).',
    );
  });
});

describe('Workday sync from a report as a service', () => {
  const workday = new WorkdayTestServer();
  const fixture = vendorSyncFixture({ kind: 'workday', companyName: 'Workday Co', vendor: workday });
  let connection: Integration;
  const worker = (id: string, first: string, last: string, extra: WorkdayWorker = {}): WorkdayWorker => ({
    Employee_ID: id,
    'Legal_Name_-_First_Name': first,
    'Legal_Name_-_Last_Name': last,
    'Email_-_Primary_Work': `${first.toLowerCase()}@workday.test`,
    Business_Title: 'Engineer',
    Supervisory_Organization: 'Engineering',
    Manager_ID: '21001',
    Location: 'Seattle',
    Country: 'US',
    Hire_Date: '2021-03-01',
    Worker_Status: 'Active',
    Time_Type: 'Full_time',
    FTE: '100',
    Company: 'Acme Inc.',
    Total_Base_Pay_Annualized: '150000',
    Currency: 'USD',
    ...extra,
  });
  const basic = (extra: Record<string, string> = {}) => ({ reportUrl: workday.reportUrl(fixture.baseUrl), authMethod: 'basic', username: workday.username, password: workday.password, ...extra });
  const oauth = (extra: Record<string, string> = {}) => ({
    reportUrl: workday.reportUrl(fixture.baseUrl),
    authMethod: 'oauth',
    clientId: workday.clientId,
    clientSecret: workday.clientSecret,
    refreshToken: workday.refreshToken,
    changedSincePrompt: 'Changed_Since',
    ...extra,
  });

  it('is available, and a connection test names what is wrong: credentials, the report, its sharing, the rate limit', async () => {
    workday.add(worker('21001', 'Logan', 'McNeil', { Business_Title: 'Chief Executive Officer', Manager_ID: undefined, Total_Base_Pay_Annualized: '300000', Hire_Date: '2019-01-02-08:00', Gender: 'Male' }), LONG_AGO);
    for (let id = 21002; id <= 21011; id += 1) workday.add(worker(String(id), `W${id}`, 'Worker', { Total_Base_Pay_Annualized: String(100_000 + id - 21000) }), LONG_AGO);
    workday.add(worker('21012', 'Pat', 'Parttime', { Time_Type: 'Part_time', FTE: '50', Scheduled_Weekly_Hours: undefined, Total_Base_Pay_Annualized: '60000.50' }), LONG_AGO);

    const catalogue = await fixture.api<{ data: Connector[] }>('/api/integration-connectors');
    expect(catalogue.body.data.find((connector) => connector.kind === 'workday')).toMatchObject({ available: true, availabilityNote: null, category: 'hris' });

    const missingPassword = await fixture.connect('No password', { reportUrl: workday.reportUrl(fixture.baseUrl), authMethod: 'basic', username: workday.username });
    expect(missingPassword.status).toBe(400);
    expect(missingPassword.body.errors).toEqual([{ field: 'config.password', message: 'is required for the basic sign-in' }]);

    const wrong = await fixture.connect('Wrong password', basic({ password: 'nope' }));
    expect(wrong.body.data).toMatchObject({ status: 'error', statusMessage: 'Workday refused the credentials (401): Unauthorized. Check the API key or token and enter it again.' });
    const unshared = await fixture.connect('Not shared', basic({ username: workday.unsharedUsername }));
    expect(unshared.body.data.statusMessage).toBe(
      'Workday denied access to the report (403): The task submitted is not authorized. Share the report with the integration system user (the report’s Share settings), and give its security group Get access to the data sources the report reads (worker data, compensation).',
    );
    const noReport = await fixture.connect('No report', basic({ reportUrl: workday.reportUrl(fixture.baseUrl, 'Paybench_Workerz') }));
    expect(noReport.body.data.statusMessage).toBe(
      'Workday has no report at this URL (404). Check the report URL (tenant, the report owner and the report’s web service name, as its View URLs show) and that the report is enabled as a web service.',
    );
    const revoked = await fixture.connect('Revoked', oauth({ refreshToken: 'revoked' }));
    expect(revoked.body.data.statusMessage).toBe(
      'Workday refused the token endpoint (400): invalid_grant. Workday refused the API client’s credentials or refresh token: check the client id and secret, and generate a new refresh token if it was revoked.',
    );
    workday.rateLimitNext = 1;
    workday.retryAfterSeconds = '600';
    const limited = await fixture.connect('Limited', basic());
    expect(limited.body.data.statusMessage).toBe('Workday is rate-limiting Paybench (429) and asks to wait 600 seconds, longer than a sync waits; the next sync tries again.');
    workday.retryAfterSeconds = '1';

    const reply = await fixture.connect('Workday', oauth());
    expect(reply.status).toBe(201);
    connection = reply.body.data;
    expect(connection).toMatchObject({ status: 'connected', statusMessage: 'Connected to Workday: the report lists 12 workers with 22 fields. The report has a Compensation_History group: name it as the compensation history group to read each worker’s pay history.' });
    expect(connection.secretsSet.sort()).toEqual(['clientSecret', 'refreshToken']);
    expect(JSON.stringify(connection)).not.toContain(workday.refreshToken);
    expect((await fixture.db('integrations').where({ id: connection.id }).first<{ secrets: string }>()).secrets).toMatch(/^v1:/);
  });

  it('a dry run writes nothing; the sync writes workers, managers, part-timers and pay from the whole report', async () => {
    const dry = await fixture.sync(connection.id, { dryRun: true });
    expect(dry).toMatchObject({ status: 'planned', rowCount: 12, plan: { create: 12 }, conflicts: [] });
    expect(await fixture.db('employees').where({ company_id: fixture.company.id })).toEqual([]);

    workday.calls.length = 0;
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({ status: 'applied', rowCount: 12, plan: { create: 12, update: 0 } });
    const ceo = await fixture.employee('21001');
    expect(ceo).toMatchObject({ first_name: 'Logan', title: 'Chief Executive Officer', start_date: '2019-01-02', currency: 'USD', legal_entity: 'Acme Inc.', manager_id: null });
    expect(await fixture.employee('21002')).toMatchObject({ manager_id: ceo.id, department: 'Engineering', employment_type: 'full_time', status: 'active' });
    expect(await fixture.employee('21012')).toMatchObject({ employment_type: 'part_time' });
    expect(Number((await fixture.employee('21012')).fte)).toBe(0.5);
    expect(await fixture.payOf('21001')).toEqual([{ amount: 30_000_000, currency: 'USD', effective_date: '2019-01-02' }]);
    expect(await fixture.payOf('21012')).toEqual([{ amount: 6_000_050, currency: 'USD', effective_date: '2021-03-01' }]);
    // The first sync reads the whole report: a token, the report and its schema; no prompt.
    expect(workday.calls.filter((call) => call.startsWith('POST /ccx/oauth2/acme/token'))).toHaveLength(1);
    expect(workday.calls.filter((call) => call.includes('format=json'))).toEqual(['GET /ccx/service/customreport2/acme/ISU_Paybench/Paybench_Workers?format=json']);
  });

  it('then asks the report for the workers changed since the last applied sync', async () => {
    workday.update('21003', { Business_Title: 'Senior Engineer', Total_Base_Pay_Annualized: '120000' });
    workday.calls.length = 0;
    const today = new Date().toISOString().slice(0, 10);
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({ status: 'applied', rowCount: 1, plan: { update: 1, compensationRecords: { add: 1 } } });
    expect((await fixture.employee('21003')).title).toBe('Senior Engineer');
    expect((await fixture.payOf('21003')).at(-1)).toEqual({ amount: 12_000_000, currency: 'USD', effective_date: today });
    expect(workday.calls.some((call) => /format=json/.test(call) && /Changed_Since=\d{4}-\d{2}-\d{2}T/.test(call))).toBe(true);
    expect((await fixture.api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data.lastSync).toMatchObject({ incremental: true, rows: 1 });
  });

  it('waits out a 429 with its Retry-After and then syncs', async () => {
    workday.update('21004', { Location: 'Austin' });
    workday.rateLimitNext = 1;
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({ status: 'applied', rowCount: 1, plan: { update: 1 } });
  });

  it('fails with nothing half-written when the report keeps failing, and the next sync reads the same changes', async () => {
    workday.update('21005', { Business_Title: 'Staff Engineer' });
    workday.update('21006', { Business_Title: 'Staff Engineer' });
    workday.failNext = 5;
    const before = await fixture.peopleTables();
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({ status: 'failed', message: 'Workday answered 500: An internal error occurred for the report, 5 times; it may be down.' });
    expect(await fixture.peopleTables()).toEqual(before);
    const retried = await fixture.sync(connection.id);
    expect(retried).toMatchObject({ status: 'applied', rowCount: 2, plan: { update: 2 } });
  });

  it('rejects a report with a bad row, naming its line, and writes nothing', async () => {
    workday.add(worker('21013', 'Eve', 'Error', { Hire_Date: '2024-02-31', Manager_ID: '99999' }));
    const before = await fixture.peopleTables();
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({ status: 'rejected', errorCount: 2 });
    expect(run.errors).toEqual([
      { line: 2, column: 'Hire_Date', field: 'startDate', message: '"2024-02-31" is not a real date' },
      { line: 2, column: 'Manager_ID', field: 'managerEmployeeId', message: '99999 is neither in the file nor an employee of this company' },
    ]);
    expect(await fixture.peopleTables()).toEqual(before);
  });

  it('signs in with an integration system user (basic) as well', async () => {
    workday.workers.pop();
    const reply = await fixture.connect('Workday (ISU)', basic());
    expect(reply.body.data).toMatchObject({ status: 'connected', secretsSet: ['password'] });
    const run = await fixture.sync(reply.body.data.id, { dryRun: true });
    // No prompt named: the whole report, and every worker as Paybench already has them.
    expect(run).toMatchObject({ status: 'planned', rowCount: 12, plan: { create: 0, update: 0, unchanged: 12 } });
  });

  it('keeps only the sign-in fields of the method chosen, also when the method is switched', async () => {
    const both = await fixture.connect('Workday (both)', basic({ clientId: workday.clientId, clientSecret: workday.clientSecret }));
    expect(both.body.data).toMatchObject({ status: 'connected', secretsSet: ['password'] });
    expect(both.body.data.config).not.toHaveProperty('clientId');
    const switched = await fixture.api<{ data: Integration }>(`/api/integrations/${both.body.data.id}`, {
      method: 'PATCH',
      json: { version: both.body.data.version, config: { authMethod: 'oauth', clientId: workday.clientId, clientSecret: workday.clientSecret, refreshToken: workday.refreshToken } },
    });
    expect(switched.status).toBe(200);
    // The basic sign-in's user and password are not kept once OAuth is chosen: no secret nobody uses.
    expect(switched.body.data.secretsSet.sort()).toEqual(['clientSecret', 'refreshToken']);
    expect(switched.body.data.config).not.toHaveProperty('username');
  });
});

describe('Workday sync of pay history from a compensation history group', () => {
  const workday = new WorkdayTestServer();
  const fixture = vendorSyncFixture({ kind: 'workday', companyName: 'Workday History Co', vendor: workday });
  let connection: Integration;
  const pay = (Effective_Date: string | undefined, Base_Pay: string, Currency: string, Frequency: string) => ({ Effective_Date, Base_Pay, Currency, Frequency });
  const worker = (id: string, first: string, extra: WorkdayWorker): WorkdayWorker => ({
    Employee_ID: id,
    'Legal_Name_-_First_Name': first,
    'Legal_Name_-_Last_Name': 'History',
    'Email_-_Primary_Work': `${first.toLowerCase()}@workday.test`,
    Business_Title: 'Engineer',
    Country: 'US',
    Worker_Status: 'Active',
    Time_Type: 'Full_time',
    ...extra,
  });

  it('connects with the group named, and the first sync writes a pay record per dated entry', async () => {
    // Given newest first, as a report sorted so would; the pay in force is in the report too.
    workday.add(
      worker('31001', 'Maya', {
        Hire_Date: '2020-01-06',
        Total_Base_Pay_Annualized: '102500.50',
        Currency: 'USD',
        [HISTORY_GROUP]: [pay('2024-04-01', '102500.50', 'USD', 'Annual'), pay('2022-04-01', '95000', 'USD', 'Annual'), pay('2020-01-06', '7000', 'USD', 'Monthly')],
      }),
    );
    workday.add(worker('31002', 'Noah', { Manager_ID: '31001', Hire_Date: '2023-02-01', Currency: 'EUR', [HISTORY_GROUP]: [pay('2023-02-01', '50', 'EUR', 'Hourly')] }));
    const bad = await fixture.connect('Bad group', { reportUrl: workday.reportUrl(fixture.baseUrl), authMethod: 'basic', username: workday.username, password: workday.password, compensationHistoryGroup: 'Compensation History' });
    expect(bad.body.errors).toEqual([{ field: 'config.compensationHistoryGroup', message: 'must be the group’s XML alias as in the report (letters, digits, _ and -), e.g. Compensation_History' }]);
    const reply = await fixture.connect('Workday (history)', { reportUrl: workday.reportUrl(fixture.baseUrl), authMethod: 'basic', username: workday.username, password: workday.password, compensationHistoryGroup: HISTORY_GROUP });
    // 18 report fields and the history's 4 columns in place of the group's 4 fields.
    expect(reply.body.data).toMatchObject({ status: 'connected', statusMessage: 'Connected to Workday: the report lists 2 workers with 22 fields.' });
    connection = reply.body.data;

    const run = await fixture.sync(connection.id);
    // Maya's three entries and Noah's one: four rows, two people, four pay records.
    expect(run).toMatchObject({ status: 'applied', rowCount: 4, plan: { create: 2, compensationRecords: { add: 4 } } });
    // Maya: 7,000.00 a month × 12 = 84,000.00 (8,400,000 cents) from her hire; 95,000.00; then 102,500.50.
    expect(await fixture.payOf('31001')).toEqual([
      { amount: 8_400_000, currency: 'USD', effective_date: '2020-01-06' },
      { amount: 9_500_000, currency: 'USD', effective_date: '2022-04-01' },
      { amount: 10_250_050, currency: 'USD', effective_date: '2024-04-01' },
    ]);
    // Noah: 50.00 EUR an hour × 2,080 hours = 104,000.00 EUR a year.
    expect(await fixture.payOf('31002')).toEqual([{ amount: 10_400_000, currency: 'EUR', effective_date: '2023-02-01' }]);
    expect((await fixture.employee('31002')).manager_id).toBe((await fixture.employee('31001')).id);
  });

  it('adds nothing on a second sync, and only a new entry on the next', async () => {
    const before = await fixture.peopleTables();
    const again = await fixture.sync(connection.id);
    expect(again).toMatchObject({ status: 'applied', rowCount: 4, plan: { create: 0, update: 0, compensationRecords: { add: 0 } } });
    expect((await fixture.peopleTables()).pay).toEqual(before.pay);

    workday.update('31002', { [HISTORY_GROUP]: [pay('2023-02-01', '50', 'EUR', 'Hourly'), pay('2025-03-01', '9000', 'EUR', 'Monthly')] });
    const raise = await fixture.sync(connection.id);
    expect(raise).toMatchObject({ status: 'applied', rowCount: 5, plan: { compensationRecords: { add: 1 } } });
    // 9,000.00 EUR a month × 12 = 108,000.00 EUR.
    expect(await fixture.payOf('31002')).toEqual([
      { amount: 10_400_000, currency: 'EUR', effective_date: '2023-02-01' },
      { amount: 10_800_000, currency: 'EUR', effective_date: '2025-03-01' },
    ]);
  });

  it('fails naming each worker with an entry it cannot read, and writes nothing', async () => {
    workday.update('31001', {
      [HISTORY_GROUP]: [pay('2020-01-06', '7000', 'USD', 'Monthly'), pay('2022-04-01', '95000', 'USD', 'Annual'), pay('2024-04-01', '102500.50', 'USD', 'Annual'), pay('2026-01-01', 'eighty', 'USD', 'Annual')],
    });
    workday.add(worker('31003', 'Ola', { Hire_Date: '2024-09-01', [HISTORY_GROUP]: [pay(undefined, '70000', 'USD', 'Annual')] }));
    const before = await fixture.peopleTables();
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({
      status: 'failed',
      message:
        'Workday’s report has compensation history entries Paybench cannot read, so nothing was written: worker 31001: Compensation_History entry 4 has Base_Pay "eighty", not a number; worker 31003: Compensation_History entry 1 has no Effective_Date.',
    });
    expect(await fixture.peopleTables()).toEqual(before);
  });
});
