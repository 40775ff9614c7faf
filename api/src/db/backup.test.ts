import { mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropSchema, isolatedConfig } from '../../test/env.js';
import { createTestCompany } from '../../test/factories.js';
import { BackupError, backup, restore } from './backup.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrations.js';

const tempDir = (name: string): string => mkdtempSync(path.join(os.tmpdir(), `paybench-${name}-`));
const companiesNamed = async (config: ReturnType<typeof isolatedConfig>, name: string): Promise<number> => {
  const db = await openDatabase(config);
  try {
    return Number((await db('companies').where({ name }).count({ n: '*' }).first())?.n ?? 0);
  } finally {
    await db.destroy();
  }
};

describe('admin backup and restore', () => {
  it('backs up the database and the stored files, and restores them', async () => {
    const config = isolatedConfig();
    const db = await openDatabase(config);
    await migrateToLatest(db);
    await createTestCompany(db, 'Backed Up Co');
    await db.destroy();
    mkdirSync(config.storage.directory, { recursive: true });
    writeFileSync(path.join(config.storage.directory, 'export.bin'), 'email\nana@example.com\n');

    const target = path.join(tempDir('backup'), 'nightly');
    const manifest = await backup(config, target);
    expect(statSync(target).mode & 0o777).toBe(0o700);
    expect(manifest).toMatchObject({ format: 'paybench-backup-1', engine: config.engine, storage: { backend: 'directory', files: 'files' }, secretsKey: 'not included' });
    expect(manifest.latestMigration).toMatch(/\.mjs$/);
    await expect(backup(config, target)).rejects.toThrow(/is not empty/);

    if (config.engine === 'sqlite') {
      // Restored into a new data directory: the company and the file are there.
      const fresh = isolatedConfig();
      await restore(fresh, target);
      expect(await companiesNamed(fresh, 'Backed Up Co')).toBe(1);
      expect(readFileSync(path.join(fresh.storage.directory, 'export.bin'), 'utf8')).toBe('email\nana@example.com\n');
      await expect(restore(fresh, target)).rejects.toThrow(/exists: stop Paybench and move it away first/);
    } else {
      // Postgres: the company removed after the backup is back after pg_restore --clean.
      const again = await openDatabase(config);
      await again('companies').where({ name: 'Backed Up Co' }).update({ name: 'Renamed Co' });
      await again.destroy();
      await restore(config, target);
      expect(await companiesNamed(config, 'Backed Up Co')).toBe(1);
      expect(await companiesNamed(config, 'Renamed Co')).toBe(0);
      // Without pg_dump on the PATH, a message that says what to install.
      const saved = process.env.PATH;
      process.env.PATH = '/nonexistent';
      try {
        await expect(backup(config, tempDir('no-pg-dump'))).rejects.toThrow(new BackupError("pg_dump is not installed here: install the PostgreSQL client tools of your server's major version (Debian/Ubuntu: apt-get install postgresql-client) and try again."));
      } finally {
        process.env.PATH = saved;
      }
      await dropSchema(config);
    }
  }, 120_000);

  it('refuses a directory that holds no backup, and a backup of the other engine', async () => {
    const config = isolatedConfig();
    await expect(restore(config, tempDir('empty'))).rejects.toThrow(/holds no Paybench backup/);
    const other = tempDir('other');
    writeFileSync(path.join(other, 'manifest.json'), JSON.stringify({ format: 'paybench-backup-1', engine: config.engine === 'sqlite' ? 'postgres' : 'sqlite' }));
    await expect(restore(config, other)).rejects.toThrow(/This backup is of a (postgres|sqlite) database/);
  });
});
