import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, isolatedConfig } from '../../test/env.js';
import { openDatabase } from '../db/database.js';
import { inTurnWithOtherNodes } from '../db/startLock.js';
import { ensureAttachmentsTable } from './server.js';

// Every web process of every node creates the adapter's table as it starts. Two doing so at the
// same moment is made certain here: one node is part-way through (its CREATE not yet committed)
// when the other starts.
const config = isolatedConfig({ PAYBENCH_SEED_DEMO: 'false' });
let db: Knex;
const CREATE = 'CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)';

beforeAll(async () => {
  db = await openDatabase(config);
});
afterAll(async () => {
  await db?.destroy();
  await dropSchema(config);
});

async function dropTable(): Promise<void> {
  await db.raw('DROP TABLE IF EXISTS socket_io_attachments');
}

async function backendPid(trx: Knex.Transaction): Promise<number> {
  const { rows } = await trx.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid');
  return rows[0]?.pid ?? 0;
}

/** Resolves once another connection waits on a lock the first node's connection holds. */
async function someoneWaitsOn(pid: number): Promise<void> {
  await expect
    .poll(async () => (await db.raw<{ rows: unknown[] }>('select 1 from pg_stat_activity where ? = any(pg_blocking_pids(pid))', [pid])).rows.length)
    .toBeGreaterThan(0);
}

describe('the realtime attachments table, created by nodes starting together', () => {
  it('control: without taking turns, the second node fails on the catalogue when the first commits', async () => {
    await dropTable();
    const first = await db.transaction();
    await first.raw(CREATE);
    const firstPid = await backendPid(first);
    const second = db.raw(CREATE).then(
      () => 'created',
      (error: Error) => error.message,
    );
    await someoneWaitsOn(firstPid);
    await first.commit();
    expect(await second).toMatch(/duplicate key value violates unique constraint/);
  });

  it('taking turns, the second node waits for the first and finds the table there', async () => {
    await dropTable();
    let finish = (): void => undefined;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let started = (_pid: number): void => undefined;
    const firstPid = new Promise<number>((resolve) => (started = resolve));
    const first = inTurnWithOtherNodes(db, `realtime ${config.databaseSchema}`, async (trx) => {
      await trx.raw(CREATE);
      started(await backendPid(trx));
      await held;
    });
    // The first holds the lock and has created the table, uncommitted, before the second starts.
    const pid = await firstPid;
    const second = ensureAttachmentsTable(db, config.databaseSchema).then(() => 'created');
    await someoneWaitsOn(pid);
    finish();
    await first;
    expect(await second).toBe('created');
    const { rows } = await db.raw<{ rows: { count: string }[] }>(`select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and c.relname = 'socket_io_attachments'`, [config.databaseSchema ?? 'public']);
    expect(Number(rows[0]?.count)).toBe(1);
  });
});
