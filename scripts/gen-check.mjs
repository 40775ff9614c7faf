// Fails when openapi.yaml is not what `npm run contract` bundles from contract/, or openapi.d.ts
// and api/src/contract-defaults.ts are not what `npm run gen` would write from openapi.yaml.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, run } from './lib.mjs';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'paybench-gen-'));
const bundled = path.join(scratch, 'openapi.yaml');
if (run('npx', ['redocly', 'bundle', 'contract/openapi.yaml', '-o', bundled], { stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) process.exit(1);
if (readFileSync(bundled, 'utf8') !== readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) {
  process.stderr.write('openapi.yaml is stale: edit contract/, run `npm run contract` and commit the result.\n');
  process.exit(1);
}
const fresh = path.join(scratch, 'openapi.d.ts');
if (run('npx', ['openapi-typescript', 'openapi.yaml', '-o', fresh, '--silent']) !== 0) process.exit(1);
const committed = readFileSync(path.join(ROOT, 'openapi.d.ts'), 'utf8');
if (readFileSync(fresh, 'utf8') !== committed) {
  process.stderr.write('openapi.d.ts is stale: run `npm run gen` and commit the result.\n');
  process.exit(1);
}
if (run('node', ['scripts/gen-defaults.mjs', '--check']) !== 0) process.exit(1);
process.stdout.write('openapi.yaml matches contract/; openapi.d.ts and api/src/contract-defaults.ts match openapi.yaml.\n');
