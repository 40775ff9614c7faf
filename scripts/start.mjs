// `npm start`: build whatever is missing or older than its sources, then run the server.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { clean } from './clean.mjs';
import { ROOT, mtime, newestMtime, runQuietly } from './lib.mjs';

const contract = Math.max(mtime(path.join(ROOT, 'openapi.yaml')), mtime(path.join(ROOT, 'openapi.d.ts')));
const targets = [
  { name: 'api', output: 'api/dist/main.js', sources: ['api/src'], clean: 'api/dist', build: ['npx', ['tsc', '-p', 'api/tsconfig.build.json']] },
  { name: 'cli', output: 'cli/dist/index.js', sources: ['cli/src'], clean: 'cli/dist', build: ['npx', ['tsc', '-p', 'cli/tsconfig.build.json']] },
  { name: 'web', output: 'web/dist/index.html', sources: ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts'], build: ['npm', ['run', 'build', '-w', 'web']] },
];

for (const target of targets) {
  const built = mtime(path.join(ROOT, target.output));
  const newest = Math.max(contract, ...target.sources.map((source) => newestMtime(path.join(ROOT, source))));
  if (built >= newest) continue;
  // One line per part: the compilers' own output (~185 lines for the web app) shows only when it fails.
  process.stdout.write(`Building ${target.name}…`);
  const started = Date.now();
  if (target.clean) clean(target.clean);
  const [command, args] = target.build;
  const { status, output } = runQuietly(command, args);
  if (status !== 0) {
    process.stdout.write(' failed.\n');
    process.stderr.write(`${output}\nBuilding ${target.name} failed.\n`);
    process.exit(1);
  }
  process.stdout.write(` done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
process.stdout.write('Starting Paybench…\n');

// The server runs in this process: a signal to `npm start` (npm passes it on) reaches it directly.
await import(pathToFileURL(path.join(ROOT, 'api/dist/main.js')).href);
