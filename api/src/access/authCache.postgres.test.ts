import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser } from '../../test/factories.js';
import { type ErrorBody, request as requestShared } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';
import { loadConfig } from '../config.js';
import { dataVersionOf } from './authCache.js';
import type { components } from '../contract-types.js';
import { type RunningServer, startServer } from '../server.js';

type Person = components['schemas']['Person'];

// Two nodes on a database of their own (so that no other test's writes reach what they keep):
// callers are known to the second, changes are made through the first (or straight in the
// database, as an operator or a third node would).
let first: Awaited<ReturnType<typeof startTestServer>>;
let node: RunningServer;
let db: Knex;
let company: TestCompany;
let admin: Record<string, string>;

beforeAll(async () => {
  first = await startTestServer({ PAYBENCH_SEED_DEMO: 'false', PAYBENCH_DEMO_MARKET_RECORDS: '1000' });
  node = await startServer(loadConfig({ ...process.env, ...first.env, PAYBENCH_JOB_POLL_MS: '3600000' }));
  db = first.deps.db;
  company = await createTestCompany(db, 'Two Nodes Co');
  admin = bearer(company.users.admin as TestUser);
  // Two servers starting on a busy machine.
}, 300_000);
afterAll(async () => {
  await node?.close();
  await first?.stop();
});

/** A request to the first node. */
const request: typeof requestShared = (path, init = {}) => requestShared(path, { base: first.url, ...init });
const onNode = <T>(path: string, user: TestUser) => requestShared<T>(path, { base: node.url, headers: bearer(user) });

/** How many statements `reads` requests for `/api/me` on the second node sent through its pool (each answered 200). */
async function statementsOf(user: TestUser, reads: number): Promise<{ person: Person; statements: number }> {
  let statements = 0;
  const count = () => (statements += 1);
  node.deps.db.on('query', count);
  let person: Person | undefined;
  try {
    for (let i = 0; i < reads; i += 1) {
      const reply = await onNode<{ data: Person }>('/api/me', user);
      expect(reply.status).toBe(200);
      person = reply.body.data;
    }
  } finally {
    node.deps.db.off('query', count);
  }
  return { person: person as Person, statements };
}

/** Reads on the second node until what it keeps about this caller is in place; then ten more reads, and what they read through its pool. */
async function known(user: TestUser): Promise<{ person: Person; statements: number }> {
  await statementsOf(user, 3);
  return statementsOf(user, 10);
}

const refusal = async (user: TestUser): Promise<{ status: number; reason: string | undefined }> => {
  const reply = await onNode<ErrorBody>('/api/me', user);
  return { status: reply.status, reason: reply.body.clientResponse?.message };
};

describe('a caller another node keeps', () => {
  it('costs that node no query, and is refused there at once when the token is revoked through the first node', async () => {
    const user = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    // Kept: ten reads, nothing read through the pool.
    expect((await known(user)).statements).toBe(0);
    const tokenId = (await db('api_tokens').where({ user_id: user.id }).first<{ id: string }>()).id;
    const revoked = await request(`/api/me/api-tokens/${tokenId}`, { method: 'DELETE', headers: bearer(user) });
    expect(revoked.status).toBe(200);
    expect(await refusal(user)).toEqual({ status: 401, reason: 'revoked' });
  });

  it('is refused at once when the token is revoked straight in the database', async () => {
    const user = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    expect((await known(user)).statements).toBe(0);
    await db('api_tokens').where({ user_id: user.id }).update({ revoked_at: new Date().toISOString() });
    expect(await refusal(user)).toEqual({ status: 401, reason: 'revoked' });
  });

  it('is refused at once when the user is removed through the first node', async () => {
    const user = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('analyst') ?? ''] });
    expect((await known(user)).statements).toBe(0);
    const removed = await request(`/api/users/${user.id}`, { method: 'DELETE', headers: admin });
    expect(removed.status).toBe(200);
    expect((await refusal(user)).status).toBe(401);
  });

  it('has a role changed through the first node from the next request on', async () => {
    const user = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    expect((await known(user)).person.companyRolesV2.map((role) => role.key)).toEqual(['employee']);
    expect((await onNode('/api/roles', user)).status).toBe(403);
    const set = await request(`/api/users/${user.id}/roles`, { method: 'PUT', headers: admin, json: { roleIds: [company.roleIds.get('admin')] } });
    expect(set.status).toBe(200);
    expect((await onNode<{ data: Person }>('/api/me', user)).body.data.companyRolesV2.map((role) => role.key)).toEqual(['admin']);
    expect((await onNode('/api/roles', user)).status).toBe(200);
  });

  it("has a role's permissions changed straight in the database from the next request on", async () => {
    const user = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('analyst') ?? ''] });
    await known(user);
    expect((await onNode('/api/roles', user)).status).toBe(403);
    // The user's role alone: another role with every permission, given to them in one statement.
    await db('user_roles').where({ user_id: user.id }).update({ role_id: company.roleIds.get('admin') });
    expect((await onNode('/api/roles', user)).status).toBe(200);
  });

  it('still reuses what it keeps after a write that changes nothing authentication reads (a token noted as used)', async () => {
    const user = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    expect((await known(user)).statements).toBe(0);
    await db('api_tokens').where({ user_id: user.id }).update({ last_used_at: new Date().toISOString() });
    expect((await statementsOf(user, 5)).statements).toBe(0);
    // The positive control: a write to what it reads (the user's name) is read again, once.
    await db('users').where({ id: user.id }).update({ first_name: 'Renamed' });
    const after = await statementsOf(user, 5);
    expect(after.person.firstName).toBe('Renamed');
    expect(after.statements).toBe(1);
  });
});

describe('the data version', () => {
  it('is one per server, and none for a transaction: under row-level security each request is one, and a source made from it would listen on a connection of its own that nothing closes', async () => {
    expect(dataVersionOf(db)).toBeDefined();
    expect(dataVersionOf(db)).toBe(dataVersionOf(db));
    await db.transaction(async (trx) => {
      expect(dataVersionOf(trx)).toBeUndefined();
    });
  });
});
