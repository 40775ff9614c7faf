import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import type { components } from '../src/contract-types.js';
import { type TestCompany, bearer, createTestCompany, testDb } from './factories.js';
import { type ErrorBody, request } from './http.js';
import { type TestObjectStore, startTestObjectStore } from './objectStore.js';
import { startTestServer } from './server.js';
import { jobEnded, until } from './waiting.js';
import { queueJobIn } from '../src/jobs/queue.js';
import { type SlowExportResult, slowExport } from './nodes/slowJob.js';

type Job = components['schemas']['BackgroundJob'];
type Node = Awaited<ReturnType<typeof startTestServer>>;

// Three nodes on one Postgres schema, each with a data directory of its own, files in an S3-protocol
// store: web node 1, a worker-only node, and later web node 2.
let web: Node;
let worker: Node | undefined;
let web2: Node | undefined;
let store: TestObjectStore;
let db: Knex;
let company: TestCompany;
let shared: Record<string, string>;
let killable: ChildProcess | undefined;
let worker2: Node | undefined;

/**
 * A fresh data directory holding only the first node's secrets key: every node must seal secrets with
 * the same key (a deployment sets PAYBENCH_SECRETS_KEY; the server reads that from its process
 * environment, which tests running side by side do not change).
 */
function dataDirWithSecretsOf(node: Node): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'paybench-node-'));
  copyFileSync(path.join(node.env.PAYBENCH_DATA_DIR ?? '', 'secrets.key'), path.join(dir, 'secrets.key'));
  return dir;
}

beforeAll(async () => {
  store = await startTestObjectStore();
  const common = { ...store.env, PAYBENCH_SEED_DEMO: 'false', PAYBENCH_JOB_POLL_MS: '50' };
  web = await startTestServer({ ...common, PAYBENCH_ROLES: 'web' }, { demoMarketRecords: 500 });
  // The worker: the same database and schema; its own data directory (no disk shared); only its roles differ.
  shared = { ...web.env, PAYBENCH_ROLES: 'worker', PAYBENCH_DRAIN_DELAY_MS: '1500', PAYBENCH_DATA_DIR: dataDirWithSecretsOf(web) };
  db = await testDb(web.env);
  company = await createTestCompany(db, 'Roles Co');
});
afterAll(async () => {
  killable?.kill('SIGKILL');
  await worker2?.close();
  await worker?.close();
  await web2?.close();
  await db?.destroy();
  await web?.stop();
  await store?.stop();
});

describe('web and worker roles on Postgres', () => {
  let jobId: string;

  it('a web-only node answers requests and sockets but runs no job', async () => {
    const ready = await request<{ data: components['schemas']['Readiness'] }>('/api/ready', { base: web.url });
    expect(ready.status).toBe(200);
    expect(ready.body.data).toEqual({ status: 'ready', roles: ['web'] });
    const started = await request<{ data: Job }>('/api/users/exports', { method: 'POST', base: web.url, headers: bearer(company.users.admin!) });
    expect(started.status).toBe(202);
    jobId = started.body.data.id;
    // The web node polls nothing: 40 of its 50 ms polls later the job is still waiting for a worker.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const row = await db('jobs').where({ id: jobId }).first<{ status: string; attempts: number }>();
    expect(row).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('a worker-only node runs the job enqueued through the web node, and answers only its probes', async () => {
    worker = await startTestServer(shared, { demoMarketRecords: 500 });
    const done = await jobEnded(company.users.admin!, jobId, 30_000, web.url);
    expect(done.status).toBe('succeeded');
    const row = await db('jobs').where({ id: jobId }).first<{ locked_by: string | null; attempts: number }>();
    expect(row?.attempts).toBe(1);

    const health = await request<{ data: components['schemas']['Health'] }>('/api/health', { base: worker.url });
    expect(health.status).toBe(200);
    expect(health.body.data.database.engine).toBe('postgres');
    const ready = await request<{ data: components['schemas']['Readiness'] }>('/api/ready', { base: worker.url });
    expect(ready.body.data).toEqual({ status: 'ready', roles: ['worker'] });
    const refused = await request<ErrorBody>('/api/users/exports', { method: 'POST', base: worker.url, headers: bearer(company.users.admin!) });
    expect(refused.status).toBe(421);
    expect(refused.body.code).toBe('not_a_web_node');
  });

  it('the file the worker made downloads through either web node: streamed by one, by signed URL from the other', async () => {
    const admin = company.users.admin!;
    const job = await jobEnded(admin, jobId, 30_000, web.url);
    expect(job.downloadId).toBeTruthy();
    const streamed = await request<string>(`/api/downloads/${job.downloadId}`, { base: web.url, headers: bearer(admin) });
    expect(streamed.status).toBe(200);
    expect(streamed.body).toContain(admin.email);

    web2 = await startTestServer({ ...web.env, PAYBENCH_DATA_DIR: dataDirWithSecretsOf(web), PAYBENCH_S3_DOWNLOADS: 'signed-url' }, { demoMarketRecords: 500 });
    const redirected = await fetch(`${web2.url}/api/downloads/${job.downloadId}`, { headers: bearer(admin), redirect: 'manual' });
    expect(redirected.status).toBe(302);
    const location = redirected.headers.get('location') ?? '';
    expect(location.startsWith(`${store.endpoint}/${store.bucket}/`)).toBe(true);
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe(streamed.body);
    expect(fetched.headers.get('content-disposition')).toMatch(/filename="users-\d{4}-\d{2}-\d{2}\.csv"/);
    // Another company's admin gets no address at all.
    const stranger = await createTestCompany(db, 'Other Roles Co');
    expect((await fetch(`${web2.url}/api/downloads/${job.downloadId}`, { headers: bearer(stranger.users.admin!), redirect: 'manual' })).status).toBe(404);
  });

  it('readiness says draining from the moment the node is told to stop until it exits; liveness still answers', async () => {
    const node = worker!;
    const closing = node.close();
    worker = undefined;
    await until(async () => (await request<ErrorBody>('/api/ready', { base: node.url })).status === 503, 1_000);
    const draining = await request<ErrorBody>('/api/ready', { base: node.url });
    expect(draining.status).toBe(503);
    expect(draining.body.code).toBe('draining');
    expect(draining.headers.get('retry-after')).toBe('2');
    expect((await request('/api/health', { base: node.url })).status).toBe(200);
    await closing;
    await expect(fetch(`${node.url}/api/ready`)).rejects.toThrow();
  });
});

/** A worker node as a process of its own (so it can be killed), started from `nodes/workerNode.ts`; resolves once it answers. */
async function startWorkerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'nodes', 'workerNode.ts')], {
    cwd: path.resolve(import.meta.dirname, '..', '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await until(() => {
    if (child.exitCode !== null) throw new Error(`the worker process exited ${child.exitCode}: ${out}`);
    return /node ready at (\S+)/.test(out);
  }, 90_000, 50);
  return { child, url: /node ready at (\S+)/.exec(out)?.[1] ?? '' };
}

