import path from 'node:path';
import type { Knex } from 'knex';
import { applyAuthChangeNotifications } from './authChanges.js';
import { applyRowSecurity } from './rowSecurity.js';

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'migrations');

export const migrationConfig: Knex.MigratorConfig = {
  directory: MIGRATIONS_DIR,
  loadExtensions: ['.mjs'],
  tableName: 'knex_migrations',
};

export interface MigrationState {
  applied: number;
  pending: number;
  latest: string | null;
  upToDate: boolean;
}

/**
 * Runs pending migrations, then (on Postgres) puts row-level security on whatever tables they made
 * and the notifications of changes to what authentication reads on its tables.
 */
export async function migrateToLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationConfig)) as [number, string[]];
  await applyRowSecurity(db);
  await applyAuthChangeNotifications(db);
  return applied;
}

interface MigrationEntry {
  name?: string;
  file?: string;
}

function nameOf(entry: string | MigrationEntry): string {
  if (typeof entry === 'string') return entry;
  return entry.name ?? entry.file ?? '';
}

export async function migrationState(db: Knex): Promise<MigrationState> {
  const [completed, pending] = (await db.migrate.list(migrationConfig)) as [MigrationEntry[], MigrationEntry[]];
  const names = completed.map(nameOf).sort();
  return {
    applied: completed.length,
    pending: pending.length,
    latest: names.at(-1) ?? null,
    upToDate: pending.length === 0,
  };
}
