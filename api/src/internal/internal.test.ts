import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Person = components['schemas']['Person'];
type Session = components['schemas']['ViewAsSession'];
type Flag = components['schemas']['ReleaseFlag'];

const VIEW_AS = 'X-Paybench-View-As';
const COMPANY_AS = 'X-Paybench-Company-As';

describe('internal admins', () => {
  let customer: TestCompany;
  let support: TestUser;
  beforeAll(async () => {
    const db = await testDb();
    customer = await createTestCompany(db, 'Customer Co');
    const home = await createTestCompany(db, 'Support Home');
    support = await createTestUser(db, { companyId: home.id, internalAdmin: true });
  });

  it('find the companies they support; others may not', async () => {
    const reply = await request<{ data: { companyName: string }[] }>('/api/internal/companies?search=customer', { headers: bearer(support) });
    expect(reply.body.data.map((c) => c.companyName)).toContain('Customer Co');
    const refused = await request<ErrorBody>('/api/internal/companies', { headers: bearer(customer.users.admin!) });
    expect(refused.status).toBe(403);
  });

  it('toggle a release flag per company, which switches the module on for that company only', async () => {
    const employee = bearer(customer.users.employee!);
    const planner = bearer(customer.users.compensation_planner!);
    const before = await request<{ data: Person }>('/api/me', { headers: planner });
    expect(before.body.data.modules.find((m) => m.module === 'bands')?.available).toBe(false);
    const set = await request<{ data: Flag }>(`/api/internal/companies/${customer.id}/release-flags/bands`, {
      method: 'PUT',
      headers: bearer(support),
      json: { enabled: true },
    });
    expect(set.body.data).toEqual({ flag: 'bands', enabled: true, isDefault: false });
    const after = await request<{ data: Person }>('/api/me', { headers: planner });
    expect(after.body.data.modules.find((m) => m.module === 'bands')).toEqual({ module: 'bands', available: true, authorized: true });
    const flags = await request<{ data: Flag[] }>('/api/me/release-flags', { headers: planner });
    expect(flags.body.data.find((f) => f.flag === 'bands')?.enabled).toBe(true);
    expect(flags.body.data.find((f) => f.flag === 'benchmarking')).toEqual({ flag: 'benchmarking', enabled: true, isDefault: true });
    const modules = await request<{ data: { module: string; available: boolean; authorized: boolean }[] }>('/api/me/modules', { headers: employee });
    expect(modules.body.data.find((m) => m.module === 'bands')).toEqual({ module: 'bands', available: true, authorized: false });
  });

  it('view as a user only within a recorded session, read-only, then return to themselves', async () => {
    const target = customer.users.people_manager!;
    const withoutSession = await request<ErrorBody>('/api/me', { headers: { ...bearer(support), [VIEW_AS]: target.email } });
    expect(withoutSession.status).toBe(403);

    const started = await request<{ data: Session }>('/api/v2/view-as-sessions', {
      method: 'POST',
      headers: bearer(support),
      json: { userEmail: target.email, reason: 'Ticket #4711: manager cannot see reports' },
    });
    expect(started.status).toBe(201);
    expect(started.body.data).toMatchObject({ mode: 'user', targetEmail: target.email, companyId: customer.id, endedAt: null });

    const asTarget = await request<{ data: Person }>('/api/me', { headers: { ...bearer(support), [VIEW_AS]: target.email } });
    expect(asTarget.body.data).toMatchObject({ id: target.id, email: target.email, companyId: customer.id, isInternalAdmin: false });
    expect(asTarget.body.data.viewAs).toEqual({ sessionId: started.body.data.id, mode: 'user', adminEmail: support.email });
    // Exactly what that user sees, no more: a people manager cannot list users.
    const users = await request<ErrorBody>('/api/users', { headers: { ...bearer(support), [VIEW_AS]: target.email } });
    expect(users.status).toBe(403);
    const write = await request<ErrorBody>('/api/me/preferences', { method: 'PUT', headers: { ...bearer(support), [VIEW_AS]: target.email }, json: {} });
    expect(write.status).toBe(403);
    expect(write.body.message).toBe('View-as sessions are read-only.');

    const ended = await request<{ data: Session }>(`/api/v2/view-as-sessions/${started.body.data.id}/end`, { method: 'POST', headers: bearer(support) });
    expect(ended.body.data.endedAt).not.toBeNull();
    const afterEnd = await request<ErrorBody>('/api/me', { headers: { ...bearer(support), [VIEW_AS]: target.email } });
    expect(afterEnd.status).toBe(403);
    const self = await request<{ data: Person }>('/api/me', { headers: bearer(support) });
    expect(self.body.data).toMatchObject({ email: support.email, isInternalAdmin: true, viewAs: null });

    const db = await testDb();
    const audit = await db('audit_events').where({ actor_user_id: support.id }).whereIn('action', ['view_as.started', 'view_as.ended']).orderBy('created_at');
    expect(audit.map((event: { action: string }) => event.action)).toEqual(['view_as.started', 'view_as.ended']);
    const listed = await request<{ data: Session[] }>('/api/v2/view-as-sessions', { headers: bearer(support) });
    expect(listed.body.data[0]).toMatchObject({ id: started.body.data.id, reason: 'Ticket #4711: manager cannot see reports' });
  });

  it('view as a company with an admin’s eyes', async () => {
    const companyKey = (await request<{ data: { key: string } }>('/api/company', { headers: bearer(customer.users.admin!) })).body.data.key;
    await request('/api/v2/view-as-sessions', { method: 'POST', headers: bearer(support), json: { companyKey, reason: 'Onboarding call' } });
    const users = await request<{ data: { email: string }[] }>('/api/users', { headers: { ...bearer(support), [COMPANY_AS]: companyKey } });
    expect(users.status).toBe(200);
    expect(users.body.data.map((u) => u.email)).toContain(customer.users.admin!.email);
  });

  it('are the only ones whose view-as headers count', async () => {
    const reply = await request<ErrorBody>('/api/me', { headers: { ...bearer(customer.users.admin!), [VIEW_AS]: customer.users.employee!.email } });
    expect(reply.status).toBe(403);
    expect(reply.body.message).toBe('Only internal admins can view as another user or company.');
  });
});
