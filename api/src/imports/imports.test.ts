import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type ImportPlan = components['schemas']['ImportPlan'];
type UsersImportRow = components['schemas']['UsersImportRow'];
type User = components['schemas']['User'];
type Role = components['schemas']['Role'];

const person = (line: number, email: string, roles: string[] = ['employee'], manager = ''): UsersImportRow => ({
  line,
  email,
  firstName: `First${line}`,
  lastName: `Last${line}`,
  roles,
  ...(manager ? { manager } : {}),
});

describe('user imports', () => {
  let company: TestCompany;
  let admin: Record<string, string>;
  let domain: string;
  beforeAll(async () => {
    company = await createTestCompany(await testDb());
    admin = bearer(company.users.admin!);
    domain = `${company.id.slice(-8)}.import.test`;
  });

  const importUsers = (rows: UsersImportRow[], dryRun = false) =>
    request<{ data: ImportPlan } & ErrorBody>('/api/users/imports', { method: 'POST', headers: admin, json: { rows, dryRun } });

  const usersOfDomain = async () => {
    const reply = await request<{ data: User[] }>(`/api/users?search=${encodeURIComponent(domain)}&limit=500`, { headers: admin });
    return reply.body.data;
  };

  it('reports every bad line and writes nothing', async () => {
    const rows = [
      person(2, `ok@${domain}`),
      { ...person(3, 'not-an-email'), firstName: '' },
      person(4, `ok@${domain}`),
      person(5, `two@${domain}`, ['astronaut']),
      person(6, `three@${domain}`, ['employee'], `nobody@${domain}`),
      person(7, company.users.analyst!.email.replace(/@.*/, '@elsewhere.test')),
    ];
    const reply = await importUsers(rows);
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([
      { field: 'rows[1].email', message: 'line 3: "not-an-email" is not an e-mail address' },
      { field: 'rows[1].firstName', message: 'line 3: is required' },
      { field: 'rows[2].email', message: `line 4: ok@${domain} is already on line 2` },
      { field: 'rows[3].roles', message: 'line 5: "astronaut" is not a role of this company' },
      { field: 'rows[4].manager', message: `line 6: nobody@${domain} is neither in the file nor a user of this company` },
    ]);
    expect(await usersOfDomain()).toEqual([]);
  });

  it('refuses a management cycle, naming it, and writes nothing', async () => {
    const rows = [person(2, `cyc-a@${domain}`, ['employee'], `cyc-c@${domain}`), person(3, `cyc-b@${domain}`, ['employee'], `cyc-a@${domain}`), person(4, `cyc-c@${domain}`, ['employee'], `cyc-b@${domain}`)];
    const reply = await importUsers(rows);
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.[0]).toEqual({ field: 'rows[0].manager', message: `line 2: would make a management cycle: cyc-a@${domain} → cyc-c@${domain} → cyc-b@${domain} → cyc-a@${domain}` });
    expect(reply.body.errors).toHaveLength(3);
    expect(await usersOfDomain()).toEqual([]);
  });

  it('refuses an e-mail that belongs to another company', async () => {
    const other = await createTestCompany(await testDb());
    const reply = await importUsers([person(2, other.users.employee!.email)]);
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([{ field: 'rows[0].email', message: `line 2: ${other.users.employee!.email} already has an account in another company` }]);
  });

  it('plans with a dry run, applies all at once, and changes nothing the second time', async () => {
    const rows = [person(2, `ana@${domain}`, ['compensation_planner']), person(3, `bo@${domain}`, ['employee'], `ana@${domain}`), person(4, `Cy@${domain}`, [])];
    const dry = await importUsers(rows, true);
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dryRun: true, create: 3, update: 0, unchanged: 0 });
    expect(dry.body.data.changes.map((change) => change.key)).toEqual([`ana@${domain}`, `bo@${domain}`, `cy@${domain}`]);
    expect(await usersOfDomain()).toEqual([]);

    const real = await importUsers(rows);
    expect(real.body.data).toMatchObject({ dryRun: false, create: 3, update: 0, unchanged: 0 });
    const users = await usersOfDomain();
    expect(users.map((user) => [user.email, user.firstName, user.roles.map((role) => role.key)])).toEqual([
      [`ana@${domain}`, 'First2', ['compensation_planner']],
      [`bo@${domain}`, 'First3', ['employee']],
      [`cy@${domain}`, 'First4', []],
    ]);

    const again = await importUsers(rows);
    expect(again.body.data).toMatchObject({ create: 0, update: 0, unchanged: 3, changes: [] });

    const changed = await importUsers([{ ...person(2, `ana@${domain}`, ['analyst', 'compensation_planner']) }, { ...person(3, `bo@${domain}`), lastName: 'Renamed' }], true);
    expect(changed.body.data).toMatchObject({ create: 0, update: 2, unchanged: 0 });
  });

  it('assigns a role through the import', async () => {
    const email = `role@${domain}`;
    await importUsers([person(2, email, ['employee'])]);
    const reply = await importUsers([person(2, email, ['analyst', 'employee'])]);
    expect(reply.body.data).toMatchObject({ update: 1, changes: [{ line: 2, key: email, action: 'update' }] });
    const analysts = await request<{ data: User[] }>(`/api/users?role=analyst&search=${encodeURIComponent(email)}`, { headers: admin });
    expect(analysts.body.data.map((user) => user.roles.map((role) => role.key).sort())).toEqual([['analyst', 'employee']]);
  });

  it('keeps the roles of a row without them, and names the roles a row takes away', async () => {
    const email = `kept@${domain}`;
    await importUsers([person(2, email, ['analyst', 'employee'])]);
    const { roles: _left, ...withoutRoles } = person(2, email);
    expect((await importUsers([withoutRoles])).body.data).toMatchObject({ update: 0, unchanged: 1, changes: [] });
    const emptied = await importUsers([person(2, email, [])], true);
    expect(emptied.body.data).toMatchObject({ dryRun: true, update: 1, changes: [{ line: 2, key: email, action: 'update', removesRoles: ['analyst', 'employee'] }] });
    const fewer = await importUsers([person(2, email, ['employee'])]);
    expect(fewer.body.data.changes).toEqual([{ line: 2, key: email, action: 'update', removesRoles: ['analyst'] }]);
    const held = await request<{ data: User[] }>(`/api/users?search=${encodeURIComponent(email)}`, { headers: admin });
    expect(held.body.data.map((user) => user.roles.map((role) => role.key))).toEqual([['employee']]);
  });

  it('is for people who may edit users', async () => {
    const reply = await request<ErrorBody>('/api/users/imports', { method: 'POST', headers: bearer(company.users.analyst!), json: { rows: [] } });
    expect(reply.status).toBe(403);
  });

  it('accepts a file far above the default body limit', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => person(i + 2, `bulk-${String(i).padStart(5, '0')}@${domain}`));
    const reply = await importUsers(rows, true);
    expect(reply.status).toBe(200);
    expect(reply.body.data.create).toBe(12_000);
  });
});

