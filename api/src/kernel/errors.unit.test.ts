import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { toHttpError } from './errors.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'paybench-errors-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const open = (file: string): sqlite3.Database => new sqlite3.Database(file);
const run = (db: sqlite3.Database, sql: string): Promise<void> => new Promise((resolve, reject) => db.run(sql, (error) => (error ? reject(error) : resolve())));

describe('database errors in the error shape', () => {
  it('answers a write that waited out SQLite’s busy timeout with 503 busy and Retry-After, not 500', async () => {
    const file = path.join(folder, 'busy.sqlite');
    const holder = open(file);
    const waiter = open(file);
    await run(holder, 'PRAGMA journal_mode = WAL');
    await run(holder, 'create table t (x integer)');
    await run(waiter, 'PRAGMA busy_timeout = 0');
    await run(holder, 'begin immediate');
    const thrown = await run(waiter, 'insert into t values (1)').then(
      () => null,
      (error: unknown) => error,
    );
    await run(holder, 'rollback');
    // Positive control: with the lock released, the same write goes through.
    await expect(run(waiter, 'insert into t values (1)')).resolves.toBeUndefined();
    holder.close();
    waiter.close();

    expect(thrown).toMatchObject({ code: 'SQLITE_BUSY' });
    const answered = toHttpError(thrown);
    expect(answered.status).toBe(503);
    expect(answered.code).toBe('busy');
    expect(answered.headers).toEqual({ 'Retry-After': '5' });
  });
});
