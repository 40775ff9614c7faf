/**
 * `node api/dist/db/backupCommand.js backup DIR` / `restore DIR` (what `paybench admin backup` and
 * `paybench admin restore` run): with the server's environment, on a machine that has the installation.
 */
import { loadConfig } from '../config.js';
import { BackupError, backup, restore, sizeOf } from './backup.js';

const [action, dir] = process.argv.slice(2);
try {
  if (!dir || (action !== 'backup' && action !== 'restore')) throw new BackupError('usage: backupCommand.js backup|restore DIRECTORY');
  const config = loadConfig();
  if (action === 'backup') {
    const manifest = await backup(config, dir);
    const megabytes = (await sizeOf(dir)) / 1024 / 1024;
    process.stdout.write(`Backed up the ${manifest.engine} database${manifest.storage.files ? ' and the stored files' : ''} into ${dir} (${megabytes.toFixed(1)} MB).\n`);
    if (manifest.storage.note) process.stdout.write(`${manifest.storage.note}\n`);
    process.stdout.write('The secrets key is not in the backup: keep PAYBENCH_SECRETS_KEY (or secrets.key) safely apart.\n');
  } else {
    const manifest = await restore(config, dir);
    process.stdout.write(`Restored the backup of ${manifest.createdAt} (newest migration ${manifest.latestMigration ?? 'none'}). Start Paybench with the same secrets key.\n`);
  }
} catch (error) {
  process.stderr.write(`${error instanceof BackupError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
