import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import pino from 'pino';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenApiDocument, contractOf } from '../src/http/contract.js';
import { JobQueue } from '../src/jobs/queue.js';
import { allOperations } from '../src/modules.js';
import { EventRelay } from '../src/platform/outbox.js';
import { type ApiModule, checkGating, discoverModules } from '../src/kernel/modules.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from './factories.js';
import { type ErrorBody, request } from './http.js';
import { type RouterApp, startRouterApp } from './routerApp.js';
import { until } from './waiting.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * A module registered only through its folder (`test/modules/notes/`: `module.ts` and its part of
 * the contract) gets its route, its gating, its job and its event subscriber, with no other file
 * naming it.
 */
describe('adding a module is adding its folder', () => {
  let db: Knex;
  let app: RouterApp;
  let queue: JobQueue;
  let modules: ApiModule[];
  let without: TestCompany;
  let withBands: TestCompany;
  let seen: { jobs: string[]; events: string[] };

  beforeAll(async () => {
    db = await testDb();
    modules = await discoverModules(path.join(ROOT, 'api', 'test', 'modules'));
    ({ seen } = (await import('./modules/notes/module.js')) as { seen: typeof seen });
    const document = parse(readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as OpenApiDocument;
    const part = parse(readFileSync(path.join(ROOT, 'api', 'test', 'modules', 'notes', 'contract.yaml'), 'utf8')) as Pick<OpenApiDocument, 'paths'>;
    const contract = contractOf({ ...document, paths: { ...document.paths, ...part.paths } });
    checkGating(contract, modules);
    const log = pino({ level: 'silent' });
    queue = new JobQueue(db, log, undefined, { pollMs: 50 });
    const partial = { jobs: queue };
    for (const module of modules) for (const kind of module.jobs ?? []) queue.registerKind(kind, partial as never);
    queue.worker.deliverEvents(new EventRelay(db, log, modules.flatMap((module) => module.subscribers ?? []), () => partial as never));
    await queue.worker.start();
    app = await startRouterApp(db, { contract, operations: [...allOperations, ...modules.flatMap((module) => module.operations)], deps: partial });
    without = await createTestCompany(db);
    withBands = await createTestCompany(db);
    await db('company_flags').insert({ company_id: withBands.id, flag: 'bands', enabled: true, updated_at: new Date().toISOString() });
  });

  afterAll(async () => {
    await app?.close();
    await queue?.worker.stop();
  });

  it('is found by its folder, with its name, switch, operations, job and subscriber', () => {
    expect(modules.map((module) => ({ area: module.area, module: module.module, operations: module.operations.map((op) => op.operationId), jobs: module.jobs?.map((kind) => kind.type), subscribers: module.subscribers?.map((s) => s.name) }))).toEqual([
      { area: 'notes', module: 'bands', operations: ['createNote'], jobs: ['testNoteFiling'], subscribers: ['notes.seen'] },
    ]);
  });

  it('is closed to a company without the module, before its input is even read', async () => {
    const reply = await request<ErrorBody>('/api/notes', { base: app.url, method: 'POST', headers: bearer(without.users.admin as TestUser), json: { nonsense: true } });
    expect(reply.status).toBe(404);
    expect(reply.body.message).toBe('Salary bands is not switched on for your company.');
  });

  it('answers a company with it: validated by its contract, its job runs and its subscriber hears the event', async () => {
    const refused = await request<ErrorBody>('/api/notes', { base: app.url, method: 'POST', headers: bearer(withBands.users.admin as TestUser), json: { text: '' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.map((error) => error.field)).toEqual(['body.text']);

    const text = `note ${Math.random().toString(36).slice(2)}`;
    const reply = await request<{ data: { text: string; jobId: string } }>('/api/notes', { base: app.url, method: 'POST', headers: bearer(withBands.users.admin as TestUser), json: { text } });
    expect(reply.status).toBe(201);
    expect(reply.body.data.text).toBe(text);
    const job = async () => db('jobs').where({ id: reply.body.data.jobId }).first();
    await until(async () => seen.events.includes(text) && (await job())?.status === 'succeeded');
    expect(seen.jobs).toContain(text);
    expect(await job()).toMatchObject({ type: 'testNoteFiling', status: 'succeeded', company_id: withBands.id });
    const event = await db('domain_events').where({ name: 'note.created', company_id: withBands.id }).first();
    expect(event.delivered_at).not.toBeNull();
  });

  it('needs its permission: a role without bands edit is refused', async () => {
    const reply = await request<ErrorBody>('/api/notes', { base: app.url, method: 'POST', headers: bearer(withBands.users.employee as TestUser), json: { text: 'no' } });
    expect(reply.status).toBe(403);
  });
});
