import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import { type Socket, io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, type Reply, baseUrl, request } from '../../test/http.js';
import pino from 'pino';
import type { components } from '../contract-types.js';
import { executeRun } from './run.js';
import { runRow } from './service.js';
import { insertRun } from './store.js';
import type { SourceTable } from '../kernel/files/table.js';

type ImportFile = components['schemas']['PeopleImportFile'];
type PeopleImport = components['schemas']['PeopleImport'];
type Mapping = components['schemas']['PeopleImportMapping'];
type Field = components['schemas']['PeopleImportField'];
type Kind = components['schemas']['PeopleImportKind'];

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export async function uploadFile(headers: Record<string, string>, kind: Kind, body: string | Buffer, filename = 'people.csv', type = 'text/csv'): Promise<Reply<{ data: ImportFile } & ErrorBody>> {
  return request<{ data: ImportFile } & ErrorBody>(`/api/people-imports/files?kind=${kind}&filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': type },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}

export async function finishedImport(headers: Record<string, string>, id: string): Promise<PeopleImport> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const reply = await request<{ data: PeopleImport }>(`/api/people-imports/runs/${id}`, { headers });
    if (!['queued', 'running'].includes(reply.body.data.status)) return reply.body.data;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${reply.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Uploads and runs a file to its end, as a person would: upload, start, follow. */
async function importFile(headers: Record<string, string>, kind: Kind, body: string | Buffer, options: { dryRun?: boolean; mapping?: Record<string, string>; mappingName?: string; type?: string; filename?: string } = {}): Promise<PeopleImport> {
  const uploaded = await uploadFile(headers, kind, body, options.filename ?? (options.type === XLSX_TYPE ? 'people.xlsx' : 'people.csv'), options.type);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const started = await request<{ data: PeopleImport } & ErrorBody>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, {
    method: 'POST',
    headers,
    json: { dryRun: options.dryRun ?? false, ...(options.mapping ? { mapping: options.mapping } : {}), ...(options.mappingName ? { mappingName: options.mappingName } : {}) },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body.data).toMatchObject({ status: 'queued', kind, source: { type: 'file', fileId: uploaded.body.data.id } });
  return finishedImport(headers, started.body.data.id);
}

const HEADER = 'Emp ID,Legal First Name,Surname,Work Email,Job Title,Dept,Manager ID,Country,Office,Pay Currency,Hire Date,Job Family,Job Level,Annual Base Salary,Target Bonus %,Gender';

interface StoredEmployee {
  id: string;
  employee_number: string;
  first_name: string;
  title: string;
  manager_id: string | null;
  currency: string;
  location_id: string | null;
  job_family_id: string | null;
  level_id: string | null;
  track: string | null;
  country_code: string | null;
  start_date: string | null;
  demographics: string;
  version: number;
}

describe('HRIS imports', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: Record<string, string>;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'HRIS Co');
    admin = bearer(company.users.admin!);
  });
  afterAll(() => sockets.forEach((socket) => socket.close()));

  const employees = (): Promise<StoredEmployee[]> => db('employees').where({ company_id: company.id }).orderBy('employee_number');
  const pay = (employeeId: string) => db('compensation_records').where({ employee_id: employeeId }).orderBy(['type', 'effective_date']).select('type', 'amount', 'currency', 'percent_of_base_bp', 'effective_date', 'source');

  it('lists the fields a file can fill, required ones first', async () => {
    const reply = await request<{ data: Field[] }>('/api/people-imports/fields?kind=employees', { headers: admin });
    expect(reply.status).toBe(200);
    expect(reply.body.data.slice(0, 3).map((field) => field.field)).toEqual(['employeeId', 'firstName', 'lastName']);
    expect(reply.body.data.find((field) => field.field === 'baseSalary')).toMatchObject({ required: false, permission: 'employeeCompensation' });
    const grants = await request<{ data: Field[] }>('/api/people-imports/fields?kind=equityGrants', { headers: admin });
    expect(grants.body.data.filter((field) => field.required).map((field) => field.field).sort()).toEqual(['employeeId', 'grantDate', 'grantId', 'grantType', 'shares']);
  });

  it('reads the header row and suggests a mapping by fuzzy-matching the column names', async () => {
    const reply = await uploadFile(admin, 'employees', `${HEADER},Favourite Colour\nE1,Ana,Lopez,,,,,,,,,,,,,,blue\n`);
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ kind: 'employees', filename: 'people.csv', format: 'csv', rowCount: 1, missingRequiredFields: [] });
    expect(reply.body.data.columns).toHaveLength(17);
    expect(reply.body.data.suggestedMapping).toEqual({
      employeeId: 'Emp ID',
      firstName: 'Legal First Name',
      lastName: 'Surname',
      email: 'Work Email',
      title: 'Job Title',
      department: 'Dept',
      managerEmployeeId: 'Manager ID',
      country: 'Country',
      location: 'Office',
      currency: 'Pay Currency',
      startDate: 'Hire Date',
      jobFamily: 'Job Family',
      level: 'Job Level',
      baseSalary: 'Annual Base Salary',
      bonusTargetPercent: 'Target Bonus %',
      gender: 'Gender',
    });
    const again = await request<{ data: ImportFile }>(`/api/people-imports/files/${reply.body.data.id}`, { headers: admin });
    expect(again.body.data).toEqual(reply.body.data);
    // A file is its uploader's: another admin of the company does not see it.
    const colleague = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('admin')!] });
    expect((await request(`/api/people-imports/files/${reply.body.data.id}`, { headers: bearer(colleague) })).status).toBe(404);
  });

  it('refuses what is not a table, and other media types', async () => {
    const empty = await uploadFile(admin, 'employees', '\n\n');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/header row/);
    const json = await request<ErrorBody>('/api/people-imports/files?kind=employees', { method: 'POST', headers: admin, json: { rows: [] } });
    expect(json.status).toBe(415);
    expect(json.body.message).toBe(`Send the file as one of: text/csv, ${XLSX_TYPE}.`);
    const broken = await uploadFile(admin, 'employees', Buffer.from('PK\u0003\u0004 not really a zip'), 'people.xlsx', XLSX_TYPE);
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/not a readable XLSX workbook/);
  });

  it('reports every bad row with its line and column, and writes nothing', async () => {
    const file = [
      HEADER,
      'B1,Ana,Lopez,ana@b.test,Engineer,R&D,,US,Seattle,USD,2024-01-15,Software Engineering,P3,"150,000",10,Female',
      'B2,Bo,,bo-at-b.test,Engineer,R&D,B9,Narnia,Springfield,ZZZ,15/01/2024,Astrology,Z9,lots,ten,',
      'B1,Cy,Ng,,,,,,,,,,,,,',
    ].join('\n');
    const run = await importFile(admin, 'employees', file);
    expect(run.errors).toEqual([
      { line: 3, column: 'Surname', field: 'lastName', message: 'is required' },
      { line: 3, column: 'Work Email', field: 'email', message: '"bo-at-b.test" is not an e-mail address' },
      { line: 3, column: 'Pay Currency', field: 'currency', message: '"ZZZ" is not an ISO 4217 currency code' },
      { line: 3, column: 'Country', field: 'country', message: '"Narnia" is not a country (write its ISO code, e.g. DE, or its English name)' },
      { line: 3, column: 'Office', field: 'location', message: '"Springfield" is not a location of the market catalog (add the employee\'s country to place them in it)' },
      { line: 3, column: 'Hire Date', field: 'startDate', message: '"15/01/2024" is not a date (write it as YYYY-MM-DD)' },
      { line: 3, column: 'Job Family', field: 'jobFamily', message: '"Astrology" is not a job family of the market catalog' },
      { line: 3, column: 'Job Level', field: 'level', message: '"Z9" is not a level of the market catalog (S1–S3, P1–P6, M3–M6, E7–E9)' },
      { line: 3, column: 'Target Bonus %', field: 'bonusTargetPercent', message: '"ten" is not a percentage (write 15 or 15%)' },
      { line: 3, column: 'Manager ID', field: 'managerEmployeeId', message: 'B9 is neither in the file nor an employee of this company' },
      { line: 3, column: 'Annual Base Salary', field: 'baseSalary', message: '"lots" is not an amount' },
      { line: 4, column: 'Emp ID', field: 'employeeId', message: 'employee id B1 is already on line 2' },
    ]);
    expect(run).toMatchObject({ status: 'rejected', errorCount: 12, plan: null, message: 'The file has 12 problems; nothing was written.' });
    expect(await employees()).toEqual([]);
  });

  it('places a city outside the catalog\'s metros in its country, and a catalog metro at the metro', async () => {
    const file = [
      HEADER,
      'M1,Marta,Ruiz,marta@hris.test,Engineer,R&D,,ES,Madrid,EUR,2024-01-15,Software Engineering,P3,"58.000,00",,',
      'M2,Lars,Holm,,Engineer,R&D,,Denmark,Aarhus,DKK,2024-01-15,Software Engineering,P3,610000,,',
      'M3,Ana,Lopez,,Engineer,R&D,,US,Seattle,USD,2024-01-15,Software Engineering,P3,150000,,',
    ].join('\n');
    const abroad = await createTestCompany(db, 'HRIS Abroad');
    const run = await importFile(bearer(abroad.users.admin!), 'employees', file);
    expect(run.errors).toEqual([]);
    expect(run.status).toBe('applied');
    const placed: StoredEmployee[] = await db('employees').where({ company_id: abroad.id }).orderBy('employee_number');
    // Spain is ISO 3166-1 numeric 724, Denmark 208; Seattle is the catalog's metro.
    expect(placed.map((employee) => [employee.employee_number, employee.country_code, employee.location_id])).toEqual([
      ['M1', 'ES', '724'],
      ['M2', 'DK', '208'],
      ['M3', 'US', 'us_seattle'],
    ]);
  });

  it('refuses a management cycle, naming it', async () => {
    const file = ['Employee ID,First Name,Last Name,Manager ID', 'C1,A,A,C3', 'C2,B,B,C1', 'C3,C,C,C2', 'C4,D,D,C4'].join('\n');
    const run = await importFile(admin, 'employees', file);
    expect(run.status).toBe('rejected');
    expect(run.errors).toEqual([
      { line: 2, column: 'Manager ID', field: 'managerEmployeeId', message: 'would make a management cycle: C1 → C3 → C2 → C1' },
      { line: 3, column: 'Manager ID', field: 'managerEmployeeId', message: 'would make a management cycle: C2 → C1 → C3 → C2' },
      { line: 4, column: 'Manager ID', field: 'managerEmployeeId', message: 'would make a management cycle: C3 → C2 → C1 → C3' },
      { line: 5, column: 'Manager ID', field: 'managerEmployeeId', message: 'an employee cannot be their own manager' },
    ]);
    expect(await employees()).toEqual([]);
  });

  it('refuses a leave that ends before it starts, with the line, in the employee API\'s words, and writes nothing', async () => {
    const leaving = await createTestCompany(db, 'HRIS Leave');
    const headers = bearer(leaving.users.admin!);
    const stored = () => db('employees').where({ company_id: leaving.id }).orderBy('employee_number').select('employee_number', 'leave_start_date', 'leave_end_date');
    const header = 'Employee ID,First Name,Last Name,Leave start date,Leave end date';
    const backwards = [header, 'L1,Lia,Away,2025-11-01,2026-03-31', 'L2,Lou,Back,2025-11-01,2025-10-01'].join('\n');
    const run = await importFile(headers, 'employees', backwards);
    expect(run.errors).toEqual([{ line: 3, column: 'Leave end date', field: 'leaveEndDate', message: 'must not be before startDate' }]);
    expect(run).toMatchObject({ status: 'rejected', errorCount: 1, plan: null, message: 'The file has 1 problem; nothing was written.' });
    // Not even the good line is written.
    expect(await stored()).toEqual([]);
    // The control: the same file with Lou's leave the right way round imports both leaves.
    const fixed = await importFile(headers, 'employees', [header, 'L1,Lia,Away,2025-11-01,2026-03-31', 'L2,Lou,Back,2025-10-01,2025-11-01'].join('\n'));
    expect(fixed.errors).toEqual([]);
    expect(fixed.status).toBe('applied');
    expect(await stored()).toEqual([
      { employee_number: 'L1', leave_start_date: '2025-11-01', leave_end_date: '2026-03-31' },
      { employee_number: 'L2', leave_start_date: '2025-10-01', leave_end_date: '2025-11-01' },
    ]);
    // A later file moving only the start past the stored end is refused on the start's column.
    const moved = await importFile(headers, 'employees', ['Employee ID,First Name,Last Name,Leave start date', 'L2,Lou,Back,2025-12-01'].join('\n'));
    expect(moved.errors).toEqual([{ line: 2, column: 'Leave start date', field: 'leaveStartDate', message: 'must not be after endDate' }]);
    expect(moved.status).toBe('rejected');
    expect((await stored())[1]).toEqual({ employee_number: 'L2', leave_start_date: '2025-10-01', leave_end_date: '2025-11-01' });
  });

  it('imports job codes from a "Job code" column: stored trimmed, updated alone, and at most 64 characters', async () => {
    const coding = await createTestCompany(db, 'HRIS Job Codes');
    const headers = bearer(coding.users.admin!);
    const header = 'Employee ID,First Name,Last Name,Job Title,Job code';
    const uploaded = await uploadFile(headers, 'employees', `${header}\nJ1,Jo,Code,Engineer,ENG-3\n`);
    expect(uploaded.body.data.suggestedMapping).toEqual({ employeeId: 'Employee ID', firstName: 'First Name', lastName: 'Last Name', title: 'Job Title', jobCode: 'Job code' });
    const jobCodeOf = async (number: string): Promise<string | null | undefined> => {
      const row = (await db('employees').where({ company_id: coding.id, employee_number: number }).first('id')) as { id: string };
      const reply = await request<{ data: { jobCode?: string | null } }>(`/api/employees/${row.id}`, { headers });
      expect(reply.status).toBe(200);
      return reply.body.data.jobCode;
    };

    const first = await importFile(headers, 'employees', [header, 'J1,Jo,Code,Engineer,"  ENG-3 "', 'J2,Al,Blank,Analyst,'].join('\n'));
    expect(first.errors).toEqual([]);
    expect(first.status).toBe('applied');
    expect(await jobCodeOf('J1')).toBe('ENG-3');
    expect(await jobCodeOf('J2')).toBeNull();

    // Only J1's code changes: one update, J2 unchanged.
    const recoded = await importFile(headers, 'employees', [header, 'J1,Jo,Code,Engineer,ENG-4', 'J2,Al,Blank,Analyst,'].join('\n'));
    expect(recoded.status).toBe('applied');
    expect(recoded.plan).toMatchObject({ create: 0, update: 1, unchanged: 1, changes: [{ line: 2, key: 'J1', action: 'update' }] });
    expect(await jobCodeOf('J1')).toBe('ENG-4');

    const tooLong = 'X'.repeat(65);
    const refused = await importFile(headers, 'employees', [header, 'J1,Jo,Code,Engineer,ENG-5', `J2,Al,Blank,Analyst,${tooLong}`].join('\n'));
    expect(refused.errors).toEqual([{ line: 3, column: 'Job code', field: 'jobCode', message: 'is longer than 64 characters' }]);
    expect(refused).toMatchObject({ status: 'rejected', errorCount: 1, plan: null, message: 'The file has 1 problem; nothing was written.' });
    // Not even J1's good line is written.
    expect(await jobCodeOf('J1')).toBe('ENG-4');
    expect(await jobCodeOf('J2')).toBeNull();
  });

  it('plans with a dry run, applies in one go, and changes nothing the second time', async () => {
    const file = [
      HEADER,
      'E2,Bo,Berg,bo@hris.test,Engineer,R&D,E1,Germany,Berlin,EUR,2023-03-01,software_engineering,p2,72.000,,Male',
      'E1,Ana,Lopez,ana@hris.test,VP Engineering,R&D,,US,Seattle,USD,2021-06-01,Software Engineering,E7,"$250,000.00",25%,Female',
      'E3,Cy,Ng,,Analyst,Finance,E1,CA,Toronto,,2025-02-10,Finance,P1,90000,,',
    ].join('\n');
    // "72.000" could be 72 or 72,000 euros: refused rather than guessed; "72.000,00" is unambiguous.
    const refused = await importFile(admin, 'employees', file);
    expect(refused.errors).toEqual([{ line: 2, column: 'Annual Base Salary', field: 'baseSalary', message: '"72.000" is ambiguous (thousands or decimals?): write it without a thousands separator' }]);
    const fixed = file.replace(',72.000,', ',"72.000,00",');

    const dry = await importFile(admin, 'employees', fixed, { dryRun: true });
    expect(dry.status).toBe('planned');
    expect(dry.plan).toEqual({
      dryRun: true,
      rows: 3,
      create: 3,
      update: 0,
      unchanged: 0,
      compensationRecords: { add: 4, update: 0 },
      changes: [
        { line: 2, key: 'E2', action: 'create' },
        { line: 3, key: 'E1', action: 'create' },
        { line: 4, key: 'E3', action: 'create' },
      ],
      changesTruncated: false,
      marketExclusions: expect.objectContaining({ activeEmployees: 3 }) as unknown,
    });
    // Pay dated by start dates of 2021 and 2023: more than 24 months before today, so the market leaves E1 and E2 out.
    expect(dry.plan?.marketExclusions?.reasons.find((entry) => entry.reason === 'stale_pay')?.employees).toBeGreaterThanOrEqual(2);
    expect(await employees()).toEqual([]);

    const applied = await importFile(admin, 'employees', fixed);
    expect(applied.status).toBe('applied');
    expect(applied.plan).toMatchObject({ dryRun: false, create: 3, update: 0, unchanged: 0, compensationRecords: { add: 4, update: 0 } });
    const stored = await employees();
    const byNumber = new Map(stored.map((employee) => [employee.employee_number, employee]));
    const ana = byNumber.get('E1')!;
    expect(byNumber.get('E2')).toMatchObject({ manager_id: ana.id, currency: 'EUR', location_id: 'de_berlin', country_code: 'DE', job_family_id: 'software_engineering', level_id: 'p2', track: 'tr_p', start_date: '2023-03-01' });
    expect(byNumber.get('E3')).toMatchObject({ manager_id: ana.id, currency: 'USD', location_id: 'ca_toronto', job_family_id: 'finance' });
    expect(ana).toMatchObject({ manager_id: null, level_id: 'e7', track: 'tr_vp' });
    expect(JSON.parse(ana.demographics)).toEqual({ gender: 'Female' });
    expect(await pay(ana.id)).toEqual([
      { type: 'base_salary', amount: 25_000_000, currency: 'USD', percent_of_base_bp: null, effective_date: '2021-06-01', source: 'hris_import' },
      { type: 'bonus_target', amount: 6_250_000, currency: 'USD', percent_of_base_bp: 2500, effective_date: '2021-06-01', source: 'hris_import' },
    ]);

    const again = await importFile(admin, 'employees', fixed);
    expect(again.plan).toMatchObject({ create: 0, update: 0, unchanged: 3, compensationRecords: { add: 0, update: 0 }, changes: [] });
    expect(await employees()).toEqual(stored);

    // A raise with its date adds one dated record; a new title updates the employee.
    const raised = fixed.replace('Analyst,Finance,E1,CA,Toronto,,2025-02-10,Finance,P1,90000', 'Senior Analyst,Finance,E1,CA,Toronto,,2025-02-10,Finance,P1,95000');
    const next = await importFile(admin, 'employees', raised);
    expect(next.plan).toMatchObject({ create: 0, update: 1, unchanged: 2, compensationRecords: { add: 1, update: 0 }, changes: [{ line: 4, key: 'E3', action: 'update' }] });
    const cy = (await employees()).find((employee) => employee.employee_number === 'E3')!;
    expect(cy.version).toBe(2);
    expect((await pay(cy.id)).map((record) => [record.amount, record.effective_date])).toEqual([
      [9_000_000, '2025-02-10'],
      [9_500_000, new Date().toISOString().slice(0, 10)],
    ]);
  });

  it('reads several dated rows of one employee as their pay history, and refuses one date twice', async () => {
    const header = 'Employee ID,First Name,Last Name,Currency,Base Salary,Pay Effective Date,Job Title';
    const twice = [header, 'H1,Hal,Story,EUR,60000,2022-01-01,Engineer', 'H1,Hal,Story,EUR,66000,2022-01-01,Engineer'].join('\n');
    const refused = await importFile(admin, 'employees', twice);
    expect(refused.errors).toEqual([{ line: 3, column: 'Employee ID', field: 'employeeId', message: 'employee id H1 has pay effective 2022-01-01 already on line 2' }]);

    const file = [
      header,
      'H1,Hal,Story,EUR,70000,2025-04-01,Senior Engineer',
      'H1,Hal,Story,EUR,60000,2022-01-01,Engineer',
      'H1,Hal,Story,EUR,60000,2023-01-01,Engineer',
      'H1,Hal,Story,EUR,75000,2099-01-01,Staff Engineer',
    ].join('\n');
    const run = await importFile(admin, 'employees', file);
    // One employee in four rows: 2023 repeats 2022's pay and adds nothing; the 2099 raise is dated ahead.
    expect(run).toMatchObject({ status: 'applied', plan: { rows: 4, create: 1, update: 0, unchanged: 0, compensationRecords: { add: 3, update: 0 } } });
    const hal = (await employees()).find((employee) => employee.employee_number === 'H1')!;
    // The row in force today (2025's) gives the job.
    expect(hal.title).toBe('Senior Engineer');
    expect((await pay(hal.id)).map((record) => [record.amount, record.effective_date])).toEqual([
      [6_000_000, '2022-01-01'],
      [7_000_000, '2025-04-01'],
      [7_500_000, '2099-01-01'],
    ]);
    const again = await importFile(admin, 'employees', file);
    expect(again.plan).toMatchObject({ create: 0, update: 0, unchanged: 1, compensationRecords: { add: 0, update: 0 } });
  });

  it('links an employee record to the person with the same e-mail', async () => {
    const person = company.users.employee!;
    const run = await importFile(admin, 'employees', `Employee ID,First Name,Last Name,Work Email\nU-LINK,Em,Ployee,${person.email.toUpperCase()}\n`);
    expect(run.status).toBe('applied');
    expect(await db('employees').where({ company_id: company.id, employee_number: 'U-LINK' }).first()).toMatchObject({ user_id: person.id, email: person.email });
  });

  it('reads XLSX like CSV: dates, numbers and percentages from their cells', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Workers');
    sheet.addRow(['Employee Number', 'First Name', 'Last Name', 'Start Date', 'Base Salary', 'Bonus %', 'Currency', 'Location']);
    sheet.addRow(['X1', 'Dee', 'Diaz', new Date(Date.UTC(2022, 8, 5)), 123456.78, 0.125, 'GBP', 'London']);
    sheet.addRow([]);
    sheet.addRow(['X2', 'Eli', 'Ek', new Date(Date.UTC(2020, 0, 31)), 98000, 0.1, 'USD', 'us_new_york']);
    sheet.getColumn(4).numFmt = 'yyyy-mm-dd';
    sheet.getColumn(6).numFmt = '0.0%';
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const uploaded = await uploadFile(admin, 'employees', bytes, 'workers.xlsx', XLSX_TYPE);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.data).toMatchObject({ format: 'xlsx', rowCount: 2, suggestedMapping: { employeeId: 'Employee Number', startDate: 'Start Date', baseSalary: 'Base Salary', bonusTargetPercent: 'Bonus %' } });
    const run = await importFile(admin, 'employees', bytes, { type: XLSX_TYPE });
    expect(run).toMatchObject({ status: 'applied', plan: { create: 2, compensationRecords: { add: 4, update: 0 } } });
    const dee = (await employees()).find((employee) => employee.employee_number === 'X1')!;
    expect(dee).toMatchObject({ start_date: '2022-09-05', currency: 'GBP', location_id: 'gb_london' });
    expect(await pay(dee.id)).toMatchObject([
      { type: 'base_salary', amount: 12_345_678, currency: 'GBP', effective_date: '2022-09-05' },
      { type: 'bonus_target', amount: 1_543_210, percent_of_base_bp: 1250 },
    ]);
    const second = await importFile(admin, 'employees', bytes, { type: XLSX_TYPE });
    expect(second.plan).toMatchObject({ create: 0, update: 0, unchanged: 2, compensationRecords: { add: 0 } });
  });

  it('saves mappings by name, imports with one, and deletes it', async () => {
    const file = 'Ref,Given,Family,Pay\nM1,Mo,Ma,80000\n';
    const uploaded = await uploadFile(admin, 'employees', file);
    expect(uploaded.body.data.missingRequiredFields).toEqual(['employeeId', 'lastName']);
    const mapping = { employeeId: 'Ref', firstName: 'Given', lastName: 'Family', baseSalary: 'Pay' };
    const saved = await request<{ data: Mapping } & ErrorBody>('/api/people-imports/mappings', { method: 'PUT', headers: admin, json: { kind: 'employees', name: 'Payroll export', mapping } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ kind: 'employees', name: 'Payroll export', mapping });
    // Saving under the same name replaces it.
    const replaced = await request<{ data: Mapping }>('/api/people-imports/mappings', { method: 'PUT', headers: admin, json: { kind: 'employees', name: 'Payroll export', mapping } });
    expect(replaced.body.data.id).toBe(saved.body.data.id);
    const listed = await request<{ data: Mapping[] }>('/api/people-imports/mappings?kind=employees', { headers: admin });
    expect(listed.body.data.map((entry) => entry.name)).toEqual(['Payroll export']);

    const wrongKind = await request<ErrorBody>('/api/people-imports/mappings', { method: 'PUT', headers: admin, json: { kind: 'employees', name: 'Bad', mapping: { employeeId: 'Ref', firstName: 'Given', lastName: 'Family', shares: 'Pay' } } });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.errors).toEqual([{ field: 'mapping.shares', message: 'is not a field of employee imports' }]);

    const suggested = await request<ErrorBody>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, { method: 'POST', headers: admin, json: {} });
    expect(suggested.status).toBe(400);
    expect(suggested.body.errors).toEqual([
      { field: 'mapping.employeeId', message: 'is required: name the column that holds it' },
      { field: 'mapping.lastName', message: 'is required: name the column that holds it' },
    ]);
    const run = await importFile(admin, 'employees', file, { mappingName: 'Payroll export' });
    expect(run).toMatchObject({ status: 'applied', mappingName: 'Payroll export', mapping, plan: { create: 1, compensationRecords: { add: 1 } } });

    const unknown = await request<ErrorBody>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, { method: 'POST', headers: admin, json: { mappingName: 'Nope' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'mappingName', message: 'no saved mapping is named "Nope"' }]);

    const removed = await request<{ data: Mapping }>(`/api/people-imports/mappings/${saved.body.data.id}`, { method: 'DELETE', headers: admin });
    expect(removed.status).toBe(200);
    expect((await request<{ data: Mapping[] }>('/api/people-imports/mappings', { headers: admin })).body.data).toEqual([]);
  });

  it('needs the pay and demographics permissions for those columns', async () => {
    const role = await request<{ data: { id: string } }>('/api/roles', { method: 'POST', headers: admin, json: { name: 'HR data entry', permissions: { team: [{ authority: 'edit', scope: 'all' }] } } });
    expect(role.status).toBe(200);
    const clerk = bearer(await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] }));
    const uploaded = await uploadFile(clerk, 'employees', 'Employee ID,First Name,Last Name,Base Salary,Gender\nP1,Pa,Po,1000,\n');
    expect(uploaded.status).toBe(201);
    const refused = await request<ErrorBody>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, { method: 'POST', headers: clerk, json: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('This import needs the employeeCompensation permission (edit, whole company) and the demographics permission (edit, whole company).');
    const withoutPay = await request<{ data: PeopleImport }>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, {
      method: 'POST',
      headers: clerk,
      json: { dryRun: true, mapping: { employeeId: 'Employee ID', firstName: 'First Name', lastName: 'Last Name' } },
    });
    expect(withoutPay.status).toBe(202);
    expect((await finishedImport(clerk, withoutPay.body.data.id)).status).toBe('planned');
    // Equity files need employeeCompensation edit; the planner has team view only.
    expect((await uploadFile(clerk, 'equityGrants', 'Grant ID\nG1\n')).status).toBe(403);
    expect((await uploadFile(bearer(company.users.compensation_planner!), 'employees', 'a\n1\n')).status).toBe(403);
    // An import is its starter's.
    expect((await request(`/api/people-imports/runs/${withoutPay.body.data.id}`, { headers: admin })).status).toBe(404);
  });

  it('plans again when the company changes between checking a file and writing it, so the change is kept', async () => {
    const first = await importFile(admin, 'employees', [HEADER, 'R1,Rae,Ruiz,,Analyst,Finance,,US,Seattle,USD,2023-01-01,,,,,', 'R2,Sol,Sato,,Analyst,Finance,R1,US,Seattle,USD,2023-01-01,,,,,'].join('\n'));
    expect(first.status).toBe('applied');
    const [r2] = (await employees()).filter((employee) => employee.employee_number === 'R2');
    // The file renames Sol and says nothing of departments: Sol's department is whatever is stored when it is written.
    const owner = company.users.admin!;
    const row = runRow({ scope: { companyId: company.id }, ownerUserId: owner.id, kind: 'employees', dryRun: false, mapping: { employeeId: 'Emp ID', firstName: 'First', lastName: 'Last', title: 'Title' }, mappingName: null });
    await insertRun(db, row);
    const table: SourceTable = { columns: ['Emp ID', 'First', 'Last', 'Title'], rows: [{ line: 2, values: ['R2', 'Solveig', 'Sato', 'Lead analyst'] }], rowCount: 1 };
    let edited = false;
    const final = await executeRun({
      db,
      log: pino({ level: 'silent' }),
      scope: { companyId: company.id },
      runId: row.id,
      source: async () => table,
      progress: async (percent) => {
        // Someone moves Sol to another department after the file was checked, before it is written.
        if (percent === 55 && !edited && r2) {
          edited = true;
          await db('employees').where({ id: r2.id }).update({ department: 'Treasury', version: r2.version + 1, updated_at: new Date().toISOString() });
        }
      },
    });
    expect(edited).toBe(true);
    expect(final.status).toBe('applied');
    const after = await db('employees').where({ id: r2?.id }).first<{ first_name: string; title: string; department: string }>('first_name', 'title', 'department');
    expect(after).toEqual({ first_name: 'Solveig', title: 'Lead analyst', department: 'Treasury' });
  });

  it('runs large files as a job whose progress is reported live', async () => {
    const socket = io(baseUrl(), { path: '/engine.io/', transports: ['websocket'], auth: { token: company.users.admin!.token }, reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise((resolve) => socket.on('connect', () => resolve(undefined)));
    const seen: { jobId: string; status: string; progress: number }[] = [];
    socket.on('emitBackgroundJobStatusUpdate', (event: { jobId: string; status: string; progress: number }) => seen.push(event));
    const rows = Array.from({ length: 12_000 }, (_, i) => `L${i},Given${i},Family${i},${i < 100 ? '' : `L${i % 100}`},${50_000 + i}`);
    const uploaded = await uploadFile(admin, 'employees', ['Employee ID,First Name,Last Name,Manager ID,Base Salary', ...rows].join('\n'));
    expect(uploaded.body.data.rowCount).toBe(12_000);
    const started = await request<{ data: PeopleImport }>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, { method: 'POST', headers: admin, json: {} });
    const run = await finishedImport(admin, started.body.data.id);
    expect(run).toMatchObject({ status: 'applied', rowCount: 12_000, plan: { create: 12_000, changesTruncated: true, compensationRecords: { add: 12_000 } } });
    expect(run.plan?.changes).toHaveLength(1_000);
    // The run is written as applied inside the job; the job itself ends a moment later.
    const job = async () => (await request<{ data: { status: string; progress: number; type: string } }>(`/api/background-jobs/${run.jobId}`, { headers: admin })).body.data;
    await expect.poll(async () => (await job()).status, { timeout: 10_000 }).toBe('succeeded');
    expect(await job()).toMatchObject({ type: 'peopleImport', status: 'succeeded', progress: 100 });
    await expect.poll(() => seen.filter((event) => event.jobId === run.jobId).at(-1)?.status, { timeout: 10_000 }).toBe('succeeded');
    const progress = seen.filter((event) => event.jobId === run.jobId && event.status === 'running').map((event) => event.progress);
    expect(progress.some((value) => value > 0 && value < 100)).toBe(true);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await db('employees').where({ company_id: company.id }).andWhere('employee_number', 'like', 'L%').count({ count: '*' }).first()).toMatchObject({ count: 12_000 });
  });
});

describe('cap-table imports', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: Record<string, string>;

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Cap Table Co');
    admin = bearer(company.users.admin!);
    const people = await importFile(admin, 'employees', 'Employee ID,First Name,Last Name\nG-E1,Ana,Lopez\nG-E2,Bo,Berg\n');
    expect(people.status).toBe('applied');
  });

  const grants = () => db('equity_grants').where({ company_id: company.id }).orderBy('grant_number').select('grant_number', 'grant_type', 'shares', 'exercise_price', 'currency', 'grant_date', 'vesting_start_date', 'vesting_months', 'cliff_months', 'vesting_frequency', 'reason', 'source');

  it('imports grants by grant id, refusing unknown holders, and is idempotent', async () => {
    const header = 'Security ID,Stakeholder ID,Security Type,Quantity,Issue Date,Strike Price,Vesting Commencement Date,Vesting Period (months),Cliff (months),Vesting Schedule';
    const bad = [header, 'ES-1,G-E1,ISO,"10,000",2024-02-01,1.25,2024-01-15,48,12,Monthly', 'ES-2,G-E9,RSU,500,2024-02-01,,,,,', 'ES-3,G-E2,Option,100,2024-02-01,,,48,60,', 'ES-4,G-E2,Warrant,0,someday,,,,,'].join('\n');
    const rejected = await importFile(admin, 'equityGrants', bad);
    expect(rejected.status).toBe('rejected');
    expect(rejected.errors).toEqual([
      { line: 3, column: 'Stakeholder ID', field: 'employeeId', message: 'G-E9 is not an employee of this company (import the HRIS file first)' },
      { line: 4, column: 'Strike Price', field: 'exercisePrice', message: 'is required for options' },
      { line: 4, column: 'Cliff (months)', field: 'cliffMonths', message: 'the cliff (60 months) is longer than the vesting (48 months)' },
      { line: 5, column: 'Security Type', field: 'grantType', message: '"Warrant" is not a grant type (option, rsu, rsa, common_stock)' },
      { line: 5, column: 'Quantity', field: 'shares', message: '"0" is not between 1 and 1000000000000' },
      { line: 5, column: 'Issue Date', field: 'grantDate', message: '"someday" is not a date (write it as YYYY-MM-DD)' },
    ]);
    expect(await grants()).toEqual([]);

    const good = [header, 'ES-1,G-E1,ISO,"10,000",2024-02-01,1.25,2024-01-15,48,12,Monthly', 'RSU-7,G-E2,RSU,500,2025-03-01,,,36,0,quarterly'].join('\n');
    const applied = await importFile(admin, 'equityGrants', good);
    expect(applied).toMatchObject({ status: 'applied', kind: 'equityGrants', plan: { create: 2, update: 0, unchanged: 0 } });
    expect(await grants()).toEqual([
      { grant_number: 'ES-1', grant_type: 'option', shares: 10_000, exercise_price: 125, currency: 'USD', grant_date: '2024-02-01', vesting_start_date: '2024-01-15', vesting_months: 48, cliff_months: 12, vesting_frequency: 'monthly', reason: 'new_hire', source: 'cap_table_import' },
      { grant_number: 'RSU-7', grant_type: 'rsu', shares: 500, exercise_price: null, currency: 'USD', grant_date: '2025-03-01', vesting_start_date: '2025-03-01', vesting_months: 36, cliff_months: 0, vesting_frequency: 'quarterly', reason: 'new_hire', source: 'cap_table_import' },
    ]);
    expect((await importFile(admin, 'equityGrants', good)).plan).toMatchObject({ create: 0, update: 0, unchanged: 2 });
    const changed = await importFile(admin, 'equityGrants', good.replace('RSU,500', 'RSU,750'));
    expect(changed.plan).toMatchObject({ create: 0, update: 1, unchanged: 1, changes: [{ line: 3, key: 'RSU-7', action: 'update' }] });
    expect((await grants()).find((grant) => grant.grant_number === 'RSU-7')?.shares).toBe(750);
  });
});
