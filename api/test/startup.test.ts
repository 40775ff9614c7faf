import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, isolatedEnv } from './env.js';
import { loadConfig } from '../src/config.js';

const MAIN = path.resolve(import.meta.dirname, '..', 'dist', 'main.js');
const BOOTSTRAP_TOKEN = 'pb_bootstrap-token-for-the-start-up-test';

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  return typeof address === 'object' && address ? address.port : 0;
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  url: string;
}

/** Starts the built server the way `npm start` does and waits for its banner. */
async function startBuilt(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (!/is running at (\S+)/.test(out)) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${err}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}${err}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, stdout: () => out, url: /is running at (\S+)/.exec(out)?.[1] ?? '' };
}

async function stop(started: Started): Promise<number | null> {
  started.child.kill('SIGTERM');
  const [code] = (await once(started.child, 'exit')) as [number | null];
  return code;
}

describe('starting Paybench on an empty database', () => {
  const port = String(Math.floor(20000 + Math.random() * 20000));
  const env = isolatedEnv({ LOG_LEVEL: 'warn', PAYBENCH_BOOTSTRAP_ADMIN_EMAIL: 'robot@paybench.test', PAYBENCH_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN });
  afterAll(() => dropSchema(loadConfig({ ...process.env, ...env })));

  it('migrates, seeds the demo company, prints the URL, serves the API and the page, and stops cleanly', async () => {
    const chosen = String(await freePort().catch(() => Number(port)));
    const first = await startBuilt({ ...env, PORT: chosen, PAYBENCH_PUBLIC_URL: `http://127.0.0.1:${chosen}` });
    try {
      expect(first.url).toBe(`http://127.0.0.1:${chosen}`);
      expect(first.stdout()).toContain('Demo company created: Acme Robotics (acme.test)');
      for (const email of ['admin@acme.test', 'planner@acme.test', 'manager@acme.test', 'employee@acme.test', 'analyst@acme.test', 'support@paybench.test']) {
        expect(first.stdout()).toContain(email);
      }
      expect(first.stdout()).toMatch(/Password: \S{12}/);
      // The bootstrap admin's API token works at once, as an internal admin.
      const me = await fetch(`${first.url}/api/me`, { headers: { Authorization: `Bearer ${BOOTSTRAP_TOKEN}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { data: { isInternalAdmin: boolean; email: string } }).data).toMatchObject({
        isInternalAdmin: true,
        email: 'robot@paybench.test',
      });
      const health = await fetch(`${first.url}/api/health`);
      expect(health.status).toBe(200);
      const page = await fetch(`${first.url}/`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root"></div>');
      // A client-side route reloads into the same shell.
      const deepLink = await fetch(`${first.url}/benchmarkingsurvey/data-explorer`, { headers: { accept: 'text/html' } });
      expect(await deepLink.text()).toContain('<div id="root"></div>');
    } finally {
      expect(await stop(first)).toBe(0);
    }
    const firstOut = first.stdout();

    // A second start on the same database keeps its data and seeds nothing again.
    const second = await startBuilt({ ...env, PORT: chosen, PAYBENCH_PUBLIC_URL: `http://127.0.0.1:${chosen}` });
    try {
      expect(second.stdout()).not.toContain('Demo company created');
      // The demo password is printed on every start, so a newcomer can always sign in.
      expect(second.stdout()).toContain(/Password: (\S+)/.exec(firstOut)?.[1] ?? 'missing');
      expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  });
});
