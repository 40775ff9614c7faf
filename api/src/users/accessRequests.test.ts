import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';

type AccessRequest = components['schemas']['AccessRequest'];
type User = components['schemas']['User'];
type Person = components['schemas']['Person'];

/** The e-mails held for an address (no SMTP server in this run: the outbox keeps them). */
async function mailTo(db: Knex, to: string): Promise<{ subject: string; text_body: string }[]> {
  return db('outbox_emails').where({ to_address: to }).orderBy('created_at').select('subject', 'text_body');
}

describe('access requests', () => {
  let db: Knex;
  let company: TestCompany;
  let other: TestCompany;
  let admin: Record<string, string>;
  let employee: Record<string, string>;

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Asking Co');
    other = await createTestCompany(db, 'Elsewhere Co');
    admin = bearer(company.users.admin!);
    employee = bearer(company.users.employee!);
    // Salary bands on for the company; the admin chose e-mail for access changes, the employee too.
    await db('company_flags').insert({ company_id: company.id, flag: 'bands', enabled: true, updated_at: new Date().toISOString() });
    for (const user of [company.users.admin!, company.users.employee!]) {
      expect((await request(`/api/me/notification-settings`, { method: 'PUT', headers: bearer(user), json: { email: ['accessChanged'], inApp: ['accessChanged'] } })).status).toBe(200);
    }
  });

  it('files a request for a module, once, and e-mails the admins who asked for it', async () => {
    const created = await request<{ data: AccessRequest }>('/api/access-requests', { method: 'POST', headers: employee, json: { module: 'bands', reason: 'I set pay for my new hires.' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      module: 'bands',
      permissions: [{ name: 'bands', authority: 'view' }],
      reason: 'I set pay for my new hires.',
      status: 'pending',
      requester: { id: company.users.employee!.id, email: company.users.employee!.email },
      decidedBy: null,
      grantedRole: null,
    });
    // Asking again answers the open request.
    const again = await request<{ data: AccessRequest }>('/api/access-requests', { method: 'POST', headers: employee, json: { module: 'bands', reason: 'Still need it.' } });
    expect(again.body.data.id).toBe(created.body.data.id);
    const mine = await request<{ data: AccessRequest[] }>('/api/me/access-requests', { headers: employee });
    expect(mine.body.data.map((entry) => entry.id)).toEqual([created.body.data.id]);

    await expect.poll(async () => (await mailTo(db, company.users.admin!.email)).length, { timeout: 20_000 }).toBe(1);
    const [mail] = await mailTo(db, company.users.admin!.email);
    expect(mail?.subject).toBe(`Paybench: Test ${company.users.employee!.email.split('@')[0]} asks for access to Salary bands`);
    expect(mail?.text_body).toContain('Why: I set pay for my new hires.');
    expect(mail?.text_body).toContain('/settings/users');
    // The planner (roles view only) cannot decide, so is not told.
    expect(await mailTo(db, company.users.compensation_planner!.email)).toEqual([]);
  });

  it('refuses what cannot be asked: nothing named, an unknown permission, what the person has, a module that is off', async () => {
    const nothing = await request<ErrorBody>('/api/access-requests', { method: 'POST', headers: employee, json: { reason: 'x' } });
    expect(nothing.status).toBe(400);
    expect(nothing.body.errors?.[0]?.field).toBe('body.module');
    const unknown = await request<ErrorBody>('/api/access-requests', { method: 'POST', headers: employee, json: { permission: 'payroll', reason: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]?.field).toBe('body.permission');
    const had = await request<ErrorBody>('/api/access-requests', { method: 'POST', headers: employee, json: { module: 'totalRewards', reason: 'x' } });
    expect(had.status).toBe(409);
    const off = await request<ErrorBody>('/api/access-requests', { method: 'POST', headers: employee, json: { module: 'teamview', reason: 'x' } });
    expect(off.status).toBe(409);
    expect(off.body).toMatchObject({ code: 'module_off', message: 'The team view is not switched on for your company, so no role can give access to it yet. Your company admin can ask Paybench to switch it on.' });
    const noReason = await request<ErrorBody>('/api/access-requests', { method: 'POST', headers: employee, json: { module: 'bands', reason: '' } });
    expect(noReason.status).toBe(400);
  });

  it('lists requests to admins only, and approving gives the requester the smallest role that covers it', async () => {
    const refused = await request<ErrorBody>('/api/access-requests', { headers: bearer(company.users.compensation_planner!) });
    expect(refused.status).toBe(403);
    const pending = await request<{ data: AccessRequest[] }>('/api/access-requests', { headers: admin });
    expect(pending.status).toBe(200);
    expect(pending.body.data).toHaveLength(1);
    const request0 = pending.body.data[0]!;

    const before = await request<{ data: Person }>('/api/me', { headers: employee });
    expect(before.body.data.modules.find((entry) => entry.module === 'bands')).toMatchObject({ available: true, authorized: false });

    // Bands view: the analyst role grants it with fewer grants than the planner's or the admin's, so it is proposed.
    expect(request0).toMatchObject({ requesterKind: 'user', proposedRole: { key: 'analyst', name: 'Read-only analyst' } });
    // A planner cannot approve; the admin can, once, naming the role.
    const byPlanner = await request<ErrorBody>(`/api/access-requests/${request0.id}/approve`, { method: 'POST', headers: bearer(company.users.compensation_planner!), json: { roleId: request0.proposedRole?.id } });
    expect(byPlanner.status).toBe(403);
    const approved = await request<{ data: AccessRequest }>(`/api/access-requests/${request0.id}/approve`, { method: 'POST', headers: admin, json: { roleId: company.roleIds.get('analyst'), note: 'Welcome aboard' } });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', grantedRole: { key: 'analyst', name: 'Read-only analyst' }, proposedRole: null, decidedBy: { id: company.users.admin!.id }, note: 'Welcome aboard' });
    const twice = await request<ErrorBody>(`/api/access-requests/${request0.id}/decline`, { method: 'POST', headers: admin, json: {} });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('already_decided');

    // The employee keeps their role, gains the analyst one, and may open the module now.
    const user = await request<{ data: User }>(`/api/users/${company.users.employee!.id}`, { headers: admin });
    expect(user.body.data.roles.map((role) => role.key).sort()).toEqual(['analyst', 'employee']);
    const after = await request<{ data: Person }>('/api/me', { headers: employee });
    expect(after.body.data.modules.find((entry) => entry.module === 'bands')).toMatchObject({ available: true, authorized: true });
    const mine = await request<{ data: AccessRequest[] }>('/api/me/access-requests', { headers: employee });
    expect(mine.body.data[0]).toMatchObject({ status: 'approved', grantedRole: { key: 'analyst' } });
    await expect.poll(async () => (await mailTo(db, company.users.employee!.email)).map((mail) => mail.subject), { timeout: 20_000 }).toContain('Paybench: you now have access to Salary bands');
  });

  it('declines with a note, and approves with the role the admin picks', async () => {
    const manager = bearer(company.users.people_manager!);
    const asked = await request<{ data: AccessRequest }>('/api/access-requests', { method: 'POST', headers: manager, json: { permission: 'employeeCompensation', authority: 'edit', reason: 'Raises for my team' } });
    expect(asked.status).toBe(201);
    expect(asked.body.data.permissions).toEqual([{ name: 'employeeCompensation', authority: 'edit' }]);
    const declined = await request<{ data: AccessRequest }>(`/api/access-requests/${asked.body.data.id}/decline`, { method: 'POST', headers: admin, json: { note: 'Use the merit cycle' } });
    expect(declined.body.data).toMatchObject({ status: 'declined', note: 'Use the merit cycle', grantedRole: null });
    const decidedList = await request<{ data: AccessRequest[] }>('/api/access-requests?status=declined', { headers: admin });
    expect(decidedList.body.data.map((entry) => entry.id)).toEqual([asked.body.data.id]);

    const again = await request<{ data: AccessRequest }>('/api/access-requests', { method: 'POST', headers: manager, json: { permission: 'demographics', reason: 'Pay equity' } });
    expect(again.body.data.id).not.toBe(asked.body.data.id);
    const unknownRole = await request<ErrorBody>(`/api/access-requests/${again.body.data.id}/approve`, { method: 'POST', headers: admin, json: { roleId: other.roleIds.get('admin') } });
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.body.errors?.[0]?.field).toBe('body.roleId');
    const picked = await request<{ data: AccessRequest }>(`/api/access-requests/${again.body.data.id}/approve`, { method: 'POST', headers: admin, json: { roleId: company.roleIds.get('compensation_planner') } });
    expect(picked.body.data.grantedRole?.key).toBe('compensation_planner');
  });

  it("answers another company's request ids with 404", async () => {
    const asked = await request<{ data: AccessRequest }>('/api/access-requests', { method: 'POST', headers: bearer(other.users.employee!), json: { permission: 'benchmarking', reason: 'Market data' } });
    expect(asked.status).toBe(201);
    for (const action of ['approve', 'decline']) {
      const reply = await request<ErrorBody>(`/api/access-requests/${asked.body.data.id}/${action}`, { method: 'POST', headers: admin, json: action === 'approve' ? { roleId: company.roleIds.get('analyst') } : {} });
      expect(reply.status).toBe(404);
    }
    const listed = await request<{ data: AccessRequest[] }>('/api/access-requests?status=all', { headers: admin });
    expect(listed.body.data.map((entry) => entry.id)).not.toContain(asked.body.data.id);
    const still = await request<{ data: AccessRequest[] }>('/api/access-requests', { headers: bearer(other.users.admin!) });
    expect(still.body.data.map((entry) => entry.id)).toEqual([asked.body.data.id]);
  });
});

