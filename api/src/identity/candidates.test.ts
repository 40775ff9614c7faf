import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { Browser, WEB_CLIENT, discover, signInWithCode } from './provider/testSupport.js';

type Person = components['schemas']['Person'];
type Provisioned = components['schemas']['ProvisionedAccount'];

let db: Knex;
let company: TestCompany;
let support: TestUser;

beforeAll(async () => {
  db = await testDb();
  company = await createTestCompany(db, 'Hiring Co');
  support = await createTestUser(db, { companyId: null, internalAdmin: true });
});

describe('a candidate', () => {
  it('is invited by e-mail, signs in with it, and never gets benchmarking settings, whatever roles they are given', async () => {
    const admin = company.users.admin as TestUser;
    const email = `candidate-${Math.random().toString(36).slice(2, 10)}@example.test`;
    const provisioned = await request<{ data: Provisioned }>('/api/accounts/provision', { method: 'POST', headers: bearer(admin), json: { email, firstName: 'Cleo', lastName: 'Candidate', isCandidate: true } });
    expect(provisioned.status).toBe(201);
    const check = await request<{ data: components['schemas']['AuthnMigrationCheck'] }>('/api/auth/authn-migration-check', { method: 'POST', json: { email } });
    expect(check.body.data.action).toBe('activate');

    const outbox = await request<{ data: { text: string }[] }>(`/api/internal/outbox?to=${encodeURIComponent(email)}`, { headers: bearer(support) });
    const link = /\/invitation\/\S+/.exec(outbox.body.data[0]?.text ?? '')?.[0] ?? '';
    const password = 'candidate passphrase 42';
    expect((await new Browser(baseUrl()).visit(link, { form: { password } })).response.status).toBe(200);

    const tokens = await signInWithCode(new Browser(baseUrl()), await discover(baseUrl(), WEB_CLIENT), baseUrl(), { email, password });
    const asCandidate = { Authorization: `Bearer ${tokens.access_token}` };
    const me = await request<{ data: Person }>('/api/me', { headers: asCandidate });
    expect(me.body.data).toMatchObject({ email, isCandidate: true, companyId: company.id, emailVerified: true, companyRolesV2: [] });

    const modules = await request<{ data: components['schemas']['ModuleState'][] }>('/api/me/modules', { headers: asCandidate });
    expect(modules.body.data.find((m) => m.module === 'benchmarking')).toMatchObject({ authorized: false });
    const settings = await request<ErrorBody>('/api/benchmarking/settings', { headers: asCandidate });
    expect(settings.status).toBe(403);

    // An admin tries to hand them every permission there is: a candidate holds no company role,
    // and benchmarking settings stay out of reach.
    const adminRole = company.roleIds.get('admin') ?? '';
    const granted = await request<ErrorBody>(`/api/users/${provisioned.body.data.user.id}/roles`, { method: 'PUT', headers: bearer(admin), json: { roleIds: [adminRole] } });
    expect(granted.status).toBe(409);
    expect(granted.body.code).toBe('candidate');
    const again = await request<ErrorBody>('/api/benchmarking/settings', { headers: asCandidate });
    expect(again.status).toBe(403);
    const write = await request<ErrorBody>('/api/benchmarking/settings', {
      method: 'PUT',
      headers: asCandidate,
      json: { overrideBaseCompensationRequirement: true, overrideEquityRequirement: false, useSyntheticLocationInsightsData: false, location: null },
    });
    expect(write.status).toBe(403);
  });
});
