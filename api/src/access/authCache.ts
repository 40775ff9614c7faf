import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { authChannel, dataChannel, schemaOf } from '../db/authChanges.js';
import type { Caller } from './caller.js';

/**
 * What authentication keeps between requests, per database: callers by credential, each reused
 * only while a reading taken *after the request arrived* says nothing authentication reads has
 * changed since the caller was loaded. So a revoked token, a removed user or a changed role or flag
 * is refused (or applied) from the first request that arrives after the change is committed, on
 * every node, and a known caller costs no query through the pool.
 *
 * SQLite (one file, every writer a connection to it): the reading is `PRAGMA data_version` on a
 * read-only connection of its own. It changes with every commit of any other connection — the
 * server's pool and any other process on the file.
 *
 * Postgres (any number of nodes): every commit that changes a token, a user, their roles, a role or
 * a company's flags notifies the install's channel (`db/authChanges.ts`); each node listens on a
 * connection of its own and counts those notifications. The reading is a barrier: the node notifies
 * a channel of its own on that connection and waits for its own notification to come back. Postgres
 * delivers notifications in commit order, so by then every change committed before the barrier —
 * on any node, by any connection — has been received and counted. The request's wait is one round
 * trip, shared by every request that arrived before the barrier was sent. While the listening
 * connection is down (or not yet up) nothing is kept: every request reads the database.
 */

/** Where a cache reads its version: undefined when it cannot tell, and then nothing is reused. */
export interface VersionSource {
  /** A reading begun after this call, or after `since` (a `performance.now()` moment) when given. */
  read(since?: number): Promise<number | undefined>;
  close(): void;
}

/**
 * When the request being answered arrived (`performance.now()`), set by the router around a handler:
 * a reading begun after it sees every commit the caller could have seen, so the router begins one as
 * the request arrives and the handler's kept reads take it, rather than waiting for one of their own
 * while holding the request's transaction (a pooled connection, on Postgres).
 */
export const requestArrival = new AsyncLocalStorage<number>();

/** One reading under way at a time; a request arriving meanwhile waits for the next, which starts after it arrived. */
class Readings {
  private running: Promise<number | undefined> | undefined;
  private queued: Promise<number | undefined> | undefined;
  /** The last reading begun, and when. */
  private latest: { at: number; value: Promise<number | undefined> } | undefined;

  constructor(private readonly take: () => Promise<number | undefined>) {}

  /**
   * A reading taken after this call (one already under way may predate a commit the caller has
   * seen), or the last one begun at or after `since`, under way or done.
   */
  read(since?: number): Promise<number | undefined> {
    if (since !== undefined && this.latest && this.latest.at >= since) return this.latest.value;
    if (!this.running) {
      const at = performance.now();
      this.running = this.take().finally(() => (this.running = undefined));
      this.latest = { at, value: this.running };
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.read();
    });
    return this.queued;
  }
}

/** At most this many callers are kept; beyond it the oldest go first. */
const MAX_ENTRIES = 10_000;
/** `last_used_at` of an API token is written at most this often per node: a write on every request costs more than the request. */
export const TOUCH_EVERY_MS = 60_000;

/** `PRAGMA data_version` on a read-only connection, shared by the requests that wait for it. */
class DataVersion implements VersionSource {
  private readonly connection: sqlite3.Database;
  private readonly readings = new Readings(() => this.query());

  constructor(filename: string) {
    // Errors surface on the first reading (undefined: nothing is reused).
    this.connection = new sqlite3.Database(filename, sqlite3.OPEN_READONLY, () => undefined);
  }

