// Prints the JavaScript a first visit downloads (the entry and what it imports eagerly), gzipped,
// and fails the build when it passes the budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 170;
const dist = path.resolve(import.meta.dirname, '..', 'dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entries = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]);

const seen = new Set();
function visit(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(path.join(dist, file), 'utf8');
  // Static imports only: lazy screens (import("…")) are not part of the first load.
  for (const match of code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[^"'()]*?from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
    visit(path.posix.join(path.posix.dirname(file), match[1]));
  }
}
entries.forEach(visit);

let total = 0;
for (const file of seen) total += gzipSync(readFileSync(path.join(dist, file))).length;
const kb = total / 1024;
process.stdout.write(`Initial JavaScript: ${kb.toFixed(1)} KB gzipped in ${seen.size} file(s) (budget ${BUDGET_KB} KB)\n`);
if (kb > BUDGET_KB) {
  process.stderr.write(`The first load is over budget by ${(kb - BUDGET_KB).toFixed(1)} KB.\n`);
  process.exit(1);
}
