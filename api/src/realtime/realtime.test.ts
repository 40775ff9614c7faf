import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { baseUrl, request } from '../../test/http.js';
import { TestSockets, disconnection } from '../../test/sockets.js';
import type { components } from '../contract-types.js';
import { Browser, WEB_CLIENT, createPerson, discover, signInWithCode } from '../identity/provider/testSupport.js';

type ApiToken = components['schemas']['ApiTokenCreated'];

const sockets = new TestSockets();
const connected = (token: string): Promise<Socket> => sockets.connect(baseUrl(), token);

/** Leaves a disconnect on its way time to arrive, then says whether the socket is still up. */
async function stillConnected(socket: Socket): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return socket.connected;
}

describe('sockets end with the credentials they were opened with', () => {
  let company: TestCompany;
  let admin: Record<string, string>;
  beforeAll(async () => {
    company = await createTestCompany(await testDb());
    admin = bearer(company.users.admin!);
  });
  afterAll(() => sockets.closeAll());

  it('disconnects a removed user', async () => {
    const person = await createTestUser(await testDb(), { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    const socket = await connected(person.token);
    const colleague = await connected(company.users.analyst!.token);
    const dropped = disconnection(socket);
    const removed = await request(`/api/users/${person.id}`, { method: 'DELETE', headers: admin });
    expect(removed.status).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    expect(await stillConnected(colleague)).toBe(true);
  });

  it('disconnects a socket whose API token is revoked, and only that one', async () => {
    const person = company.users.compensation_planner!;
    const created = await request<{ data: ApiToken }>('/api/me/api-tokens', { method: 'POST', headers: bearer(person), json: { name: 'socket' } });
    expect(created.status).toBe(201);
    const socket = await connected(created.body.data.token);
    const other = await connected(person.token);
    const dropped = disconnection(socket);
    const revoked = await request(`/api/me/api-tokens/${created.body.data.id}`, { method: 'DELETE', headers: bearer(person) });
    expect(revoked.status).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    expect(await stillConnected(other)).toBe(true);
  });

  it('disconnects the sign-in sockets of someone who logs out, not their API-token ones', async () => {
    const person = await createPerson(await testDb());
    const tokens = await signInWithCode(new Browser(baseUrl()), await discover(baseUrl(), WEB_CLIENT), baseUrl(), person);
    const auth = { Authorization: `Bearer ${tokens.access_token}` };
    const script = await request<{ data: ApiToken }>('/api/me/api-tokens', { method: 'POST', headers: auth, json: { name: 'script' } });
    const signedIn = await connected(tokens.access_token);
    const scripted = await connected(script.body.data.token);
    const dropped = disconnection(signedIn);
    const logout = await request('/api/me/logout', { method: 'POST', headers: auth });
    expect(logout.status).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    expect(await stillConnected(scripted)).toBe(true);
  });
});