describe('role imports', () => {
  let company: TestCompany;
  let admin: Record<string, string>;
  beforeAll(async () => {
    company = await createTestCompany(await testDb());
    admin = bearer(company.users.admin!);
  });

  const importRoles = (rows: unknown[], dryRun = false) =>
    request<{ data: ImportPlan } & ErrorBody>('/api/roles/imports', { method: 'POST', headers: admin, json: { rows, dryRun } });
  const recruiter = { line: 2, key: 'recruiter', name: 'Recruiter', description: 'Makes offers', permissions: { offers: [{ authority: 'edit', scope: 'all' }] } };

  it('reports every bad line, refuses to change a built-in role, and writes nothing', async () => {
    const reply = await importRoles([
      recruiter,
      { line: 3, key: 'Bad Key', name: '', permissions: { payroll: [{ authority: 'view', scope: 'all' }] } },
      { line: 4, key: 'employee', name: 'Employee', permissions: { bands: [{ authority: 'edit', scope: 'all' }] } },
    ]);
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([
      { field: 'rows[1].key', message: 'line 3: must be lower-case letters, digits and _, starting with a letter' },
      { field: 'rows[1].name', message: 'line 3: is required' },
      { field: 'rows[1].permissions.payroll', message: expect.stringMatching(/^line 3: is not a permission/) },
      { field: 'rows[2].permissions', message: "line 4: employee is a built-in role; its permissions cannot be changed" },
    ]);
    const roles = await request<{ data: Role[] }>('/api/roles', { headers: admin });
    expect(roles.body.data.map((role) => role.key)).not.toContain('recruiter');
  });

  it('creates by key, updates what changed, and is idempotent', async () => {
    expect((await importRoles([recruiter], true)).body.data).toMatchObject({ dryRun: true, create: 1 });
    expect((await importRoles([recruiter])).body.data).toMatchObject({ create: 1, update: 0, unchanged: 0 });
    expect((await importRoles([recruiter])).body.data).toMatchObject({ create: 0, update: 0, unchanged: 1 });
    const broader = { ...recruiter, permissions: { offers: [{ authority: 'edit', scope: 'all' }], bands: [{ authority: 'view', scope: 'all' }] } };
    expect((await importRoles([broader])).body.data).toMatchObject({ update: 1 });
    const roles = await request<{ data: Role[] }>('/api/roles', { headers: admin });
    expect(roles.body.data.find((role) => role.key === 'recruiter')).toMatchObject({ version: 2, permissions: broader.permissions });
  });
});
