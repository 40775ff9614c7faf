import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { TOUCH_EVERY_MS, type TokenEntry, authStateOf } from './authCache.js';
import type { Caller } from './caller.js';

const entry = (tokenId: string): TokenEntry => ({ caller: { userId: tokenId } as Caller, tokenId, expiresAt: null });

describe('what authentication keeps on SQLite', () => {
  let dir: string;
  let db: Knex;
  let other: Knex;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'paybench-auth-cache-'));
    const config = loadConfig({ PAYBENCH_DATA_DIR: dir });
    db = await openDatabase(config);
    other = await openDatabase(config);
    await db.raw('create table notes (text varchar(20))');
  });
  afterAll(async () => {
    await db.destroy();
    await other.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reuses a caller until anything is committed, by the server itself or by another connection', async () => {
    const { tokens } = authStateOf(db);
    let loads = 0;
    const load = async (): Promise<TokenEntry> => entry(`load-${(loads += 1)}`);
    expect((await tokens.get('a', load)).tokenId).toBe('load-1');
    expect((await tokens.get('a', load)).tokenId).toBe('load-1');
    await db('notes').insert({ text: 'ours' });
    expect((await tokens.get('a', load)).tokenId).toBe('load-2');
    expect((await tokens.get('a', load)).tokenId).toBe('load-2');
    await other('notes').insert({ text: 'theirs' });
    expect((await tokens.get('a', load)).tokenId).toBe('load-3');
  });

  it('keeps nothing that failed to load', async () => {
    const { tokens } = authStateOf(db);
    await expect(tokens.get('refused', async () => Promise.reject(new Error('revoked')))).rejects.toThrow('revoked');
    expect((await tokens.get('refused', async () => entry('now good'))).tokenId).toBe('now good');
  });

  it('lets requests arriving together share one reading of the version', async () => {
    const { signIns } = authStateOf(db);
    let loads = 0;
    const load = async () => ({ caller: {} as Caller, lastLogoutAt: (loads += 1) });
    await signIns.get('u', load);
    const many = await Promise.all(Array.from({ length: 50 }, () => signIns.get('u', load)));
    expect(new Set(many.map((found) => found.lastLogoutAt))).toEqual(new Set([1]));
    expect(loads).toBe(1);
  });

  it('notes the use of a token at most once a minute', () => {
    const state = authStateOf(db);
    expect(state.touchDue('t', 1_000)).toBe(true);
    expect(state.touchDue('t', 1_000 + TOUCH_EVERY_MS - 1)).toBe(false);
    expect(state.touchDue('t', 1_000 + TOUCH_EVERY_MS)).toBe(true);
  });
});

describe('what authentication keeps on Postgres', () => {
  it('is nothing: every request loads its caller again', async () => {
    const db = knexFactory({ client: 'pg', connection: 'postgres://nobody@127.0.0.1:1/none' });
    try {
      let loads = 0;
      const { tokens } = authStateOf(db);
      for (let i = 0; i < 3; i += 1) await tokens.get('a', async () => entry(`load-${(loads += 1)}`));
      expect(loads).toBe(3);
    } finally {
      await db.destroy();
    }
  });
});
