import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Config } from '../config.js';

// Postgres returns BIGINT and NUMERIC as strings; our amounts fit in a double's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value: string) => Number(value));

interface SqliteConnection {
  run(sql: string, callback: (error: Error | null) => void): void;
}

function sqliteFile(config: Config): string {
  if (config.databaseUrl?.startsWith('sqlite:')) return config.databaseUrl.slice('sqlite:'.length);
  return path.join(config.dataDir, 'paybench.sqlite');
}

interface TransactionInternals {
  begin(connection: unknown): unknown;
  query(connection: unknown, sql: string): unknown;
}

/**
 * SQLite starts a plain BEGIN as a reader and upgrades at its first write; if another connection
 * wrote meanwhile, the upgrade fails at once with SQLITE_BUSY instead of waiting. BEGIN IMMEDIATE
 * takes the write lock up front, so the busy timeout applies. (knex has no option for it.)
 */
function beginImmediately(db: Knex): Knex {
  const client = db.client as { transaction: (...args: unknown[]) => TransactionInternals };
  const create = client.transaction.bind(client);
  client.transaction = (...args: unknown[]) => {
    const transaction = create(...args);
    transaction.begin = (connection) => transaction.query(connection, 'BEGIN IMMEDIATE;');
    return transaction;
  };
  return db;
}

/** Fewer than libuv's four threads, which the connections' queries (and file reads) share. */
const SQLITE_CONNECTIONS = 3;

function sqlite(config: Config): Knex {
  const filename = sqliteFile(config);
  if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
  return beginImmediately(knexFactory({
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // Several connections: under WAL, reads on one go on while another holds the one write lock
    // (a bulk import's transaction), instead of queueing behind it for the pool's only connection.
    // Writers still take turns at SQLite's lock, waiting up to the busy timeout (30 s, then 503 busy).
    pool: {
      min: 1,
      // An in-memory database is private to its connection: it gets only one.
      max: filename === ':memory:' || filename.startsWith('file::memory:') ? 1 : SQLITE_CONNECTIONS,
      afterCreate(connection: SqliteConnection, done: (error: Error | null, connection: SqliteConnection) => void) {
        // WAL lets readers run beside the writer; foreign keys are off in SQLite unless asked for.
        const pragmas = ['PRAGMA journal_mode = WAL', 'PRAGMA foreign_keys = ON', 'PRAGMA busy_timeout = 30000'];
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
    await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [config.databaseSchema]);
  }
  return db;
}
