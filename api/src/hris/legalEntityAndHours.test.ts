import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { parseFte, parseWeeklyHours } from './employees.js';

type ImportFile = components['schemas']['PeopleImportFile'];
type PeopleImport = components['schemas']['PeopleImport'];
type Employee = components['schemas']['Employee'];

async function importCsv(headers: Record<string, string>, body: string): Promise<PeopleImport> {
  const uploaded = await request<{ data: ImportFile } & ErrorBody>('/api/people-imports/files?kind=employees&filename=people.csv', { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const started = await request<{ data: PeopleImport } & ErrorBody>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, { method: 'POST', headers, json: { dryRun: false } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const deadline = Date.now() + 45_000;
  for (;;) {
    const reply = await request<{ data: PeopleImport }>(`/api/people-imports/runs/${started.body.data.id}`, { headers });
    if (!['queued', 'running'].includes(reply.body.data.status)) return reply.body.data;
    if (Date.now() > deadline) throw new Error('import still running');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('legal entity and contractual hours in people data', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: Record<string, string>;

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Entities Co');
    admin = bearer(company.users.admin!);
  });

  it('reads FTE as a fraction or a percentage, and hours a week, refusing what is out of range', () => {
    expect(parseFte('0.8')).toEqual({ value: 0.8 });
    expect(parseFte('80%')).toEqual({ value: 0.8 });
    expect(parseFte('60')).toEqual({ value: 0.6 });
    expect(parseFte('1')).toEqual({ value: 1 });
    expect(parseFte('0')).toHaveProperty('error');
    expect(parseFte('120%')).toHaveProperty('error');
    expect(parseFte('half')).toHaveProperty('error');
    expect(parseWeeklyHours('37,5')).toEqual({ value: 37.5 });
    expect(parseWeeklyHours('0')).toHaveProperty('error');
    expect(parseWeeklyHours('200')).toHaveProperty('error');
  });

  it('maps the HR system’s headers to legal entity, FTE and contracted hours, imports them and shows them on the employee', async () => {
    const fields = await request<{ data: { field: string }[] }>('/api/people-imports/fields?kind=employees', { headers: admin });
    expect(fields.body.data.map((field) => field.field)).toEqual(expect.arrayContaining(['legalEntity', 'fte', 'weeklyHours']));
    const file = [
      'Employee ID,First Name,Last Name,Employing Company,Full Time Equivalent,Contracted Hours',
      'L1,Ana,Lopez,Entities GmbH,0.8,32',
      'L2,Bo,Berg,Entities Ltd,,',
      'L3,Cy,Ng,Entities Ltd,150%,',
    ].join('\n');
    const refused = await importCsv(admin, file);
    expect(refused.status).toBe('rejected');
    expect(refused.errors).toEqual([{ line: 4, column: 'Full Time Equivalent', field: 'fte', message: '"150%" is not a full-time equivalent: it is more than 0 and at most 1 (100%)' }]);

    const run = await importCsv(admin, file.replace('150%', '60%'));
    expect(run.status, JSON.stringify(run.errors)).toBe('applied');
    const list = await request<{ data: Employee[] }>('/api/employees?limit=10', { headers: admin });
    const byNumber = new Map(list.body.data.map((employee) => [employee.employeeNumber, employee]));
    expect(byNumber.get('L1')).toMatchObject({ legalEntity: 'Entities GmbH', fte: 0.8, weeklyHours: 32 });
    // An empty FTE cell is a full-time contract; no hours: none recorded.
    expect(byNumber.get('L2')).toMatchObject({ legalEntity: 'Entities Ltd', fte: 1, weeklyHours: null });
    expect(byNumber.get('L3')).toMatchObject({ legalEntity: 'Entities Ltd', fte: 0.6, weeklyHours: null });

    // The same file again changes nothing (stored decimals compare equal to the file's).
    const again = await importCsv(admin, file.replace('150%', '60%'));
    expect(again.plan).toMatchObject({ create: 0, update: 0 });
  });
});
