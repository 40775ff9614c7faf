import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
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
