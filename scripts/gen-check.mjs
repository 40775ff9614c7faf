// Fails when openapi.d.ts is not what `npm run gen` would write from openapi.yaml.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, run } from './lib.mjs';

const fresh = path.join(mkdtempSync(path.join(os.tmpdir(), 'paybench-gen-')), 'openapi.d.ts');
if (run('npx', ['openapi-typescript', 'openapi.yaml', '-o', fresh, '--silent']) !== 0) process.exit(1);
const committed = readFileSync(path.join(ROOT, 'openapi.d.ts'), 'utf8');
if (readFileSync(fresh, 'utf8') !== committed) {
  process.stderr.write('openapi.d.ts is stale: run `npm run gen` and commit the result.\n');
  process.exit(1);
}
process.stdout.write('openapi.d.ts matches openapi.yaml.\n');
