// `npm start`: build whatever is missing or older than its sources, then run the server.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, mtime, newestMtime, run } from './lib.mjs';

const contract = Math.max(mtime(path.join(ROOT, 'openapi.yaml')), mtime(path.join(ROOT, 'openapi.d.ts')));
const targets = [
  { name: 'api', output: 'api/dist/main.js', sources: ['api/src'], build: ['npx', ['tsc', '-p', 'api/tsconfig.build.json']] },
  { name: 'cli', output: 'cli/dist/index.js', sources: ['cli/src'], build: ['npx', ['tsc', '-p', 'cli/tsconfig.build.json']] },
  { name: 'web', output: 'web/dist/index.html', sources: ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts'], build: ['npm', ['run', 'build', '-w', 'web']] },
];

for (const target of targets) {
  const built = mtime(path.join(ROOT, target.output));
  const newest = Math.max(contract, ...target.sources.map((source) => newestMtime(path.join(ROOT, source))));
  if (built >= newest) continue;
  process.stdout.write(`Building ${target.name}…\n`);
  const [command, args] = target.build;
  if (run(command, args) !== 0) {
    process.stderr.write(`Building ${target.name} failed.\n`);
    process.exit(1);
  }
}

// The server runs in this process: a signal to `npm start` (npm passes it on) reaches it directly.
await import(pathToFileURL(path.join(ROOT, 'api/dist/main.js')).href);