describe('approving an access request grants only the role the admin names', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: Record<string, string>;

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Granting Co');
    admin = bearer(company.users.admin!);
  });

  const rolesOf = async (userId: string) => (await request<{ data: User }>(`/api/users/${userId}`, { headers: admin })).body.data.roles.map((role) => role.key).sort();

  it('refuses an approval that names no role, proposes the least role and says who asks', async () => {
    // A manager (their employee record has a report) asks to change roles: only the Admin role grants that.
    const managerUser = company.users.people_manager!;
    const lead = await request<{ data: { id: string } }>('/api/employees', { method: 'POST', headers: admin, json: { employeeNumber: 'AR-1', firstName: 'Lea', lastName: 'Lead', userId: managerUser.id } });
    expect(lead.status).toBe(201);
    expect((await request('/api/employees', { method: 'POST', headers: admin, json: { employeeNumber: 'AR-2', firstName: 'Rui', lastName: 'Report', managerId: lead.body.data.id } })).status).toBe(201);
    const asked = await request<{ data: AccessRequest }>('/api/access-requests', { method: 'POST', headers: bearer(managerUser), json: { permission: 'roles', authority: 'edit', reason: 'Let me run the team' } });
    expect(asked.status).toBe(201);
    expect(asked.body.data).toMatchObject({ requesterKind: 'manager', proposedRole: { key: 'admin' } });

    // The attack of the review: approved without a role, the server chose Admin. Now nothing is granted.
    const blind = await request<ErrorBody>(`/api/access-requests/${asked.body.data.id}/approve`, { method: 'POST', headers: admin, json: {} });
    expect(blind.status).toBe(400);
    expect(blind.body.errors?.map((error) => error.field)).toContain('body.roleId');
    expect(await rolesOf(managerUser.id)).toEqual(['people_manager']);
    const still = await request<{ data: AccessRequest[] }>('/api/access-requests', { headers: admin });
    expect(still.body.data.find((entry) => entry.id === asked.body.data.id)?.status).toBe('pending');

    // An employee record without reports is an employee; the employee role's holder without one is a user.
    const employeeUser = company.users.employee!;
    expect((await request('/api/employees', { method: 'POST', headers: admin, json: { employeeNumber: 'AR-3', firstName: 'Eve', lastName: 'Employee', userId: employeeUser.id } })).status).toBe(201);
    const byEmployee = await request<{ data: AccessRequest }>('/api/access-requests', { method: 'POST', headers: bearer(employeeUser), json: { permission: 'offers', reason: 'Hiring' } });
    expect(byEmployee.body.data).toMatchObject({ requesterKind: 'employee', proposedRole: { key: 'people_manager' } });
    const byAnalyst = await request<{ data: AccessRequest }>('/api/access-requests', { method: 'POST', headers: bearer(company.users.analyst!), json: { permission: 'demographics', reason: 'Equity' } });
    expect(byAnalyst.body.data).toMatchObject({ requesterKind: 'user', proposedRole: { key: 'compensation_planner' } });

    // Positive control: the admin who names a role gives exactly that one.
    const named = await request<{ data: AccessRequest }>(`/api/access-requests/${byEmployee.body.data.id}/approve`, { method: 'POST', headers: admin, json: { roleId: company.roleIds.get('people_manager') } });
    expect(named.status).toBe(200);
    expect(await rolesOf(employeeUser.id)).toEqual(['employee', 'people_manager']);
  });

  it('lets no candidate ask for a role, and gives none to a candidate who asked before', async () => {
    const candidate = await createTestUser(db, { companyId: company.id, candidate: true, email: `candidate-${company.id.slice(-6)}@elsewhere.test` });
    const asking = await request<ErrorBody>('/api/access-requests', { method: 'POST', headers: bearer(candidate), json: { permission: 'roles', authority: 'edit', reason: 'Let me in' } });
    expect(asking.status).toBe(403);
    expect(asking.body).toMatchObject({ code: 'candidate', message: 'Candidates cannot ask for access: Paybench shows a candidate their offer only.' });
    const byModule = await request<ErrorBody>('/api/access-requests', { method: 'POST', headers: bearer(candidate), json: { module: 'benchmarking', reason: 'Let me in' } });
    expect(byModule.status).toBe(403);

    // A request filed before candidates were refused: shown as a candidate's, no role proposed, none given.
    const id = newId();
    const now = new Date().toISOString();
    await db('access_requests').insert({ id, company_id: company.id, requester_user_id: candidate.id, module: null, permissions: JSON.stringify([{ name: 'roles', authority: 'edit' }]), reason: 'Old', status: 'pending', created_at: now, updated_at: now });
    const listed = await request<{ data: AccessRequest[] }>('/api/access-requests', { headers: admin });
    expect(listed.body.data.find((entry) => entry.id === id)).toMatchObject({ requesterKind: 'candidate', proposedRole: null });
    const approved = await request<ErrorBody>(`/api/access-requests/${id}/approve`, { method: 'POST', headers: admin, json: { roleId: company.roleIds.get('admin') } });
    expect(approved.status).toBe(409);
    expect(approved.body.code).toBe('candidate');
    expect(await db('user_roles').where({ user_id: candidate.id })).toEqual([]);
    // Nor directly: setting a candidate's roles, or adding a candidate with roles, is refused.
    const direct = await request<ErrorBody>(`/api/users/${candidate.id}/roles`, { method: 'PUT', headers: admin, json: { roleIds: [company.roleIds.get('admin')] } });
    expect(direct.status).toBe(409);
    expect(direct.body.code).toBe('candidate');
    const added = await request<ErrorBody>('/api/users', { method: 'POST', headers: admin, json: { email: `c2-${company.id.slice(-6)}@elsewhere.test`, firstName: 'C', lastName: 'Two', isCandidate: true, roleKeys: ['admin'] } });
    expect(added.status).toBe(400);
    expect(await db('user_roles').where({ user_id: candidate.id })).toEqual([]);
    expect((await request(`/api/access-requests/${id}/decline`, { method: 'POST', headers: admin, json: {} })).status).toBe(200);
  });
});

describe("a customer's users", () => {
  it('never include internal staff sitting in the company', async () => {
    const db = await testDb();
    const company = await createTestCompany(db, 'Supported Co');
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true, email: `support-${company.id.slice(-6)}@paybench.test` });
    const admin = bearer(company.users.admin!);
    const listed = await request<{ data: User[] }>('/api/users', { headers: admin });
    expect(listed.body.data).toHaveLength(5);
    expect(listed.body.data.map((user) => user.email)).not.toContain(support.email);
    const searched = await request<{ data: User[] }>('/api/users?search=paybench.test', { headers: admin });
    expect(searched.body.data).toEqual([]);
    const filters = await request<{ data: { statuses: { status: string; count: number }[] } }>('/api/users/filter-values', { headers: admin });
    expect(filters.body.data.statuses.find((entry) => entry.status === 'active')?.count).toBe(5);
    const one = await request<ErrorBody>(`/api/users/${support.id}`, { headers: admin });
    expect(one.status).toBe(404);
    const removal = await request<ErrorBody>(`/api/users/${support.id}`, { method: 'DELETE', headers: admin });
    expect(removal.status).toBe(404);
  });
});
