import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { dropSchema, isolatedConfig } from '../../test/env.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrationConfig } from './migrations.js';

/** Every table and its columns (name → sorted column names), as a node of the previous version sees them. */
async function shape(db: Knex): Promise<Map<string, string[]>> {
  const tables =
    db.client.config.client === 'pg'
      ? ((await db.raw("select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'")) as { rows: { name: string }[] }).rows
      : ((await db.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")) as { name: string }[]);
  const result = new Map<string, string[]>();
  for (const { name } of tables) result.set(name, Object.keys(await db(name).columnInfo()).sort());
  return result;
}

// The rolling-upgrade rule (docs/self-hosting.md): a migration of release N+1 runs while nodes of
// release N still serve, so it may add tables and columns but not change or remove what N uses.
describe('the rolling-upgrade rule', () => {
  it('holds for the stored-files migration: it adds two tables and changes no table a node of the previous release reads', async () => {
    const config = isolatedConfig();
    const db = await openDatabase(config);
    try {
      await migrateToLatest(db);
      const name = '20261208160000_stored_files.mjs';
      await db.migrate.down({ ...migrationConfig, name });
      const before = await shape(db);
      await db.migrate.up({ ...migrationConfig, name });
      const after = await shape(db);
      const added = [...after.keys()].filter((table) => !before.has(table)).sort();
      expect(added).toEqual(['stored_file_chunks', 'stored_files']);
      for (const [table, columns] of before) expect(after.get(table), table).toEqual(columns);
    } finally {
      await db.destroy();
      await dropSchema(config);
    }
  }, 120_000);
});
