import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, isolatedEnv } from './env.js';
import { TestSockets, disconnection } from './sockets.js';
import { loadConfig } from '../src/config.js';

const MAIN = path.resolve(import.meta.dirname, '..', 'dist', 'main.js');
const TOKEN = 'pb_bootstrap-token-for-the-cluster-test';
const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };

/** The web processes the primary forked (Linux: from /proc), with the CPU time each has used, in clock ticks. */
function childrenOf(primary: number): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid … utime(14) stime(15): fields after the parenthesised name.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === primary) found.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

describe('several web processes on one node (SQLite or Postgres, as the pass runs)', () => {
  const env = isolatedEnv({
    LOG_LEVEL: 'warn',
    PAYBENCH_WEB_PROCESSES: '2',
    PAYBENCH_BOOTSTRAP_ADMIN_EMAIL: 'robot@paybench.test',
    PAYBENCH_BOOTSTRAP_TOKEN: TOKEN,
    // The analytics limit is small, to count it across the processes; the API's is out of the way.
    PAYBENCH_EVENTS_PER_MINUTE: '6',
    PAYBENCH_JOB_POLL_MS: '100',
  });
  const sockets = new TestSockets();
  let child: ChildProcess;
  let url = '';
  let output = '';

  beforeAll(async () => {
    child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 230_000;
    while (!/is running at (\S+)/.test(output)) {
      if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode}: ${output}`);
      if (Date.now() > deadline) throw new Error(`the server did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    url = /is running at (\S+)/.exec(output)?.[1] ?? '';
  }, 240_000);

  afterAll(async () => {
    sockets.closeAll();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await dropSchema(loadConfig({ ...process.env, ...env }));
  });

  it('forks two processes that both answer requests on the one port', async () => {
    expect(output).toContain('Web processes: 2');
    const pid = child.pid ?? 0;
    const before = childrenOf(pid);
    expect(before.size).toBe(2);
    // Connections are handed out in turn: 400 requests on fresh connections keep both busy.
    for (let round = 0; round < 20; round++) {
      const replies = await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}/api/me`, { headers: { ...auth, Connection: 'close' } })));
      expect(replies.map((reply) => reply.status).every((status) => status === 200)).toBe(true);
    }
    const after = childrenOf(pid);
    for (const [process, ticks] of before) expect(after.get(process) ?? 0).toBeGreaterThan(ticks);
  });

  it('carries realtime events and disconnections between the processes', async () => {
    const created = (await (await fetch(`${url}/api/me/api-tokens`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'sockets' }) })).json()) as { data: { id: string; token: string } };
    // Four sockets, handed to the two processes in turn: two on each.
    const opened: Socket[] = [];
    for (let i = 0; i < 4; i++) opened.push(await sockets.connect(url, created.data.token));
    const statuses = opened.map((socket) => {
      const seen: string[] = [];
      socket.on('emitBackgroundJobStatusUpdate', (update: { status: string }) => seen.push(update.status));
      return seen;
    });
    // An import job: `queued` is published by the process that takes the request, the rest by the job worker's.
    const csv = 'Employee ID,First Name,Last Name,Work Email,Job Title,Department,Manager ID,Country,Location,Currency,Start Date,Job Family,Level,Base Salary\nC1,Ada,Lovelace,ada@cluster.test,Engineer,Engineering,,US,New York City,USD,2020-01-01,Software Engineering,P3,"100,000"\n';
    const file = (await (await fetch(`${url}/api/people-imports/files?kind=employees&filename=people.csv`, { method: 'POST', headers: { ...auth, 'Content-Type': 'text/csv' }, body: csv })).json()) as { data: { id: string } };
    const run = await fetch(`${url}/api/people-imports/files/${file.data.id}/runs`, { method: 'POST', headers: auth, body: '{}' });
    expect(run.status).toBe(202);
    const runId = ((await run.json()) as { data: { id: string } }).data.id;
    let state = 'queued';
    for (const deadline = Date.now() + 90_000; ['queued', 'running'].includes(state) && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      state = ((await (await fetch(`${url}/api/people-imports/runs/${runId}`, { headers: auth })).json()) as { data: { status: string } }).data.status;
    }
    expect(['queued', 'running']).not.toContain(state);
    const settled = Date.now() + 10_000;
    while (Date.now() < settled && !statuses.every((seen) => seen.at(-1) === 'succeeded')) await new Promise((resolve) => setTimeout(resolve, 100));
    // Every socket, on either process, saw the job from its first status to its last.
    for (const seen of statuses) {
      expect(seen[0]).toBe('queued');
      expect(seen).toContain('running');
      expect(seen.at(-1)).toBe('succeeded');
    }
    // Revoking the token (one request, one process) ends all four sockets.
    const dropped = opened.map((socket) => disconnection(socket));
    const revoked = await fetch(`${url}/api/me/api-tokens/${created.data.id}`, { method: 'DELETE', headers: auth });
    expect(revoked.status).toBe(200);
    expect(await Promise.all(dropped)).toEqual(Array(4).fill('io server disconnect'));
  }, 150_000);

  it('writes a burst from both processes at once without one error', async () => {
    // 300 API tokens created at once on fresh connections: each a write transaction, the two processes taking turns.
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, i) => fetch(`${url}/api/me/api-tokens`, { method: 'POST', headers: { ...auth, Connection: 'close' }, body: JSON.stringify({ name: `burst ${i}` }) })),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    const listed = (await (await fetch(`${url}/api/me/api-tokens`, { headers: auth })).json()) as { data: unknown[] };
    // The burst's 300, the bootstrap token and none of the revoked one.
    expect(listed.data.length).toBeGreaterThanOrEqual(300);
  });

  it('counts a rate limit once across the processes', async () => {
    const track = () => fetch(`${url}/api/events/track`, { method: 'POST', headers: { 'Content-Type': 'application/json', Connection: 'close' }, body: JSON.stringify({ anonymousId: 'a-cluster-test', event: 'Counted' }) });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await track()).status);
    // 6 a minute per address on the whole node (per process it would have let 12 through).
    expect(statuses.filter((status) => status === 202)).toHaveLength(6);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
  });

  it('drains every process on SIGTERM and exits 0', async () => {
    const pid = child.pid ?? 0;
    const processes = [...childrenOf(pid).keys()];
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(processes).toHaveLength(2);
    const running = new Set(readdirSync('/proc'));
    expect(processes.filter((process) => running.has(String(process)))).toEqual([]);
  });
});
