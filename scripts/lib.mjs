// Small helpers shared by the root scripts (plain Node: they run before anything is built).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** Runs a command in the repository, streaming its output; returns its exit code. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/**
 * The shell around a quiet command. The command runs in the background of a process group of its
 * own; a watcher reads the pipe this process holds open on its input, and when that pipe ends (this
 * process finished with it, or died, even by SIGKILL, which no handler sees) ends the whole group,
 * so a compiler never outlives the `npm start` that began it.
 */
const QUIET_SHELL = [
  'exec 3<&0',
  '"$0" "$@" 2>&1 </dev/null &',
  'command=$!',
  // A background job's input is /dev/null unless it is named: the watcher names the held pipe.
  '(cat >/dev/null; kill -TERM -$$) <&3 >/dev/null 2>&1 &',
  'exec 3<&-',
  'wait "$command"',
].join('\n');

/**
 * Runs a command in the repository without blocking this process, keeping its output (both
 * streams, in order) to show on failure. `stop` ends the command and whatever it started (it runs
 * in a process group of its own); the promise then resolves with a non-zero status. If this process
 * dies first, the group ends too (QUIET_SHELL).
 */
export function runQuietly(command, args) {
  const child = spawn('sh', ['-c', QUIET_SHELL, command, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  const chunks = [];
  child.stdout.on('data', (chunk) => chunks.push(chunk));
  const done = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => {
      // Lets the watcher go: the command has ended, so what it ends now is only itself.
      child.stdin.end();
      resolve({ status: status ?? 1, output: Buffer.concat(chunks).toString() });
    });
  });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already ended.
    }
  };
  return { done, stop };
}

/**
 * The newest modification time of a source: a file's own, or that of any file under a folder
 * (0 when it does not exist).
 */
export function newestMtime(source, skip = ['node_modules', 'dist']) {
  if (!existsSync(source)) return 0;
  const stat = statSync(source);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const dir = source;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full, skip) : statSync(full).mtimeMs);
  }
  return newest;
}

export function mtime(file) {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}
