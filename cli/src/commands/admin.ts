import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * `paybench admin backup|restore DIR`: run on a machine with the Paybench installation (a clone
 * that was built, or the container image) and the server's environment. They work on the database
 * and the storage directly, not over HTTP, through the API's backup command.
 */
export async function adminBackupCommand(action: 'backup' | 'restore', dir: string): Promise<void> {
  const script = path.resolve(import.meta.dirname, '..', '..', '..', 'api', 'dist', 'db', 'backupCommand.js');
  if (!existsSync(script)) throw new Error(`paybench admin ${action} runs where Paybench is installed and built (${script} is missing): run it in the server's container or in a built clone, with the server's environment.`);
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [script, action, path.resolve(dir)], { stdio: 'inherit', env: process.env });
    child.on('error', reject);
    child.on('exit', (exit) => resolve(exit ?? 1));
  });
  process.exitCode = code;
}
