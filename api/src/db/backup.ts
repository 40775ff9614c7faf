/**
 * Backups of a whole install, taken on a machine that has the installation and the server's
 * environment (DATABASE_URL, PAYBENCH_DATA_DIR, PAYBENCH_STORAGE…): the database directly, not over
 * HTTP. SQLite: `VACUUM INTO` (a consistent copy while the server runs). Postgres: `pg_dump -Fc`, and
 * `pg_restore` back. Files: a copy of the storage directory; with the database storage they are in
 * the database already; an S3 bucket is backed up by the store (versioning, replication).
 */
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { openDatabase, sqliteFile } from './database.js';
import { migrationState } from './migrations.js';

export interface BackupManifest {
  format: 'paybench-backup-1';
  createdAt: string;
  engine: Config['engine'];
  /** The newest migration in the backup: a restore needs a Paybench of this version or newer. */
  latestMigration: string | null;
  database: string;
  storage: { backend: Config['storage']['backend']; files: string | null; note?: string };
  /** The secrets key is not in a backup: keep PAYBENCH_SECRETS_KEY (or secrets.key) apart, safely. */
  secretsKey: 'not included';
}

/** A clear refusal the command line prints as it is. */
export class BackupError extends Error {}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new BackupError(`${command} is not installed here: install the PostgreSQL client tools of your server's major version (Debian/Ubuntu: apt-get install postgresql-client) and try again.`) : error),
    );
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** Writes a backup into `target` (an empty or new directory); answers its manifest. */
export async function backup(config: Config, target: string): Promise<BackupManifest> {
  await mkdir(target, { recursive: true });
  if ((await readdir(target)).length) throw new BackupError(`${target} is not empty: back up into a new directory.`);
  // A backup is every company's pay data: only its owner may read it, whatever the files' own modes.
  await chmod(target, 0o700);
  const db = await openDatabase(config);
  let latest: string | null;
  let database: string;
  try {
    latest = (await migrationState(db)).latest;
    if (config.engine === 'sqlite') {
      database = 'paybench.sqlite';
      await db.raw('VACUUM INTO ?', [path.join(target, database)]);
    }
  } finally {
    await db.destroy();
  }
  if (config.engine === 'postgres') {
    database = 'paybench.dump';
    const schema = config.databaseSchema ? ['--schema', config.databaseSchema] : [];
    await run('pg_dump', ['--format=custom', '--no-owner', ...schema, '--file', path.join(target, database), '--dbname', config.databaseUrl ?? '']);
  }
  const storage: BackupManifest['storage'] = { backend: config.storage.backend, files: null };
  if (config.storage.backend === 'directory' && existsSync(config.storage.directory)) {
    await cp(config.storage.directory, path.join(target, 'files'), { recursive: true });
    storage.files = 'files';
  } else if (config.storage.backend === 'database') storage.note = 'Files are in the database backup.';
  else if (config.storage.backend === 's3') storage.note = `Files stay in the bucket ${config.storage.s3?.bucket ?? ''}: back it up with the store (versioning or replication).`;
  const manifest: BackupManifest = { format: 'paybench-backup-1', createdAt: new Date().toISOString(), engine: config.engine, latestMigration: latest, database: database!, storage, secretsKey: 'not included' };
  await writeFile(path.join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Puts a backup back. Stop every node first. SQLite: the database file must not exist yet (move the
 * old one away); Postgres: `pg_restore --clean` into the configured database. Files go back into the
 * storage directory.
 */
export async function restore(config: Config, source: string): Promise<BackupManifest> {
  const manifest = JSON.parse(await readFile(path.join(source, 'manifest.json'), 'utf8').catch(() => {
    throw new BackupError(`${source} holds no Paybench backup (manifest.json is missing).`);
  })) as BackupManifest;
  if (manifest.format !== 'paybench-backup-1') throw new BackupError(`${source}: unknown backup format ${String(manifest.format)}.`);
  if (manifest.engine !== config.engine) throw new BackupError(`This backup is of a ${manifest.engine} database; DATABASE_URL names a ${config.engine} one.`);
  if (config.engine === 'sqlite') {
    const file = sqliteFile(config);
    if (existsSync(file)) throw new BackupError(`${file} exists: stop Paybench and move it away first; restore does not overwrite a database.`);
    await mkdir(path.dirname(file), { recursive: true });
    await cp(path.join(source, manifest.database), file);
  } else {
    const schema = config.databaseSchema ? ['--schema', config.databaseSchema] : [];
    await run('pg_restore', ['--clean', '--if-exists', '--no-owner', ...schema, '--dbname', config.databaseUrl ?? '', path.join(source, manifest.database)]);
  }
  if (manifest.storage.files && config.storage.backend === 'directory') {
    await mkdir(config.storage.directory, { recursive: true });
    await cp(path.join(source, manifest.storage.files), config.storage.directory, { recursive: true });
  }
  return manifest;
}

/** Bytes of a backup on disk, for the summary line. */
export async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}
