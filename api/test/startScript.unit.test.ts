import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const LIB = pathToFileURL(path.resolve(import.meta.dirname, '..', '..', 'scripts', 'lib.mjs')).href;

/** `newestMtime` of scripts/lib.mjs (plain Node, as `npm start` runs it) for a source path. */
function newestMtime(source: string): number {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', `import { newestMtime } from ${JSON.stringify(LIB)}; console.log(newestMtime(${JSON.stringify(source)}));`], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return Number(run.stdout.trim());
}

describe('what npm start counts as a build source', () => {
  it('takes a file’s own time, the newest file under a folder, and 0 for what does not exist', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'paybench-sources-'));
    const file = path.join(root, 'index.html');
    writeFileSync(file, '<!doctype html>');
    utimesSync(file, 1_000, 1_000);
    mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
    const older = path.join(root, 'src', 'a.ts');
    const newer = path.join(root, 'src', 'deep', 'b.ts');
    writeFileSync(older, '');
    writeFileSync(newer, '');
    utimesSync(older, 2_000, 2_000);
    utimesSync(newer, 3_000, 3_000);
    utimesSync(path.join(root, 'src', 'deep'), 1_500, 1_500);
    utimesSync(path.join(root, 'src'), 1_500, 1_500);

    expect(newestMtime(file)).toBe(1_000_000);
    expect(newestMtime(path.join(root, 'src'))).toBe(3_000_000);
    expect(newestMtime(path.join(root, 'missing'))).toBe(0);
  });
});

/** Whether a process still runs (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 10_000) throw new Error(`still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A parent that starts a long command the way `npm start` starts a compiler and is then killed
 * with SIGKILL, which no handler sees. `plain` starts it as a bare detached process group instead:
 * the control, which outlives its parent.
 */
async function killParentOf(options: { plain: boolean }): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'paybench-quiet-'));
  const pidFile = path.join(dir, 'pid');
  const command = ['sh', ['-c', `echo $$ > ${pidFile}; exec sleep 60`]] as const;
  const start = options.plain
    ? `import { spawn } from 'node:child_process'; spawn(${JSON.stringify(command[0])}, ${JSON.stringify(command[1])}, { detached: true, stdio: 'ignore' }); setInterval(() => {}, 1000);`
    : `import { runQuietly } from ${JSON.stringify(LIB)}; runQuietly(${JSON.stringify(command[0])}, ${JSON.stringify(command[1])}); setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', start], { stdio: 'ignore' });
  await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command to start');
  const pid = Number(readFileSync(pidFile, 'utf8'));
  expect(alive(pid)).toBe(true);
  parent.kill('SIGKILL');
  return pid;
}

describe('a build npm start runs quietly', () => {
  it('ends with npm start even when npm start is killed with SIGKILL', async () => {
    const pid = await killParentOf({ plain: false });
    await until(() => !alive(pid), 'the command to end with its parent');
  });

  it('(control) would outlive a parent killed with SIGKILL if it were only a detached process group', async () => {
    const pid = await killParentOf({ plain: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(alive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
  });
});
