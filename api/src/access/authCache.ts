import type { Knex } from 'knex';
import sqlite3 from 'sqlite3';
import type { Caller } from './caller.js';

/**
 * What authentication keeps between requests, per database.
 *
 * SQLite (one file, every writer a connection to it): callers are kept, and one is reused only while
 * `PRAGMA data_version`, read after the request arrived on a read-only connection of its own, still
 * says what it said when the caller was loaded. It changes with every commit of any other
 * connection — the server's pool and any other process on the file — so a revoked token, a removed
 * user or a changed role or flag is seen by the very next request, and a cached request reads
 * nothing through the pool.
 *
 * Postgres (any number of nodes, no such counter): nothing is kept; every request reads the token,
 * the user, their roles and flags again in one query, so whatever another node committed holds at once.
 */

/** At most this many callers are kept; beyond it the oldest go first. */
const MAX_ENTRIES = 10_000;
/** `last_used_at` of an API token is written at most this often per node: a write on every request costs more than the request. */
export const TOUCH_EVERY_MS = 60_000;

/** `PRAGMA data_version` on a read-only connection, shared by the requests that wait for it. */
class DataVersion {
  private readonly connection: sqlite3.Database;
  private running: Promise<number | undefined> | undefined;
  private queued: Promise<number | undefined> | undefined;

  constructor(filename: string) {
    // Errors surface on the first reading (undefined: nothing is reused).
    this.connection = new sqlite3.Database(filename, sqlite3.OPEN_READONLY, () => undefined);
  }

  /** A reading taken after this call: one already under way may predate a commit the caller has seen. */
  read(): Promise<number | undefined> {
    if (!this.running) {
      this.running = this.query().finally(() => (this.running = undefined));
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.read();
    });
    return this.queued;
  }

  close(): void {
    this.connection.close(() => undefined);
  }

  private query(): Promise<number | undefined> {
    return new Promise((resolve) => {
      this.connection.get<{ data_version: number }>('PRAGMA data_version', (error, row) => resolve(error || !row ? undefined : Number(row.data_version)));
    });
  }
}

/** Loaded values by key, each valid for the data version it was loaded under. */
export class CallerCache<T> {
  private readonly entries = new Map<string, { version: number; value: Promise<T> }>();
  private version: number | undefined;

  constructor(private readonly dataVersion: DataVersion | undefined) {}

  /** The value for `key`: reused while nothing was committed since it was loaded, else `load()`ed. */
  async get(key: string, load: () => Promise<T>): Promise<T> {
    const version = await this.dataVersion?.read();
    if (version === undefined) return load();
    if (version !== this.version) {
      // Everything loaded before this commit is stale: drop it rather than keep it until evicted.
      this.entries.clear();
      this.version = version;
    }
    const hit = this.entries.get(key);
    if (hit?.version === version) return hit.value;
    // Loaded after `version` was read, so at least that fresh (a commit meanwhile changes the
    // version). Requests arriving together share the load; a refusal is not kept.
    const value = load();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { version, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

interface PoolEvents {
  on(event: 'poolDestroyRequest', listener: () => void): void;
}

function sqliteFilename(db: Knex): string | undefined {
  const config = db.client.config as Knex.Config;
  if (config.client !== 'sqlite3' || typeof config.connection !== 'object' || config.connection === null) return undefined;
  const filename = (config.connection as { filename?: unknown }).filename;
  // An in-memory database has no other connection to read the version on.
  return typeof filename === 'string' && filename !== ':memory:' && !filename.startsWith('file::memory:') ? filename : undefined;
}

/** An API token that was good when loaded; its expiry is the clock's business, checked on every use. */
export interface TokenEntry {
  caller: Caller;
  tokenId: string;
  expiresAt: number | null;
}

/** The user behind sign-in tokens; `lastLogoutAt` (seconds) ends the tokens issued up to it. */
export interface SignInEntry {
  caller: Caller;
  lastLogoutAt: number | null;
}

export interface AuthState {
  tokens: CallerCache<TokenEntry>;
  signIns: CallerCache<SignInEntry>;
  /** True when `last_used_at` of this token is due to be written (and notes that it is being). */
  touchDue(tokenId: string, now: number): boolean;
}

function createAuthState(db: Knex): AuthState {
  const filename = sqliteFilename(db);
  const dataVersion = filename ? new DataVersion(filename) : undefined;
  if (dataVersion) (db.client.pool as Partial<PoolEvents> | undefined)?.on?.('poolDestroyRequest', () => dataVersion.close());
  const touched = new Map<string, number>();
  return {
    tokens: new CallerCache<TokenEntry>(dataVersion),
    signIns: new CallerCache<SignInEntry>(dataVersion),
    touchDue(tokenId, now) {
      const last = touched.get(tokenId);
      if (last !== undefined && now - last < TOUCH_EVERY_MS) return false;
      if (touched.size >= MAX_ENTRIES) touched.clear();
      touched.set(tokenId, now);
      return true;
    },
  };
}

const states = new WeakMap<Knex, AuthState>();

/** The state of `db` (the server's own knex, never a transaction). */
export function authStateOf(db: Knex): AuthState {
  let state = states.get(db);
  if (!state) {
    state = createAuthState(db);
    states.set(db, state);
  }
  return state;
}
