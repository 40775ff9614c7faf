import { createServer } from 'node:http';
import pino from 'pino';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';
import { TestSockets, disconnection } from '../../test/sockets.js';
import { loadConfig } from '../config.js';
import { type Realtime, startRealtime } from './server.js';

// A second node on the shared test database: sockets connect to it, the API is called on the first.
let node: { url: string; realtime: Realtime };
let company: TestCompany;
const sockets = new TestSockets();

beforeAll(async () => {
  const config = loadConfig({ ...process.env, ...inject('serverEnv') });
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const realtime = await startRealtime(http, { config, db: await testDb(), log: pino({ level: 'silent' }), identity: () => undefined });
  node = { url: `http://127.0.0.1:${port}`, realtime };
  company = await createTestCompany(await testDb());
});
afterAll(async () => {
  sockets.closeAll();
  await node?.realtime.close();
});

const connectedToSecondNode = (token: string): Promise<Socket> => sockets.connect(node.url, token);

describe('sockets on another node', () => {
  it('are disconnected when their user is removed through any node', async () => {
    const person = await createTestUser(await testDb(), { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    const socket = await connectedToSecondNode(person.token);
    const dropped = disconnection(socket);
    const removed = await request(`/api/users/${person.id}`, { method: 'DELETE', headers: bearer(company.users.admin!) });
    expect(removed.status).toBe(200);
    expect(await dropped).toBe('io server disconnect');
  });
});