  read(since?: number): Promise<number | undefined> {
    return this.readings.read(since);
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

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_MS = 1_000;
/** How long a committed barrier may take to come back before the requests waiting for it read the database. */
const BARRIER_TIMEOUT_MS = 2_000;

/** Postgres: the count of change notifications received, read behind a barrier of this node's own. */
class ChangeNotifications implements VersionSource {
  private client: pg.Client | undefined;
  /** Counts changes, and every (re)connection: what was kept before a gap in listening is never reused. */
  private version = 0;
  private listening = false;
  private closed = false;
  private barriers = 0;
  private readonly waiting = new Map<string, (version: number | undefined) => void>();
  private readonly barrierChannel: string;
  private readonly readings = new Readings(() => this.barrier());

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly channel: string,
  ) {
    // Unique to this node, so that no other node hears its barriers.
    this.barrierChannel = `${channel}_${randomBytes(8).toString('hex')}`;
    this.connect();
  }

  read(since?: number): Promise<number | undefined> {
    return this.listening ? this.readings.read(since) : Promise.resolve(undefined);
  }

  close(): void {
    this.closed = true;
    this.drop();
  }

  private connect(): void {
    if (this.closed) return;
    const client = new pg.Client(this.connection);
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === this.channel) {
        this.version += 1;
        return;
      }
      this.waiting.get(message.payload ?? '')?.(this.version);
    });
    const lost = (): void => {
      if (this.client !== client) return;
      this.drop();
      if (!this.closed) setTimeout(() => this.connect(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client
      .connect()
      // A barrier carries no data: its commit need not wait for the disk.
      .then(() => client.query(`set synchronous_commit = off; listen "${this.channel}"; listen "${this.barrierChannel}"`))
      .then(() => {
        if (this.client !== client) return;
        this.version += 1;
        this.listening = true;
      })
      .catch(lost);
  }

  /** Stops listening: nothing is reused until listening again, and the requests waiting read the database. */
  private drop(): void {
    this.listening = false;
    this.version += 1;
    for (const settle of [...this.waiting.values()]) settle(undefined);
    const client = this.client;
    this.client = undefined;
    client?.removeAllListeners('notification');
    client?.on('error', () => undefined);
    void client?.end().catch(() => undefined);
  }

  private barrier(): Promise<number | undefined> {
    const client = this.client;
    if (!client || !this.listening) return Promise.resolve(undefined);
    this.barriers += 1;
    const payload = String(this.barriers);
    return new Promise((resolve) => {
      const settle = (version: number | undefined): void => {
        this.waiting.delete(payload);
        resolve(version);
      };
      this.waiting.set(payload, settle);
      client.query('select pg_notify($1, $2)', [this.barrierChannel, payload]).then(
        // Committed, so it is on its way; should it never come, the requests read the database.
        () => void setTimeout(() => settle(undefined), BARRIER_TIMEOUT_MS).unref(),
        () => settle(undefined),
      );
    });
  }
}

/** Loaded values by key, each valid for the data version it was loaded under. */
export class VersionedCache<T> {
  private readonly entries = new Map<string, { version: number; value: Promise<T> }>();
  private version: number | undefined;

  constructor(
    private readonly dataVersion: VersionSource | undefined,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  /** The value kept for `key` if nothing was committed since it was loaded; undefined otherwise (nothing is loaded). */
  async peek(key: string): Promise<T | undefined> {
    const version = await this.dataVersion?.read(requestArrival.getStore());
    const hit = version === undefined || version !== this.version ? undefined : this.entries.get(key);
    // One still loading may yet be refused: then the caller answers as if nothing were kept.
    return hit && hit.version === version ? hit.value.catch(() => undefined) : undefined;
  }

  /** The value for `key`: reused while nothing was committed since it was loaded, else `load()`ed. */
  async get(key: string, load: () => Promise<T>): Promise<T> {
    const version = await this.dataVersion?.read(requestArrival.getStore());
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
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
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
  tokens: VersionedCache<TokenEntry>;
  signIns: VersionedCache<SignInEntry>;
  /** True when `last_used_at` of this token is due to be written (and notes that it is being). */
  touchDue(tokenId: string, now: number): boolean;
}

function postgresConnection(db: Knex): pg.ClientConfig | undefined {
  const config = db.client.config as Knex.Config;
  if (config.client !== 'pg') return undefined;
  const connection = config.connection;
  if (typeof connection === 'string') return { connectionString: connection, application_name: 'paybench change notifications' };
  // A connection given as a function (or none) cannot be opened beside the pool: nothing is kept.
  return typeof connection === 'object' && connection !== null ? (connection as pg.ClientConfig) : undefined;
}

const sources = new WeakMap<Knex, Map<string, VersionSource | undefined>>();

/**
 * Postgres: the notifications of `channel`; SQLite: any commit, one reading that every cache of the
 * database shares (authentication's and the kept pages'). Made once per database, closed with the pool.
 */
function versionSourceOf(db: Knex, channel: (schema: string) => string): VersionSource | undefined {
  // A transaction is a new object per request: a source made from it would listen on a connection of
  // its own that nothing closes. Only the server's own knex has a data version.
  if ((db as Knex & { isTransaction?: boolean }).isTransaction) return undefined;
  const filename = sqliteFilename(db);
  const key = filename ? 'any commit' : channel(schemaOf(db));
  let made = sources.get(db);
  if (!made) {
    made = new Map();
    sources.set(db, made);
  }
  if (made.has(key)) return made.get(key);
  const connection = filename ? undefined : postgresConnection(db);
  const source = filename ? new DataVersion(filename) : connection ? new ChangeNotifications(connection, key) : undefined;
  if (source) (db.client.pool as Partial<PoolEvents> | undefined)?.on?.('poolDestroyRequest', () => source.close());
  made.set(key, source);
  return source;
}

/**
 * What answers kept for reading (team table pages) are checked against: a reading that changes with
 * every commit that writes data (on Postgres, the data channel of `db/authChanges.ts`; on SQLite,
 * any commit). `db` is the server's own knex, never a transaction.
 */
export function dataVersionOf(db: Knex): VersionSource | undefined {
  return versionSourceOf(db, dataChannel);
}

function createAuthState(db: Knex): AuthState {
  const dataVersion = versionSourceOf(db, authChannel);
  const touched = new Map<string, number>();
  return {
    tokens: new VersionedCache<TokenEntry>(dataVersion),
    signIns: new VersionedCache<SignInEntry>(dataVersion),
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
