import { writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { freshConfigHome, paybench } from './support.js';

describe('paybench employees and grants', () => {
  let db: Knex;
  let company: TestCompany;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'CLI People Co');
    dir = freshConfigHome();
    env = { PAYBENCH_TOKEN: company.users.admin!.token, XDG_CONFIG_HOME: dir };
  });

  const file = (name: string, text: string): string => {
    const target = path.join(dir, name);
    writeFileSync(target, text);
    return target;
  };
  const employeeNumbers = async (): Promise<string[]> => (await db('employees').where({ company_id: company.id }).orderBy('employee_number').select('employee_number')).map((row: { employee_number: string }) => row.employee_number);
  const problems = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('line '));

  const people = ['Employee ID,First Name,Last Name,Manager ID,Base Salary,Currency', 'P1,Ana,Lopez,,150000,USD', 'P2,Bo,Berg,P1,"95,000",EUR'].join('\n');

  it('rejects a bad file with every line’s problem, exit 2, and writes nothing', () => {
    const bad = file('bad.csv', [people, 'P3,,Ng,P9,lots,ZZZ', 'P1,Dup,Dup,,,'].join('\n'));
    const run = paybench(['employees', 'import', bad], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Error: The file has 5 problems; nothing was written\./);
    expect(problems(run.stderr)).toEqual([
      'line 4: First Name: is required',
      'line 4: Currency: "ZZZ" is not an ISO 4217 currency code',
      'line 4: Manager ID: P9 is neither in the file nor an employee of this company',
      'line 4: Base Salary: "lots" is not an amount',
      'line 5: Employee ID: employee id P1 is already on line 2',
    ]);
    return employeeNumbers().then((numbers) => expect(numbers).toEqual([]));
  });

  it('plans with --dry-run, imports, and changes nothing the second time', async () => {
    const good = file('people.csv', people);
    const dry = paybench(['employees', 'import', good, '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe('2 to create, 0 to update, 0 unchanged; 2 compensation records to add\n');
    // Neither has a job family or level: the market would leave both out, and says how to fix it.
    expect(dry.stderr).toBe(
      [
        'A market release built today would leave out 2 of the 2 active employees in this file, if your company takes part in the market:',
        '  2 no_job_family_or_level: No job family or level from the market catalog.',
        '    Fix: Give them a job family and level from the market catalog (the Job family and Level columns).',
        '',
      ].join('\n'),
    );
    expect(await employeeNumbers()).toEqual([]);

    const json = paybench(['--json', 'employees', 'import', good, '--dry-run'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'planned', dryRun: true, plan: { create: 2, compensationRecords: { add: 2 } }, source: { filename: 'people.csv' } });

    const applied = paybench(['employees', 'import', good], env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toBe('2 created, 0 updated, 0 unchanged; 2 compensation records added\n');
    expect(await employeeNumbers()).toEqual(['P1', 'P2']);
    const again = paybench(['employees', 'import', good], env);
    expect(again.stdout).toBe('0 created, 0 updated, 2 unchanged; 0 compensation records added\n');
  });

  it('reads XLSX and standard input too', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('People');
    sheet.addRow(['Employee ID', 'First Name', 'Last Name', 'Start Date']);
    sheet.addRow(['X1', 'Xia', 'Xu', new Date(Date.UTC(2024, 4, 6))]);
    sheet.getColumn(4).numFmt = 'yyyy-mm-dd';
    const xlsx = path.join(dir, 'people.xlsx');
    await workbook.xlsx.writeFile(xlsx);
    const run = paybench(['employees', 'import', xlsx], env);
    expect(run.stderr).toMatch(/^A market release built today would leave out 1 of the 1 active employee in this file/);
    expect(run.stdout).toBe('1 created, 0 updated, 0 unchanged; 0 compensation records added\n');
    expect(await db('employees').where({ company_id: company.id, employee_number: 'X1' }).first()).toMatchObject({ start_date: '2024-05-06' });

    const piped = paybench(['employees', 'import', '-'], env, 'Employee ID,First Name,Last Name\nS1,Sam,Stdin\n');
    expect(piped.stdout).toBe('1 created, 0 updated, 0 unchanged; 0 compensation records added\n');
  });

  it('uses a saved mapping by name, and lists the saved mappings', async () => {
    const odd = file('payroll.csv', 'Ref,Given,Surname,Pay\nM1,Mo,Ma,80000\n');
    const unmapped = paybench(['employees', 'import', odd], env);
    expect(unmapped.code).toBe(2);
    expect(unmapped.stderr).toContain('mapping: employeeId: is required: name the column that holds it');
    expect(unmapped.stderr).toContain("The file's columns: Ref, Given, Surname, Pay. Save a mapping for them and pass --mapping NAME.");

    const saved = await request('/api/people-imports/mappings', { method: 'PUT', headers: bearer(company.users.admin!), json: { kind: 'employees', name: 'Payroll', mapping: { employeeId: 'Ref', firstName: 'Given', lastName: 'Surname', baseSalary: 'Pay' } } });
    expect(saved.status).toBe(200);
    const mapped = paybench(['employees', 'import', odd, '--mapping', 'Payroll'], env);
    expect(mapped.stdout).toBe('1 created, 0 updated, 0 unchanged; 1 compensation record added\n');
    const missing = paybench(['employees', 'import', odd, '--mapping', 'Nope'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('mappingName: no saved mapping is named "Nope"');

    const listed = paybench(['employees', 'mappings', 'list'], env);
    expect(listed.stdout.split('\n')[0]).toMatch(/^NAME\s+COLUMNS\s+UPDATED$/);
    expect(listed.stdout).toContain('Payroll  employeeId=Ref, firstName=Given, lastName=Surname, baseSalary=Pay');
    const json = JSON.parse(paybench(['--json', 'employees', 'mappings', 'list'], env).stdout) as { name: string }[];
    expect(json.map((mapping) => mapping.name)).toEqual(['Payroll']);
  });

  it('imports cap-table grants by grant id, refusing unknown holders', async () => {
    const header = 'Grant ID,Employee ID,Grant Type,Shares,Grant Date,Exercise Price';
    const bad = paybench(['grants', 'import', file('bad-grants.csv', `${header}\nG1,P1,ISO,1000,2024-01-01,0.50\nG2,NOPE,RSU,10,2024-01-01,\n`)], env);
    expect(bad.code).toBe(2);
    expect(problems(bad.stderr)).toEqual(['line 3: Employee ID: NOPE is not an employee of this company (import the HRIS file first)']);
    expect(await db('equity_grants').where({ company_id: company.id })).toEqual([]);

    const good = file('grants.csv', `${header}\nG1,P1,ISO,1000,2024-01-01,0.50\nG2,P2,RSU,10,2024-01-01,\n`);
    const applied = paybench(['--json', 'grants', 'import', good], env);
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ kind: 'equityGrants', status: 'applied', plan: { create: 2 } });
    expect(paybench(['grants', 'import', good, '--dry-run'], env).stdout).toBe('0 to create, 0 to update, 2 unchanged\n');
  });

  it('exits 1 when the server cannot be reached, 2 for a file it cannot read', () => {
    expect(paybench(['employees', 'import', path.join(dir, 'missing.csv')], env).code).toBe(2);
    expect(paybench(['employees', 'import', file('ok.csv', people)], { ...env, PAYBENCH_URL: 'http://127.0.0.1:9' }).code).toBe(1);
  });
});
