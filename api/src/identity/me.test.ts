import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Person = components['schemas']['Person'];
type ApiToken = components['schemas']['ApiTokenCreated'];

describe('the signed-in person', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(await testDb());
  });

  it('carries roles, resolved permissions and modules in the spec’s field names', async () => {
    const planner = company.users.compensation_planner;
    const reply = await request<{ data: Person }>('/api/me', { headers: bearer(planner!) });
    expect(reply.status).toBe(200);
    const person = reply.body.data;
    expect(person).toMatchObject({ id: planner?.id, email: planner?.email, companyId: company.id, isCandidate: false, isInternalAdmin: false, viewAs: null });
    expect(person.companyRolesV2.map((role) => role.key)).toEqual(['compensation_planner']);
    expect(person.permissionsV3.bands).toEqual([{ authority: 'edit', scope: 'all' }]);
    expect(person.allRolePermissions.benchmarking).toEqual([{ authority: 'edit', scope: 'all' }]);
    // Benchmarking is on by default; bands waits for its release flag.
    expect(person.modules.find((m) => m.module === 'benchmarking')).toEqual({ module: 'benchmarking', available: true, authorized: true });
    expect(person.modules.find((m) => m.module === 'bands')).toEqual({ module: 'bands', available: false, authorized: false });
  });

  it('lets an employee use only what their role allows', async () => {
    const reply = await request<{ data: Person }>('/api/me', { headers: bearer(company.users.employee!) });
    const authorized = reply.body.data.modules.filter((m) => m.authorized).map((m) => m.module);
    expect(authorized).toEqual([]);
    expect(reply.body.data.permissionsV3).toEqual({ totalRewards: [{ authority: 'view', scope: 'self' }] });
  });

  it('records terms-of-use acceptance and preferences', async () => {
    const me = company.users.analyst!;
    const terms = await request<{ data: Person }>('/api/me/terms-of-use', { method: 'POST', headers: bearer(me) });
    expect(terms.body.data.termsAcceptedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const saved = await request('/api/me/preferences', { method: 'PUT', headers: bearer(me), json: { displayCurrency: 'USD', theme: 'dark' } });
    expect(saved.status).toBe(200);
    const read = await request<{ data: unknown }>('/api/me/preferences', { headers: bearer(me) });
    expect(read.body.data).toEqual({ displayCurrency: 'USD', theme: 'dark' });
    const refused = await request<ErrorBody>('/api/me/preferences', { method: 'PUT', headers: bearer(me), json: { theme: 'neon' } });
    expect(refused.status).toBe(400);
  });

  it('tracks onboarding steps', async () => {
    const me = company.users.employee!;
    const first = await request<{ data: { completedSteps: string[]; completed: boolean } }>('/api/me/onboarding', { headers: bearer(me) });
    expect(first.body.data).toEqual({ completedSteps: [], completed: false });
    await request('/api/me/onboarding', { method: 'POST', headers: bearer(me), json: { step: 'profile' } });
    const done = await request<{ data: { completedSteps: string[]; completed: boolean } }>('/api/me/onboarding', {
      method: 'POST',
      headers: bearer(me),
      json: { step: 'explore_benchmarking' },
    });
    expect(done.body.data).toEqual({ completedSteps: ['profile', 'explore_benchmarking'], completed: true });
  });
});

describe('API tokens', () => {
  it('are shown once, listed without their secret, act as their owner, and stop working when revoked', async () => {
    const company = await createTestCompany(await testDb());
    const admin = company.users.admin!;
    const created = await request<{ data: ApiToken }>('/api/me/api-tokens', { method: 'POST', headers: bearer(admin), json: { name: 'payroll sync', expiresInDays: 30 } });
    expect(created.status).toBe(201);
    const secret = created.body.data.token;
    expect(secret).toMatch(/^pb_[A-Za-z0-9_-]{43}$/);
    expect(created.body.data.prefix).toBe(secret.slice(0, 10));

    const listed = await request<{ data: Record<string, unknown>[] }>('/api/me/api-tokens', { headers: bearer(admin) });
    const entry = listed.body.data.find((token) => token.id === created.body.data.id);
    expect(entry).toMatchObject({ name: 'payroll sync', revokedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const db = await testDb();
    const stored = await db('api_tokens').where({ id: created.body.data.id }).first<{ token_hash: string }>();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.token_hash).not.toContain(secret);

    const asToken = await request<{ data: Person }>('/api/me', { headers: { Authorization: `Bearer ${secret}` } });
    expect(asToken.body.data.email).toBe(admin.email);

    const revoked = await request<{ data: { revokedAt: string | null } }>(`/api/me/api-tokens/${created.body.data.id}`, { method: 'DELETE', headers: bearer(admin) });
    expect(revoked.body.data.revokedAt).not.toBeNull();
    const refused = await request<ErrorBody>('/api/me', { headers: { Authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
    expect(refused.body.clientResponse).toEqual({ message: 'revoked' });
  });

  it('stop working once expired, with the reason', async () => {
    const db = await testDb();
    const user = await createTestUser(db, { companyId: null });
    await db('api_tokens').where({ user_id: user.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const refused = await request<ErrorBody>('/api/me', { headers: bearer(user) });
    expect(refused.status).toBe(401);
    expect(refused.body.clientResponse).toEqual({ message: 'expired' });
  });

  it('cannot be revoked by someone else', async () => {
    const company = await createTestCompany(await testDb());
    const created = await request<{ data: ApiToken }>('/api/me/api-tokens', { method: 'POST', headers: bearer(company.users.admin!), json: { name: 'mine' } });
    const other = await request<ErrorBody>(`/api/me/api-tokens/${created.body.data.id}`, { method: 'DELETE', headers: bearer(company.users.analyst!) });
    expect(other.status).toBe(404);
  });
});

describe('a new person without a company', () => {
  it('completes their account, creates a company and becomes its admin', async () => {
    const db = await testDb();
    const newcomer = await createTestUser(db, { companyId: null });
    const before = await request<ErrorBody>('/api/company', { headers: bearer(newcomer) });
    expect(before.status).toBe(403);

    const account = await request<{ data: Person }>('/api/accounts', {
      method: 'POST',
      headers: bearer(newcomer),
      json: { accountData: { firstName: 'Nia', lastName: 'Newcomer' }, subdomain: 'app', partnerCode: 'P-1', referrer: 'https://example.test', campaignTrackingStringified: '{"utm_source":"newsletter"}' },
    });
    expect(account.body.data).toMatchObject({ firstName: 'Nia', lastName: 'Newcomer', companyId: null });

    const created = await request<{ data: { id: string; key: string; settings: { currency: string; sharePrice: number; valuation: number | null } } }>('/api/companies', {
      method: 'POST',
      headers: bearer(newcomer),
      json: { name: 'Globex Labs', domains: ['globex.test'], currency: 'EUR' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.key).toMatch(/^globex-labs/);
    expect(created.body.data.settings).toMatchObject({ currency: 'EUR', sharePrice: 0, valuation: null });

    const me = await request<{ data: Person }>('/api/me', { headers: bearer(newcomer) });
    expect(me.body.data.companyId).toBe(created.body.data.id);
    expect(me.body.data.companyRolesV2.map((role) => role.key)).toEqual(['admin']);
    const again = await request<ErrorBody>('/api/companies', { method: 'POST', headers: bearer(newcomer), json: { name: 'Second' } });
    expect(again.status).toBe(409);
  });
});
