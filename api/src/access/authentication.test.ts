import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';
import type { components } from '../contract-types.js';

type Person = components['schemas']['Person'];

/** A few reads first, so whatever the server keeps about this caller is in place. */
async function warm(user: TestUser): Promise<Person> {
  let person: Person | undefined;
  for (let i = 0; i < 3; i += 1) {
    const reply = await request<{ data: Person }>('/api/me', { headers: bearer(user) });
    expect(reply.status).toBe(200);
    person = reply.body.data;
  }
  return person as Person;
}

const refusal = async (user: TestUser): Promise<{ status: number; reason: string | undefined }> => {
  const reply = await request<ErrorBody>('/api/me', { headers: bearer(user) });
  return { status: reply.status, reason: reply.body.clientResponse?.message };
};

describe('authenticated reads', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // The job worker polls the same database on its own clock; an hour apart, it stays out of the count.
    server = await startTestServer({ PAYBENCH_SEED_DEMO: 'false', PAYBENCH_DEMO_MARKET_RECORDS: '1000', PAYBENCH_JOB_POLL_MS: '3600000' });
  });
  afterAll(async () => server?.stop());

  it('write nothing per request, and read nothing through the pool once the caller is known', async () => {
    const company = await createTestCompany(server.deps.db, 'Quiet Reads Co');
    const admin = company.users.admin as TestUser;
    const me = () => request<{ data: Person }>('/api/me', { base: server.url, headers: bearer(admin) });
    // The first read loads the caller and notes the token's use (on SQLite a commit, after which it is loaded once more).
    for (let i = 0; i < 2; i += 1) expect((await me()).status).toBe(200);
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    server.deps.db.on('query', record);
    try {
      for (let i = 0; i < 20; i += 1) expect((await me()).status).toBe(200);
    } finally {
      server.deps.db.off('query', record);
    }
    // On Postgres too: any node's change to what authentication reads is heard before the caller is reused.
    expect(statements).toEqual([]);
  });
});

describe('a caller the server has seen before', () => {
  let company: TestCompany;
  let admin: Record<string, string>;
  beforeAll(async () => {
    company = await createTestCompany(await testDb(), 'Known Callers Co');
    admin = bearer(company.users.admin as TestUser);
  });

  it('is refused at once when their token is revoked through the API', async () => {
    const db = await testDb();
    const user = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    await warm(user);
    const tokenId = (await db('api_tokens').where({ user_id: user.id }).first<{ id: string }>()).id;
    const revoked = await request(`/api/me/api-tokens/${tokenId}`, { method: 'DELETE', headers: bearer(user) });
    expect(revoked.status).toBe(200);
    expect(await refusal(user)).toEqual({ status: 401, reason: 'revoked' });
  });

  it('is refused at once when their token is revoked by another connection (another node, an operator)', async () => {
    const db = await testDb();
    const user = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    await warm(user);
    await db('api_tokens').where({ user_id: user.id }).update({ revoked_at: new Date().toISOString() });
    expect(await refusal(user)).toEqual({ status: 401, reason: 'revoked' });
  });

  it('is refused at once when they are removed from the company', async () => {
    const user = await createTestUser(await testDb(), { companyId: company.id, roleIds: [company.roleIds.get('analyst') ?? ''] });
    await warm(user);
    const removed = await request(`/api/users/${user.id}`, { method: 'DELETE', headers: admin });
    expect(removed.status).toBe(200);
    expect((await refusal(user)).status).toBe(401);
  });

  it('is refused at once when their token expires, with the reason', async () => {
    const db = await testDb();
    const user = await createTestUser(db, { companyId: null });
    await db('api_tokens').where({ user_id: user.id }).update({ expires_at: new Date(Date.now() + 1500).toISOString() });
    await warm(user);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(await refusal(user)).toEqual({ status: 401, reason: 'expired' });
  });

  it('has new roles, and loses old ones, from the next request on', async () => {
    const user = await createTestUser(await testDb(), { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    expect((await warm(user)).companyRolesV2.map((role) => role.key)).toEqual(['employee']);
    expect((await request('/api/roles', { headers: bearer(user) })).status).toBe(403);
    const set = await request(`/api/users/${user.id}/roles`, { method: 'PUT', headers: admin, json: { roleIds: [company.roleIds.get('admin')] } });
    expect(set.status).toBe(200);
    const me = await request<{ data: Person }>('/api/me', { headers: bearer(user) });
    expect(me.body.data.companyRolesV2.map((role) => role.key)).toEqual(['admin']);
    expect((await request('/api/roles', { headers: bearer(user) })).status).toBe(200);
    await request(`/api/users/${user.id}/roles`, { method: 'PUT', headers: admin, json: { roleIds: [company.roleIds.get('employee')] } });
    expect((await request('/api/roles', { headers: bearer(user) })).status).toBe(403);
  });

  it('sees a release flag switched from the next request on', async () => {
    const support = await createTestUser(await testDb(), { companyId: null, internalAdmin: true });
    const bands = (person: Person) => person.modules.find((module) => module.module === 'bands')?.available;
    expect(bands(await warm(company.users.admin as TestUser))).toBe(false);
    const flagUrl = `/api/internal/companies/${company.id}/release-flags/bands`;
    expect((await request(flagUrl, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    expect(bands((await request<{ data: Person }>('/api/me', { headers: admin })).body.data)).toBe(true);
    expect((await request(flagUrl, { method: 'PUT', headers: bearer(support), json: { enabled: false } })).status).toBe(200);
    expect(bands((await request<{ data: Person }>('/api/me', { headers: admin })).body.data)).toBe(false);
  });
});
