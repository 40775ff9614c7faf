import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { type Config, loadConfig } from '../src/config.js';

/** Which engine this test pass runs on: Postgres when TEST_DATABASE_URL is set, else SQLite. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testEngine = testDatabaseUrl ? 'postgres' : 'sqlite';

/** Environment variables for a fresh, isolated Paybench: its own data dir, or its own Postgres schema. */
export function isolatedEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'paybench-test-'));
  const env: Record<string, string> = {
    PAYBENCH_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PAYBENCH_VALIDATE_RESPONSES: 'true',
    // Every test calls from 127.0.0.1, all through one server per pass: the production limit (600 a
    // minute per address) would throttle the suite itself. The rate-limit test sets its own.
    PAYBENCH_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  if (testDatabaseUrl) {
    env.DATABASE_URL = testDatabaseUrl;
    env.PAYBENCH_DATABASE_SCHEMA = `pb_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  }
  return { ...env, ...overrides };
}

export function isolatedConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...process.env, ...isolatedEnv(overrides) });
}

/** Drops a test pass's Postgres schema; SQLite files live in temp dirs. */
export async function dropSchema(config: Config): Promise<void> {
  if (config.engine !== 'postgres' || !config.databaseSchema) return;
  const db = knexFactory({ client: 'pg', connection: config.databaseUrl });
  try {
    await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [config.databaseSchema]);
  } finally {
    await db.destroy();
  }
}
