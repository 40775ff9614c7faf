import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createTestCompany, testDb } from '../../test/factories.js';
import { JobQueue } from './queue.js';
import { removeExpiredDownloads, saveDownload } from '../downloads/service.js';
import { DirectoryStorage } from '../downloads/storage.js';
import { type JobRow, claimNext, requestCancel } from './store.js';
import { TransientJobError } from './worker.js';
import { until } from '../../test/waiting.js';

const log = pino({ level: 'silent' });

const statusOf = async (db: Knex, id: string): Promise<JobRow | undefined> => db<JobRow>('jobs').where({ id }).first();

describe('durable background jobs', () => {
  let db: Knex;
  let owner: { companyId: string; ownerUserId: string };
  const unique = () => `test-${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    db = await testDb();
    const company = await createTestCompany(db);
    owner = { companyId: company.id, ownerUserId: company.users.admin?.id ?? '' };
  });

  it('a job interrupted by a restart is resumed and finishes; one out of attempts fails with the reason', async () => {
    const type = unique();
    const first = new JobQueue(db, log, undefined, { pollMs: 20, staleMs: 200 });
    const resumed = await first.enqueue({ ...owner, type, input: {} });
    const exhausted = await first.enqueue({ ...owner, type, input: {}, maxAttempts: 1 });
    // A worker takes both and dies without finishing: its heartbeat goes stale.
    expect((await claimNext(db, 'crashed-node', [type]))?.id).toBe(resumed.id);
    expect((await claimNext(db, 'crashed-node', [type]))?.id).toBe(exhausted.id);
    await db('jobs').whereIn('id', [resumed.id, exhausted.id]).update({ heartbeat_at: new Date(Date.now() - 60_000).toISOString() });
    expect((await statusOf(db, resumed.id))?.status).toBe('running');

    const restarted = new JobQueue(db, log, undefined, { pollMs: 20, staleMs: 200, singleNode: false }).register(type, async ({ progress }) => {
      await progress(50, 'half way');
      return { ok: true };
    });
    await restarted.worker.start();
    try {
      await until(async () => (await statusOf(db, resumed.id))?.status === 'succeeded');
      const done = await statusOf(db, resumed.id);
      expect(done).toMatchObject({ status: 'succeeded', progress: 100, attempts: 2 });
      const failed = await statusOf(db, exhausted.id);
      expect(failed?.status).toBe('failed');
      expect(failed?.message).toMatch(/server stopped while this job ran/);
    } finally {
      await restarted.worker.stop();
    }
  });

  it('a worker told to stop finishes a short job, and hands a long one back to the queue with its attempt not counted', async () => {
    const type = unique();
    let release: () => void = () => undefined;
    const queue = new JobQueue(db, log, undefined, { pollMs: 20 }).register(type, async ({ job }) => {
      if ((job.input as { long: boolean }).long) await new Promise<void>((resolve) => (release = resolve));
      return null;
    });
    await queue.worker.start();
    const short = await queue.enqueue({ ...owner, type, input: { long: false } });
    await until(async () => (await statusOf(db, short.id))?.status === 'succeeded');
    const long = await queue.enqueue({ ...owner, type, input: { long: true } });
    await until(async () => (await statusOf(db, long.id))?.status === 'running');
    const stopped = await queue.worker.stop({ releaseAfterMs: 100 });
    release();
    expect(stopped.released).toBe(long.id);
    // Claimed once (attempts 1), handed back: 1 - 1 = 0 attempts used, queued for any node.
    expect(await statusOf(db, long.id)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });
    await db('jobs').where({ id: long.id }).delete();
  });

  it('many jobs and two workers: every job runs exactly once', async () => {
    const type = unique();
    const runs = new Map<string, number>();
    const handler = async ({ job }: { job: { id: string } }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2));
      return null;
    };
    // Two nodes: separate connection pools to the same database.
    const otherDb = await testDb({ ...inject('serverEnv') , PAYBENCH_SEPARATE_POOL: 'yes' });
    // Two nodes sharing one database: neither may treat the other's running jobs as its own past life.
    const a = new JobQueue(db, log, undefined, { pollMs: 10 }).register(type, handler);
    const b = new JobQueue(otherDb, log, undefined, { pollMs: 10 }).register(type, handler);
    const ids: string[] = [];
    for (let i = 0; i < 120; i += 1) ids.push((await a.enqueue({ ...owner, type, input: { i } })).id);
    await Promise.all([a.worker.start(), b.worker.start()]);
    try {
      await until(async () => Number((await db('jobs').where({ type, status: 'succeeded' }).count({ n: '*' }).first())?.n) === ids.length, 60_000);
    } finally {
      await Promise.all([a.worker.stop(), b.worker.stop()]);
      await otherDb.destroy();
    }
    expect(runs.size).toBe(ids.length);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    const byWorker = await db('jobs').where({ type }).select('attempts');
    expect(byWorker.every((row: { attempts: number }) => Number(row.attempts) === 1)).toBe(true);
  });

  it('retries a transient failure with backoff, then succeeds', async () => {
    const type = unique();
    let calls = 0;
    const queue = new JobQueue(db, log, undefined, { pollMs: 20, retryBaseMs: 100 }).register(type, async () => {
      calls += 1;
      if (calls === 1) throw new TransientJobError('database busy');
      return { calls };
    });
    const job = await queue.enqueue({ ...owner, type, input: {} });
    await queue.worker.start();
    try {
      await until(async () => (await statusOf(db, job.id))?.status === 'succeeded');
    } finally {
      await queue.worker.stop();
    }
    expect(calls).toBe(2);
    expect(JSON.parse((await statusOf(db, job.id))?.result ?? '{}')).toEqual({ calls: 2 });
  });

  it('a permanent failure fails at once with its message', async () => {
    const type = unique();
    const queue = new JobQueue(db, log, undefined, { pollMs: 20 }).register(type, async () => {
      throw new Error('The file has no header row');
    });
    const job = await queue.enqueue({ ...owner, type, input: {} });
    await queue.worker.start();
    try {
      await until(async () => (await statusOf(db, job.id))?.status === 'failed');
    } finally {
      await queue.worker.stop();
    }
    expect(await statusOf(db, job.id)).toMatchObject({ status: 'failed', message: 'The file has no header row', attempts: 1 });
  });
});


describe('cancelling and cleaning up', () => {
  it('cancels a queued job at once and a running one at its next progress report', async () => {
    const db = await testDb();
    const company = await createTestCompany(db);
    const owner = { companyId: company.id, ownerUserId: company.users.admin?.id ?? '' };
    const type = `cancel-${Math.random().toString(36).slice(2, 8)}`;
    let reachedStep = 0;
    const queue = new JobQueue(db, log, undefined, { pollMs: 20 }).register(type, async ({ progress }) => {
      for (let step = 1; step <= 200; step += 1) {
        reachedStep = step;
        await progress(step / 2, `step ${step}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return null;
    });
    const queued = await queue.enqueue({ ...owner, type, input: {} });
    await requestCancel(db, { companyId: company.id }, queued.id);
    expect((await statusOf(db, queued.id))?.status).toBe('cancelled');

    const running = await queue.enqueue({ ...owner, type, input: {} });
    await queue.worker.start();
    try {
      await until(async () => reachedStep >= 3);
      await requestCancel(db, { companyId: company.id }, running.id);
      await until(async () => (await statusOf(db, running.id))?.status === 'cancelled');
    } finally {
      await queue.worker.stop();
    }
    expect(reachedStep).toBeLessThan(200);
    expect((await statusOf(db, running.id))?.message).toBe('Cancelled.');
  });

  it('deletes expired downloads and their files', async () => {
    const db = await testDb();
    const company = await createTestCompany(db);
    const root = mkdtempSync(path.join(os.tmpdir(), 'paybench-downloads-'));
    const storage = new DirectoryStorage(root);
    const row = await saveDownload(db, storage, {
      companyId: company.id,
      ownerUserId: company.users.admin?.id ?? '',
      jobId: null,
      kind: 'test',
      filename: 'old.csv',
      contentType: 'text/csv',
      permission: null,
      content: Readable.from(['a,b\n']),
    });
    expect(existsSync(path.join(root, row.storage_key))).toBe(true);
    await db('downloads').where({ id: row.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(await removeExpiredDownloads(db, storage)).toBeGreaterThanOrEqual(1);
    expect(existsSync(path.join(root, row.storage_key))).toBe(false);
    expect(await db('downloads').where({ id: row.id }).first()).toBeUndefined();
  });
});
