// `npm start`: build whatever is missing or older than its sources, then run the server.
import cluster from 'node:cluster';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { listenAddress, serveWhileBuilding } from './building.mjs';
import { clean } from './clean.mjs';
import { ROOT, mtime, newestMtime, runQuietly } from './lib.mjs';

const contract = Math.max(mtime(path.join(ROOT, 'openapi.yaml')), mtime(path.join(ROOT, 'openapi.d.ts')));
const targets = [
  { name: 'api', output: 'api/dist/main.js', sources: ['api/src'], clean: 'api/dist', build: ['npx', ['tsc', '-p', 'api/tsconfig.build.json']] },
  { name: 'cli', output: 'cli/dist/index.js', sources: ['cli/src'], clean: 'cli/dist', build: ['npx', ['tsc', '-p', 'cli/tsconfig.build.json']] },
  { name: 'web', output: 'web/dist/index.html', sources: ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts'], build: ['npm', ['run', 'build', '-w', 'web']] },
];
// A web process of a cluster runs this script again: its primary built everything already.
const stale = cluster.isWorker ? [] : targets.filter((target) => {
  const newest = Math.max(contract, ...target.sources.map((source) => newestMtime(path.join(ROOT, source))));
  return mtime(path.join(ROOT, target.output)) < newest;
});

/** While it builds, the port answers 503 `starting` (a page that reloads itself, in a browser). */
async function answerWhileBuilding() {
  const address = listenAddress(process.env);
  if (!address) return undefined;
  try {
    const building = await serveWhileBuilding(address);
    const url = process.env.PAYBENCH_PUBLIC_URL ?? `http://localhost:${address.port}`;
    process.stdout.write(`Building Paybench first; meanwhile ${url} shows a page that reloads when it is ready.\n`);
    return building;
  } catch (error) {
    // The same one line the server says when the port is taken, at once rather than after the build.
    if (!error.refused) throw error;
    process.stderr.write(`Paybench could not start: ${error.refused}\n`);
    process.exit(1);
  }
}

const building = stale.length ? await answerWhileBuilding() : undefined;
let stopping;
let current;
const stop = (signal) => {
  stopping ??= signal;
  current?.stop();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

for (const target of stale) {
  if (stopping) break;
  // One line per part: the compilers' own output (~185 lines for the web app) shows only when it fails.
  process.stdout.write(`Building ${target.name}…`);
  const started = Date.now();
  if (target.clean) clean(target.clean);
  const [command, args] = target.build;
  current = runQuietly(command, args);
  const { status, output } = await current.done;
  current = undefined;
  if (stopping) {
    // A part stopped half-way is built again next time.
    rmSync(path.join(ROOT, target.output), { force: true });
    process.stdout.write(' stopped.\n');
    break;
  }
  if (status !== 0) {
    process.stdout.write(' failed.\n');
    process.stderr.write(`${output}\nBuilding ${target.name} failed.\n`);
    process.exit(1);
  }
  process.stdout.write(` done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
if (stopping) {
  await building?.close();
  process.stdout.write(`Stopped by ${stopping} before starting; the next \`npm start\` builds what is left.\n`);
  process.exit(0);
}
process.off('SIGINT', stop);
process.off('SIGTERM', stop);
if (cluster.isPrimary) process.stdout.write('Starting Paybench…\n');

// The server's code is loaded while the port still answers (seconds on a busy machine), so the
// hand-over leaves the port closed only until the server opens it.
if (building) await import(pathToFileURL(path.join(ROOT, 'api/dist/server.js')).href);
await building?.close();
// The server runs in this process: a signal to `npm start` (npm passes it on) reaches it directly.
await import(pathToFileURL(path.join(ROOT, 'api/dist/main.js')).href);
