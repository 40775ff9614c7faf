import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';

type Schemas = components['schemas'];
type Context = Schemas['BenchmarkingContext'];

let company: TestCompany;
const user = (key: string): TestUser => company.users[key] as TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Context Co');
});

describe('GET /api/benchmarking/context', () => {
  it('tells each role what it may do, with the served release', async () => {
    const internal = await createTestUser(await testDb(), { companyId: null, internalAdmin: true });
    const releases = await request<{ data: Schemas['MarketRelease'][] }>('/api/internal/market/releases', { headers: bearer(internal) });
    const serving = releases.body.data.find((release) => release.serving);
    expect(serving).toBeDefined();

    const planner = await request<{ data: Context }>('/api/benchmarking/context', { headers: bearer(user('compensation_planner')) });
    expect(planner.status).toBe(200);
    expect(planner.body.data).toEqual({
      switchedOn: true,
      access: 'edit',
      mayRequestAccess: false,
      location: null,
      release: { id: serving?.id, version: serving?.version },
    });
    const analyst = await request<{ data: Context }>('/api/benchmarking/context', { headers: bearer(user('analyst')) });
    expect(analyst.body.data).toMatchObject({ access: 'view', mayRequestAccess: false });
    const employee = await request<{ data: Context }>('/api/benchmarking/context', { headers: bearer(user('employee')) });
    expect(employee.body.data).toMatchObject({ switchedOn: true, access: 'none', mayRequestAccess: true });
  });

  it('carries the preferred location the company saved, and only that company’s', async () => {
    const settings = { overrideBaseCompensationRequirement: false, overrideEquityRequirement: false, useSyntheticLocationInsightsData: false, location: 'Europe' };
    const saved = await request('/api/benchmarking/settings', { method: 'PUT', headers: bearer(user('admin')), json: settings });
    expect(saved.status).toBe(200);
    const employee = await request<{ data: Context }>('/api/benchmarking/context', { headers: bearer(user('employee')) });
    expect(employee.body.data.location).toBe('Europe');
    const neighbour = await createTestCompany(await testDb(), 'Context Neighbour');
    const theirs = await request<{ data: Context }>('/api/benchmarking/context', { headers: bearer(neighbour.users.admin as TestUser) });
    expect(theirs.body.data.location).toBeNull();
  });

  it('says when benchmarking is switched off for the company, and then offers no access request', async () => {
    const db = await testDb();
    const off = await createTestCompany(db, 'Context Off');
    await db('company_flags').insert({ company_id: off.id, flag: 'benchmarking', enabled: false, updated_at: new Date().toISOString() });
    const reply = await request<{ data: Context }>('/api/benchmarking/context', { headers: bearer(off.users.employee as TestUser) });
    expect(reply.body.data).toMatchObject({ switchedOn: false, access: 'none', mayRequestAccess: false });
  });

  it('is refused to candidates, people without a company, and anonymous callers', async () => {
    const db = await testDb();
    const candidate = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('admin') ?? ''], candidate: true });
    expect((await request<ErrorBody>('/api/benchmarking/context', { headers: bearer(candidate) })).status).toBe(403);
    const loner = await createTestUser(db, { companyId: null });
    expect((await request<ErrorBody>('/api/benchmarking/context', { headers: bearer(loner) })).status).toBe(403);
    expect((await request<ErrorBody>('/api/benchmarking/context')).status).toBe(401);
  });
});
