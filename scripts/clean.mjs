// Empties build output folders before a compile: tsc never deletes what it once wrote, so a source
// file that moved would otherwise leave its old compiled copy behind (two `module.js` declaring the
// same operations, for one, and the server refusing to start).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib.mjs';

export function clean(...folders) {
  for (const folder of folders) rmSync(path.join(ROOT, folder), { recursive: true, force: true });
}

// Run as `node scripts/clean.mjs <folder>…` (the build script); imported by start.mjs.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) clean(...process.argv.slice(2));
