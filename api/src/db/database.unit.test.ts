import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';

/** Lets the other callers of this test run as far as they can before the next step. */
async function othersRun(): Promise<void> {
  for (let turn = 0; turn < 50; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('write transactions on SQLite', () => {
  let dir: string;
  let db: Knex;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'paybench-database-'));
    db = await openDatabase(loadConfig({ PAYBENCH_DATA_DIR: dir }));
    await db.raw('create table entries (n integer)');
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db('entries').delete();
  });

  it('lets a transaction read on another connection while more writers wait than the pool has connections', async () => {
    const holder = db.transaction(async (trx) => {
      await trx('entries').insert({ n: 0 });
      await othersRun();
      // Not through trx: the read needs a connection of its own while the others wait for the lock.
      return (await db('entries').pluck('n')).length;
    });
    const others = [1, 2, 3, 4].map((n) => db.transaction((trx) => trx('entries').insert({ n })));
    // Left to SQLite's busy polling, the waiters take every pooled connection and this read stalls
    // until their 30-second timeout runs out.
    expect(await holder).toBe(0);
    await Promise.all(others);
    expect(await db('entries').orderBy('n').pluck('n')).toEqual([0, 1, 2, 3, 4]);
  });

  it('commits concurrent writers in the order they arrived, all of them', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        db.transaction(async (trx) => {
          await othersRun();
          await trx('entries').insert({ n });
        }),
      ),
    );
    // In the order stored (rowid), not sorted.
    expect(await db('entries').pluck('n')).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });
});
