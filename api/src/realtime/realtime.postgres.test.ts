import { createServer } from 'node:http';
import pino from 'pino';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { baseUrl, request } from '../../test/http.js';
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

  it('reach sockets on this node and on another one in the order they were sent', async () => {
    const person = await createTestUser(await testDb(), { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    const here = await connectedToSecondNode(person.token);
    const there = await sockets.connect(baseUrl(), person.token);
    const received = { here: [] as number[], there: [] as number[] };
    here.on('emitBackgroundJobStatusUpdate', (event: { progress: number }) => received.here.push(event.progress));
    there.on('emitBackgroundJobStatusUpdate', (event: { progress: number }) => received.there.push(event.progress));
    const sent = Array.from({ length: 200 }, (_, i) => i);
    // Sent as a job reports progress: one after another, without waiting for any to arrive.
    for (const progress of sent) node.realtime.toUser(person.id, 'emitBackgroundJobStatusUpdate', { jobId: 'ordered', status: 'running', progress });
    await expect.poll(() => received.here.length + received.there.length, { timeout: 10_000 }).toBe(400);
    expect(received.here).toEqual(sent);
    expect(received.there).toEqual(sent);
  });
});
