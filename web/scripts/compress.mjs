// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside every text file of the
// build, which the server picks by Accept-Encoding, then prints the JavaScript a first visit
// downloads (the entry and what it imports eagerly) as it goes over the wire to a browser (brotli),
// and fails the build when that passes the budget.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const BUDGET_KB = 170;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/;
const dist = path.resolve(import.meta.dirname, '..', 'dist');

/** Compressed copies of every text file; returns the brotli size of each, by its path in dist. */
function precompress() {
  const sizes = new Map();
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const full = path.join(entry.parentPath, entry.name);
    const bytes = readFileSync(full);
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    writeFileSync(`${full}.br`, br);
    writeFileSync(`${full}.gz`, gzipSync(bytes, { level: 9 }));
    sizes.set(`/${path.relative(dist, full).split(path.sep).join('/')}`, br.length);
  }
  return sizes;
}

/** The files a first visit loads: the entries of index.html and their static imports. */
function firstLoad() {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]);
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    // Static imports only: lazy screens (import("…")) are not part of the first load.
    for (const match of code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[^"'()]*?from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
      visit(path.posix.join(path.posix.dirname(file), match[1]));
    }
  };
  entries.forEach(visit);
  return seen;
}

const sizes = precompress();
const files = firstLoad();
let total = 0;
for (const file of files) total += sizes.get(file) ?? 0;
const kb = total / 1024;
process.stdout.write(`Precompressed ${sizes.size} files. First-load JavaScript over the wire: ${kb.toFixed(1)} KB brotli in ${files.size} file(s) (budget ${BUDGET_KB} KB)\n`);
if (kb > BUDGET_KB) {
  process.stderr.write(`The first load is over budget by ${(kb - BUDGET_KB).toFixed(1)} KB.\n`);
  process.exit(1);
}
