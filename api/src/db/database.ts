import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Config } from '../config.js';
import { childRole } from '../cluster/messages.js';
import { takeClusterTurn } from '../cluster/writeLock.js';
import { inTurnWithOtherNodes } from './startLock.js';

// Postgres returns BIGINT and NUMERIC as strings; our amounts fit in a double's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value: string) => Number(value));

interface SqliteConnection {
  run(sql: string, callback: (error: Error | null) => void): void;
}

export function sqliteFile(config: Config): string {
  if (config.databaseUrl?.startsWith('sqlite:')) return config.databaseUrl.slice('sqlite:'.length);
  return path.join(config.dataDir, 'paybench.sqlite');
}

/** How long a writer waits for SQLite's one write lock before it is told the database is busy (503). */
const BUSY_TIMEOUT_MS = 30_000;

/**
 * The write transactions of one process take turns in arrival order, waiting without a connection.
 * Left to SQLite, each waiter would hold a pool connection (and a libuv thread) while it polls for
 * the lock; with the pool full of waiters, a holder that reads on another connection stalls until
 * the waiters time out, and a steady stream of writers can starve one of them past the timeout.
 * Across the web processes of one node the primary keeps the queue (same reasons).
 */
class WriteTurns {
  private tail: Promise<void> = Promise.resolve();

  /** In a web process of a cluster the turns are the whole cluster's (cluster/writeLock.ts). */
  constructor(private readonly acrossProcesses: boolean) {}

  async take<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.tail = previous.then(() => mine);
    try {
      if (!(await finishesWithin(previous, BUSY_TIMEOUT_MS))) throw busy();
      if (!this.acrossProcesses) return await work();
      // A web process of a cluster then queues at the primary, behind the other processes' writers.
      const turn = takeClusterTurn(BUSY_TIMEOUT_MS);
      try {
        if (!(await turn.granted)) throw busy();
        return await work();
      } finally {
        turn.release();
      }
    } finally {
      done();
    }
  }
}

function finishesWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
}

/** What SQLite itself reports when its busy timeout runs out; the API answers it with 503 busy. */
function busy(): Error {
  return Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });
}

interface TransactionInternals {
  begin(connection: unknown): unknown;
  query(connection: unknown, sql: string): unknown;
  acquireConnection(config: unknown, use: (connection: unknown) => Promise<unknown>): Promise<unknown>;
}

/**
 * SQLite starts a plain BEGIN as a reader and upgrades at its first write; if another connection
 * wrote meanwhile, the upgrade fails at once with SQLITE_BUSY instead of waiting. BEGIN IMMEDIATE
 * takes the write lock up front, so the busy timeout applies. A top-level transaction waits for its
 * turn before it takes a connection; a nested one (a savepoint) runs on its parent's. (knex has no
 * option for either.)
 */
function writeTransactionsInTurn(db: Knex): Knex {
  const client = db.client as { transaction: (...args: unknown[]) => TransactionInternals };
  const create = client.transaction.bind(client);
  const turns = new WriteTurns(childRole() !== undefined);
  client.transaction = (...args: unknown[]) => {
    const transaction = create(...args);
    transaction.begin = (connection) => transaction.query(connection, 'BEGIN IMMEDIATE;');
    const acquire = transaction.acquireConnection.bind(transaction);
    transaction.acquireConnection = (config, use) => turns.take(() => acquire(config, use));
    return transaction;
  };
  return db;
}

/** Fewer than libuv's four threads, which the connections' queries (and file reads) share. */
const SQLITE_CONNECTIONS = 3;

function sqlite(config: Config): Knex {
  const filename = sqliteFile(config);
  if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
  return writeTransactionsInTurn(knexFactory({
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // Several connections: under WAL, reads on one go on while another holds the one write lock
    // (a bulk import's transaction), instead of queueing behind it for the pool's only connection.
    // Writers still take turns at SQLite's lock, waiting up to the busy timeout (30 s, then 503 busy):
    // a transaction in this process's queue, any other write (or another process) in SQLite's.
    pool: {
      min: 1,
      // An in-memory database is private to its connection: it gets only one.
      max: filename === ':memory:' || filename.startsWith('file::memory:') ? 1 : SQLITE_CONNECTIONS,
      afterCreate(connection: SqliteConnection, done: (error: Error | null, connection: SqliteConnection) => void) {
        // WAL lets readers run beside the writer; foreign keys are off in SQLite unless asked for.
        const pragmas = ['PRAGMA journal_mode = WAL', 'PRAGMA foreign_keys = ON', `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`];
        const next = (index: number): void => {
          const statement = pragmas[index];
          if (!statement) return done(null, connection);
          connection.run(statement, (error) => (error ? done(error, connection) : next(index + 1)));
        };
        next(0);
      },
    },
  }));
}

function postgres(config: Config): Knex {
  return knexFactory({
    client: 'pg',
    connection: config.databaseUrl,
    searchPath: config.databaseSchema ? [config.databaseSchema] : undefined,
    pool: { min: 0, max: 10 },
  });
}

export async function openDatabase(config: Config): Promise<Knex> {
  const db = config.engine === 'postgres' ? postgres(config) : sqlite(config);
  if (config.engine === 'postgres' && config.databaseSchema) {
    const schema = config.databaseSchema;
    await inTurnWithOtherNodes(db, `schema ${schema}`, (trx) => trx.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]));
  }
  return db;
}
