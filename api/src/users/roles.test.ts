import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Role = components['schemas']['Role'];
type User = components['schemas']['User'];
type Person = components['schemas']['Person'];

describe('roles and users', () => {
  let company: TestCompany;
  let admin: Record<string, string>;
  beforeAll(async () => {
    company = await createTestCompany(await testDb());
    admin = bearer(company.users.admin!);
  });

  it('lists the built-in roles with what they grant and how many hold them', async () => {
    const reply = await request<{ data: Role[] }>('/api/roles', { headers: admin });
    const keys = reply.body.data.map((role) => role.key);
    expect(keys).toEqual(expect.arrayContaining(['admin', 'compensation_planner', 'people_manager', 'employee', 'analyst']));
    const manager = reply.body.data.find((role) => role.key === 'people_manager');
    expect(manager).toMatchObject({ isBuiltin: true, userCount: 1 });
    expect(manager?.permissions.team).toEqual([{ authority: 'view', scope: 'reports' }]);
  });

  it('creates a custom role, refuses unknown permissions, and updates only at the version read', async () => {
    const bad = await request<ErrorBody>('/api/roles', { method: 'POST', headers: admin, json: { name: 'Bad', permissions: { payroll: [{ authority: 'view', scope: 'all' }] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe('body.permissions.payroll');
    const badScope = await request<ErrorBody>('/api/roles', { method: 'POST', headers: admin, json: { name: 'Bad', permissions: { offers: [{ authority: 'view', scope: 'reports' }] } } });
    expect(badScope.body.errors?.[0]).toEqual({ field: 'body.permissions.offers.0.scope', message: 'must be one of: all' });

    const created = await request<{ data: Role }>('/api/roles', {
      method: 'POST',
      headers: admin,
      json: { name: 'Recruiter', description: 'Makes offers', permissions: { offers: [{ authority: 'edit', scope: 'all' }] } },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ key: 'recruiter', isBuiltin: false, version: 1, userCount: 0 });

    const updated = await request<{ data: Role }>('/api/roles', {
      method: 'POST',
      headers: admin,
      json: { id: created.body.data.id, version: 1, name: 'Recruiter', permissions: { offers: [{ authority: 'edit', scope: 'all' }], benchmarking: [{ authority: 'view', scope: 'all' }] } },
    });
    expect(updated.body.data.version).toBe(2);
    const stale = await request<ErrorBody>('/api/roles', { method: 'POST', headers: admin, json: { id: created.body.data.id, version: 1, name: 'Recruiter v1', permissions: {} } });
    expect(stale.status).toBe(409);
    const unversioned = await request<ErrorBody>('/api/roles', { method: 'POST', headers: admin, json: { id: created.body.data.id, name: 'X', permissions: {} } });
    expect(unversioned.status).toBe(428);
  });

  it('never lets the Admin role be weakened', async () => {
    const roles = await request<{ data: Role[] }>('/api/roles', { headers: admin });
    const adminRole = roles.body.data.find((role) => role.key === 'admin');
    const reply = await request<ErrorBody>('/api/roles', { method: 'POST', headers: admin, json: { id: adminRole?.id, version: adminRole?.version, name: 'Admin', permissions: {} } });
    expect(reply.status).toBe(409);
  });

  it('keeps the permissions of every built-in role; a copy is the way to customise one', async () => {
    const roles = await request<{ data: Role[] }>('/api/roles', { headers: admin });
    const planner = roles.body.data.find((role) => role.key === 'compensation_planner');
    const changed = await request<ErrorBody>('/api/roles', { method: 'POST', headers: admin, json: { id: planner?.id, version: planner?.version, name: 'Compensation planner', permissions: { benchmarking: [{ authority: 'view', scope: 'all' }] } } });
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ code: 'builtin_role', message: 'Compensation planner is a built-in role and keeps its permissions. Duplicate it to make a role of your own.' });
    const copy = await request<{ data: Role }>('/api/roles', { method: 'POST', headers: admin, json: { name: 'Planner without offers', permissions: { ...planner?.permissions, offers: [] } } });
    expect(copy.body.data).toMatchObject({ key: 'planner_without_offers', isBuiltin: false });
    expect(copy.body.data.permissions.bands).toEqual([{ authority: 'edit', scope: 'all' }]);
  });

  it('assigns roles, which changes what the person can do at once', async () => {
    const analyst = company.users.analyst!;
    const before = await request<ErrorBody>('/api/users', { headers: bearer(analyst) });
    expect(before.status).toBe(403);
    const plannerRole = company.roleIds.get('compensation_planner');
    const set = await request<{ data: User }>(`/api/users/${analyst.id}/roles`, { method: 'PUT', headers: admin, json: { roleIds: [plannerRole] } });
    expect(set.body.data.roles.map((role) => role.key)).toEqual(['compensation_planner']);
    const after = await request<{ data: User[] }>('/api/users', { headers: bearer(analyst) });
    expect(after.status).toBe(200);
    const inRole = await request<{ data: User[] }>(`/api/roles/${plannerRole}/users`, { headers: admin });
    expect(inRole.body.data.map((user) => user.email).sort()).toEqual([analyst.email, company.users.compensation_planner!.email].sort());
  });

  it('searches, filters and pages users', async () => {
    const created = await request<{ data: User }>('/api/users', {
      method: 'POST',
      headers: admin,
      json: { email: `Zed.Zimmer-${company.id.slice(-5)}@Example.test`, firstName: 'Zed', lastName: 'Zimmer', roleKeys: ['employee'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.email).toBe(`zed.zimmer-${company.id.slice(-5)}@example.test`);
    const found = await request<{ data: User[] }>('/api/users?search=zimmer', { headers: admin });
    expect(found.body.data.map((user) => user.firstName)).toEqual(['Zed']);
    const byRole = await request<{ data: User[] }>('/api/users?role=employee', { headers: admin });
    expect(byRole.body.data.length).toBe(2);
    const page1 = await request<{ data: User[]; page: { nextCursor: string | null } }>('/api/users?limit=2', { headers: admin });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await request<{ data: User[]; page: { nextCursor: string | null } }>(`/api/users?limit=2&cursor=${encodeURIComponent(page1.body.page.nextCursor ?? '')}`, { headers: admin });
    expect((page2.body.data[0]?.email ?? '') > (page1.body.data[1]?.email ?? '')).toBe(true);
    const duplicate = await request<ErrorBody>('/api/users', { method: 'POST', headers: admin, json: { email: created.body.data.email, firstName: 'Z', lastName: 'Z' } });
    expect(duplicate.status).toBe(409);
    const filters = await request<{ data: { roles: { key: string; count: number }[]; statuses: { status: string; count: number }[] } }>('/api/users/filter-values', { headers: admin });
    expect(filters.body.data.roles.find((role) => role.key === 'employee')?.count).toBe(2);
  });

  it('removes a user, whose tokens then stop working', async () => {
    const employee = company.users.employee!;
    const removed = await request<{ data: User }>(`/api/users/${employee.id}`, { method: 'DELETE', headers: admin });
    expect(removed.body.data.status).toBe('removed');
    const refused = await request<ErrorBody>('/api/me', { headers: bearer(employee) });
    expect(refused.status).toBe(401);
    expect(refused.body.clientResponse?.message).toBe('revoked');
    const self = await request<ErrorBody>(`/api/users/${company.users.admin!.id}`, { method: 'DELETE', headers: admin });
    expect(self.status).toBe(409);
  });

  it('documents every permission in groups', async () => {
    const reply = await request<{ data: { id: string; permissions: { name: string; description: string }[] }[] }>('/api/permission-groups', {
      headers: bearer(company.users.people_manager!),
    });
    const names = reply.body.data.flatMap((group) => group.permissions.map((p) => p.name));
    expect(names).toEqual(expect.arrayContaining(['benchmarking', 'employeeCompensation', 'users', 'roles', 'companySettings']));
    expect(reply.body.data.every((group) => group.permissions.every((p) => p.description.length > 20))).toBe(true);
  });

  it('answers the person endpoint with the caller’s resolved permissions', async () => {
    const reply = await request<{ data: Person['permissionsV3'] }>('/api/me/permissions', { headers: bearer(company.users.people_manager!) });
    expect(reply.body.data.compensationPlanning).toEqual([{ authority: 'edit', scope: 'reports' }]);
  });
});

describe('handing out roles', () => {
  let company: TestCompany;
  let admin: Record<string, string>;
  let adder: Record<string, string>;
  const refusal = { code: 'forbidden', message: 'Naming roles needs the roles permission (edit).' };
  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db);
    admin = bearer(company.users.admin!);
    // Adds people (users edit) but has no say over roles.
    const role = await request<{ data: Role }>('/api/roles', { method: 'POST', headers: admin, json: { name: 'People adder', permissions: { users: [{ authority: 'edit', scope: 'all' }] } } });
    adder = bearer(await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] }));
  });

  it('needs roles edit to name roles when creating a user', async () => {
    const email = `escalated-${company.id.slice(-6)}@example.test`;
    const named = await request<ErrorBody>('/api/users', { method: 'POST', headers: adder, json: { email, firstName: 'Eve', lastName: 'Escalated', roleKeys: ['admin'] } });
    expect(named.status).toBe(403);
    expect(named.body).toMatchObject(refusal);
    const listed = await request<{ data: User[] }>(`/api/users?search=${encodeURIComponent(email)}`, { headers: admin });
    expect(listed.body.data).toEqual([]);

    // Without roles the person is added with the default one.
    const plain = await request<{ data: User }>('/api/users', { method: 'POST', headers: adder, json: { email, firstName: 'Eve', lastName: 'Plain' } });
    expect(plain.status).toBe(201);
    expect(plain.body.data.roles.map((role) => role.key)).toEqual(['employee']);
    // Someone with roles edit may name them.
    const byAdmin = await request<{ data: User }>('/api/users', { method: 'POST', headers: admin, json: { email: `analyst-${email}`, firstName: 'Ann', lastName: 'Analyst', roleKeys: ['analyst'] } });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.data.roles.map((role) => role.key)).toEqual(['analyst']);
  });

  it('needs roles edit to change the roles of an existing user', async () => {
    const employee = company.users.employee!;
    const imported = await request<ErrorBody>('/api/users/imports', {
      method: 'POST',
      headers: adder,
      json: { rows: [{ line: 2, email: employee.email, firstName: 'Test', lastName: 'Employee', roles: ['admin'] }] },
    });
    expect(imported.status).toBe(403);
    expect(imported.body).toMatchObject(refusal);
    const set = await request<ErrorBody>(`/api/users/${employee.id}/roles`, { method: 'PUT', headers: adder, json: { roleIds: [company.roleIds.get('admin')] } });
    expect(set.status).toBe(403);
    expect(set.body.code).toBe('forbidden');
    const after = await request<{ data: User }>(`/api/users/${employee.id}`, { headers: admin });
    expect(after.body.data.roles.map((role) => role.key)).toEqual(['employee']);
  });
});
