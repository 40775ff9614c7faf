// The README's first command as a newcomer runs it: `npm start` on a free port with a fresh data
// folder (and, with --postgres URL, on a fresh schema of that server). Waits for /api/health to
// answer 200 and for / to serve the PWA's HTML, then stops the server with SIGTERM and checks it
// exits 0. Any failed step fails the run and prints the server's last output.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

const START_TIMEOUT_MS = 240_000;
const STOP_TIMEOUT_MS = 20_000;

const postgresAt = process.argv.indexOf('--postgres');
const databaseUrl = postgresAt >= 0 ? process.argv[postgresAt + 1] : undefined;
const engine = databaseUrl ? 'postgres' : 'sqlite';

async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs SQL against the Postgres server with the project's own driver. */
async function postgres(sql) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const port = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'paybench-first-start-'));
const schema = `pb_first_start_${process.pid}`;
const env = { ...process.env, PORT: String(port), PAYBENCH_DATA_DIR: dataDir, LOG_LEVEL: 'info' };
if (databaseUrl) Object.assign(env, { DATABASE_URL: databaseUrl, PAYBENCH_DATABASE_SCHEMA: schema });
const base = `http://127.0.0.1:${port}`;

process.stdout.write(`\n▶ npm start on ${engine} (port ${port})\n`);
const started = Date.now();
// In a process group of its own, as in a terminal or a container: stopping signals the whole group.
const server = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
let output = '';
const keep = (chunk) => {
  output = (output + chunk.toString()).slice(-20_000);
};
server.stdout.on('data', keep);
server.stderr.on('data', keep);
const exited = once(server, 'exit');

async function fail(step) {
  process.stderr.write(`\n✗ npm start on ${engine}: ${step}\n--- the server's last output ---\n${output.slice(-6000)}\n---\n`);
  if (groupAlive(server.pid)) process.kill(-server.pid, 'SIGKILL');
  await cleanUp();
  process.exit(1);
}

async function cleanUp() {
  rmSync(dataDir, { recursive: true, force: true });
  if (databaseUrl) await postgres(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
}

function groupAlive(groupId) {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

async function fetchOk(url, headers) {
  try {
    const reply = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
    return { status: reply.status, text: await reply.text(), headers: reply.headers };
  } catch {
    return { status: 0, text: '', headers: new Headers() };
  }
}

let health = { status: 0 };
while (health.status !== 200) {
  if (server.exitCode !== null) await fail(`exited with ${server.exitCode} before answering`);
  if (Date.now() - started > START_TIMEOUT_MS) await fail(`/api/health did not answer 200 within ${START_TIMEOUT_MS / 1000} s (last: ${health.status})`);
  await new Promise((resolve) => setTimeout(resolve, 250));
  health = await fetchOk(`${base}/api/health`);
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (JSON.parse(health.text).data?.database?.engine !== engine) await fail(`/api/health names another engine: ${health.text}`);

// Health answers once one web process serves; another may still answer 503 `starting` (its page
// reloads itself) until the banner, printed when every process serves, as a newcomer reads it.
while (!output.includes('is running at')) {
  if (server.exitCode !== null) await fail(`exited with ${server.exitCode} before printing the banner`);
  if (Date.now() - started > START_TIMEOUT_MS) await fail(`the start-up banner was not printed within ${START_TIMEOUT_MS / 1000} s`);
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const page = await fetchOk(`${base}/`, { accept: 'text/html' });
if (page.status !== 200 || !page.text.includes('<div id="root"></div>')) await fail(`/ did not serve the PWA's HTML (status ${page.status})`);
const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
const asset = script ? await fetchOk(`${base}${script}`, { 'accept-encoding': 'br, gzip' }) : undefined;
if (!asset || asset.status !== 200 || asset.headers.get('content-encoding') !== 'br') await fail(`the PWA's script ${script} was not served compressed`);

// npm itself always ends by the signal it is sent (it passes it on and re-raises it), so what must
// exit 0 is the server: it finishes the requests in flight, says so, and exits 0.
process.kill(-server.pid, 'SIGTERM');
const stopTimer = setTimeout(() => void fail(`did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`), STOP_TIMEOUT_MS);
await exited;
while (groupAlive(server.pid)) await new Promise((resolve) => setTimeout(resolve, 100));
clearTimeout(stopTimer);
if (!/"exitCode":0,"msg":"stopped cleanly"/.test(output)) await fail('the server did not exit 0 after SIGTERM');
await cleanUp();
process.stdout.write(`✓ npm start on ${engine}: healthy after ${seconds} s, served the PWA (brotli), stopped cleanly\n`);