describe('a worker killed mid-job', () => {
  // The lease, shortened for the test: a running job's worker renews it every 200 ms; 3 s without a
  // renewal and another worker takes the job (the defaults are 5 s and 30 s).
  const LEASE = { PAYBENCH_JOB_HEARTBEAT_MS: '200', PAYBENCH_JOB_STALE_MS: '3000' };
  const STALE_MS = 3_000;
  type JobRow = { status: string; attempts: number; progress: number; locked_by: string | null; heartbeat_at: Date | null; result: string | null; message: string | null };

  it('is retried by another worker once its lease runs out: the job ends once, with one file and one notice', async () => {
    const admin = company.users.admin!;
    const first = await startWorkerProcess({ ...shared, ...LEASE, PAYBENCH_DATA_DIR: dataDirWithSecretsOf(web), PAYBENCH_DEMO_MARKET_RECORDS: '500' });
    killable = first.child;
    const pid = first.child.pid;
    expect((await request<{ data: components['schemas']['Readiness'] }>('/api/ready', { base: first.url })).body.data).toEqual({ status: 'ready', roles: ['worker'] });

    // 30 steps of 100 ms: about 3 s of work, its file written only after the last step.
    const job = await queueJobIn(db, slowExport, { companyId: company.id, ownerUserId: admin.id, input: { steps: 30, stepMs: 100 } });
    const row = () => db('jobs').where({ id: job.id }).first<JobRow>();
    // The worker process has it and is part-way through (worker ids are host:pid:random).
    await until(async () => {
      const now = await row();
      return now?.status === 'running' && now.progress > 0 && (now.locked_by ?? '').includes(`:${pid}:`);
    }, 30_000);

    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    killable = undefined;
    const abandoned = await row();
    // Killed mid-job: still "running" under the dead worker's lease, 1 attempt, not finished, no file.
    expect(abandoned).toMatchObject({ status: 'running', attempts: 1, result: null });
    expect(abandoned?.locked_by).toContain(`:${pid}:`);
    expect(abandoned?.progress).toBeGreaterThan(0);
    expect(abandoned?.progress).toBeLessThan(99);
    expect(await db('downloads').where({ job_id: job.id }).select('id')).toEqual([]);
    const lastHeartbeat = new Date(abandoned?.heartbeat_at ?? 0).getTime();

    // Another worker, in this process.
    worker2 = await startTestServer({ ...shared, ...LEASE, PAYBENCH_DATA_DIR: dataDirWithSecretsOf(web) }, { demoMarketRecords: 500 });
    worker2.deps.jobs.registerKind(slowExport, worker2.deps);
    const ended = await jobEnded(admin, job.id, 60_000, web.url);
    expect(ended.status).toBe('succeeded');

    const final = await row();
    // attempts: 1 (the killed one, counted when claimed) + 1 (the retry) = 2; the lease released.
    expect(final).toMatchObject({ status: 'succeeded', attempts: 2, progress: 100, locked_by: null, message: 'Done.' });
    const result = JSON.parse(final?.result ?? '{}') as SlowExportResult;
    expect(result.attempt).toBe(2);
    expect(result.pid).toBe(process.pid);
    // The retry began only after the dead worker's lease ran out: its last renewal + 3 s at the earliest.
    expect(new Date(result.startedAt).getTime()).toBeGreaterThanOrEqual(lastHeartbeat + STALE_MS);

    // Once in effect: one file (made by the retry), one "job ended" notice.
    const files = await db('downloads').where({ job_id: job.id }).select<{ id: string }[]>('id');
    expect(files.map((file) => file.id)).toEqual([result.downloadId]);
    expect(ended.downloadId).toBe(result.downloadId);
    const fetched = await request<string>(`/api/downloads/${result.downloadId}`, { base: web.url, headers: bearer(admin) });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toBe(`made by attempt 2 of job ${job.id}\n`);
    const notices = await db('domain_events').where({ name: 'job.ended', subject_id: job.id }).select<{ payload: string }[]>('payload');
    expect(notices.map((notice) => JSON.parse(notice.payload) as unknown)).toEqual([{ type: 'testSlowExport', title: 'Slow export', status: 'succeeded', message: 'Done.' }]);
  }, 180_000);
});
