// What the HTTP benchmarks share: a real server in a child process (so the load generator does not
// share its event loop), a database of its own on either engine, sign-ins, and latency figures.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { replaceUserRoles } from '../src/access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../src/access/tokens.js';
import { insertUser } from '../src/access/usersStore.js';
import { insertCompany } from '../src/companies/service.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/db/ids.js';

export type Engine = 'sqlite' | 'postgres';

/** What the generated HRIS files of the benchmarks are made of: catalog names, so every row maps. */
export const BENCH_FAMILIES = ['Software Engineering', 'Product Management', 'Design', 'Sales', 'Marketing', 'Finance', 'People', 'Customer Success'];
export const BENCH_LEVELS = ['P1', 'P2', 'P3', 'P4', 'P5', 'M3', 'M4', 'M5'];
export const BENCH_PLACES = [
  ['US', 'San Francisco Bay Area', 'USD'],
  ['US', 'New York City', 'USD'],
  ['US', 'Austin', 'USD'],
  ['GB', 'London', 'GBP'],
  ['DE', 'Berlin', 'EUR'],
  ['CA', 'Toronto', 'CAD'],
] as const;

const REPO = path.resolve(import.meta.dirname, '..', '..');
const MAIN = path.join(REPO, 'api', 'src', 'main.ts');
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** `--flag value` from the command line. */
export function option(argv: string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at >= 0 ? argv[at + 1] : undefined;
}

/** `--flag N` as a positive number, else `fallback`; anything else stops the benchmark with the flag named. */
export function numberOption(argv: string[], flag: string, fallback: number): number {
  const given = option(argv, flag);
  if (given === undefined) return fallback;
  const value = Number(given);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} must be a positive number, not ${given}`);
  return value;
}

/**
 * Asks for /api/health every `everyMs` until stopped, whether or not the last answer came back, so a
 * stalled server shows as the wait of every request sent during the stall.
 */
export function pollHealth(url: string, everyMs = 50): { stop: () => Promise<{ latency: Latency; errors: number }> } {
  const pending: Promise<void>[] = [];
  const samples: number[] = [];
  let errors = 0;
  const timer = setInterval(() => {
    pending.push(
      send(`${url}/api/health`).then(
        (reply) => {
          samples.push(reply.ms);
          if (reply.status !== 200) errors += 1;
        },
        () => {
          errors += 1;
        },
      ),
    );
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return { latency: latency(samples), errors };
    },
  };
}

/** The engines to run: `--engine sqlite|postgres`, else both. */
export function enginesOf(argv: string[]): Engine[] {
  const chosen = option(argv, '--engine');
  if (chosen === 'sqlite' || chosen === 'postgres') return [chosen];
  if (chosen) throw new Error(`--engine must be sqlite or postgres, not ${chosen}`);
  return ['sqlite', 'postgres'];
}

/** Progress goes to stderr, so `--json` leaves exactly one object on stdout. */
export function note(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** What a benchmark over both engines reports: the verdict of a measured target. */
export const verdict = (met: boolean): string => (met ? 'ok' : 'OVER TARGET');

/**
 * Runs a benchmark on each engine asked for: its figures printed as a report as they come, or
 * (`--json`) one JSON object of the targets and every engine's figures at the end.
 */
export function runOnEngines<Options extends { engines: Engine[]; json: boolean }, Figures>(
  parseOptions: (argv: string[]) => Options,
  targets: unknown,
  bench: (engine: Engine, options: Options) => Promise<Figures>,
  report: (figures: Figures) => string,
): void {
  const main = async () => {
    const options = parseOptions(process.argv.slice(2));
    const results: Figures[] = [];
    for (const engine of options.engines) {
      const figures = await bench(engine, options);
      results.push(figures);
      if (!options.json) process.stdout.write(report(figures));
    }
    if (options.json) process.stdout.write(`${JSON.stringify({ targets, engines: results })}\n`);
  };
  main().catch((error: unknown) => {
    note(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  });
}

export interface BenchServer {
  engine: Engine;
  url: string;
  /** The benchmark's own connection to the server's database, for arranging data. */
  db: Knex;
  child: ChildProcess;
  /** Peak resident memory of the server process so far, in MB (Linux; null elsewhere). */
  peakRssMb(): number | null;
  /** CPU time (user + system) the server process has used so far, in ms (Linux; null elsewhere): wall time on a busy machine says little. */
  cpuMs(): number | null;
  stop(): Promise<void>;
}

/**
 * Starts `api/src/main.ts` in a child process on an ephemeral port with its own data: a temporary
 * data directory on SQLite, a fresh schema on Postgres (`DATABASE_URL`, else the local test
 * database), both removed again by `stop`. Per-address rate limiting is lifted: every client of a
 * benchmark calls from 127.0.0.1.
 */
export async function startBenchServer(engine: Engine, extraEnv: Record<string, string> = {}, nodeArgs: string[] = []): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'paybench-bench-server-'));
  const { DATABASE_URL: configuredUrl, PAYBENCH_DATABASE_SCHEMA: _schema, ...inherited } = process.env;
  const env: Record<string, string> = {
    ...(inherited as Record<string, string>),
    PAYBENCH_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    PAYBENCH_SEED_DEMO: 'false',
    PAYBENCH_RATE_LIMIT_PER_MINUTE: '100000000',
    PAYBENCH_JOB_POLL_MS: '200',
    // One web process unless a benchmark asks for more (`--processes N`).
    PAYBENCH_WEB_PROCESSES: '1',
    ...extraEnv,
  };
  const schema = `pb_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  if (engine === 'postgres') {
    env.DATABASE_URL = configuredUrl?.startsWith('postgres') ? configuredUrl : DEFAULT_POSTGRES_URL;
    env.PAYBENCH_DATABASE_SCHEMA = schema;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...nodeArgs, MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // An interrupted benchmark takes its server with it.
  const interrupted = (): void => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const onData = (chunk: Buffer): void => {
      stdout += chunk.toString();
      const found = /running at (http:\/\/\S+)/.exec(stdout);
      if (found?.[1]) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it started: ${stderr}`)));
  });
  const db = await openDatabase(loadConfig(env));
  let peak = 0;
  const peakRssMb = (): number | null => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
      if (Number.isFinite(kb) && kb > 0) peak = Math.max(peak, Math.round(kb / 1e3));
      return peak || null;
    } catch {
      return peak || null;
    }
  };
  // The server's process and, with several web processes, those it forked.
  const cpuMs = (): number | null => {
    try {
      let ticks = 0;
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        let fields: string[];
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        } catch {
          continue;
        }
        if (Number(entry) === child.pid || Number(fields[1]) === child.pid) ticks += Number(fields[11]) + Number(fields[12]);
      }
      // Clock ticks of 10 ms (USER_HZ is 100 on Linux).
      return Number.isFinite(ticks) && ticks > 0 ? ticks * 10 : null;
    } catch {
      return null;
    }
  };
  return {
    engine,
    url,
    db,
    child,
    peakRssMb,
    cpuMs,
    async stop() {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      peakRssMb();
      await db.destroy();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (engine === 'postgres') {
        const admin = knexFactory({ client: 'pg', connection: env.DATABASE_URL });
        try {
          await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
        } finally {
          await admin.destroy();
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface BenchCompany {
  id: string;
  /** An admin's API token. */
  token: string;
  /** An internal admin's token (release flags). */
  supportToken: string;
}

/** A company with an admin, and an internal admin to switch its release flags. */
export async function createBenchCompany(db: Knex, name: string): Promise<BenchCompany> {
  const company = await insertCompany(db, { name });
  const tokenFor = async (userId: string, companyId: string | null): Promise<string> => {
    const token = newTokenSecret();
    await db('api_tokens').insert({ id: newId(), company_id: companyId, user_id: userId, name: 'bench', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });
    return token;
  };
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const adminId = newId();
  await insertUser(db, { id: adminId, email: `admin@${slug}.test`, company_id: company.id, first_name: 'Bench', last_name: 'Admin', email_verified: true });
  await replaceUserRoles(db, { companyId: company.id }, adminId, [company.roleIds.get('admin') ?? '']);
  const supportId = newId();
  await insertUser(db, { id: supportId, email: `support@${slug}.test`, company_id: company.id, first_name: 'Bench', last_name: 'Support', email_verified: true, is_internal_admin: true });
  return { id: company.id, token: await tokenFor(adminId, company.id), supportToken: await tokenFor(supportId, company.id) };
}

export interface Reply {
  status: number;
  body: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

/** One request over a kept-alive connection; resolves with the status and body, never rejects on HTTP errors. */
export function send(url: string, init: { method?: string; token?: string; json?: unknown; body?: string | Buffer; contentType?: string } = {}): Promise<Reply> {
  const started = performance.now();
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const headers: Record<string, string> = {};
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (body !== undefined) {
    headers['Content-Type'] = init.json !== undefined ? 'application/json' : (init.contentType ?? 'application/octet-stream');
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
      response.on('error', reject);
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

/** Like `send`, but a non-2xx answer is an error; the parsed JSON body. */
export async function call<T>(url: string, init: Parameters<typeof send>[1] = {}): Promise<T> {
  const reply = await send(url, init);
  if (reply.status < 200 || reply.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url} answered ${reply.status}: ${reply.body.slice(0, 500)}`);
  return JSON.parse(reply.body) as T;
}

export interface Latency {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Nearest-rank percentiles, rounded to 0.1 ms. */
export function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (percent: number): number => {
    if (!sorted.length) return 0;
    const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1))] ?? 0;
    return Math.round(value * 10) / 10;
  };
  return { count: sorted.length, p50Ms: at(50), p95Ms: at(95), p99Ms: at(99), maxMs: Math.round((sorted.at(-1) ?? 0) * 10) / 10 };
}

export const describeLatency = (figures: Latency): string => `p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms, p99 ${figures.p99Ms} ms, max ${figures.maxMs} ms`;

/**
 * How busy the machine was: the load average over the last minute against its cores. Figures taken
 * on a machine shared with other work say little without it (a load above the core count means
 * the server waited for a core as well as for its work).
 */
export function machineLoad(): { loadAverage1m: number; cores: number } {
  return { loadAverage1m: Math.round((os.loadavg()[0] ?? 0) * 10) / 10, cores: os.availableParallelism() };
}

export const describeLoad = (load: { loadAverage1m: number; cores: number }): string => `machine load ${load.loadAverage1m} on ${load.cores} cores (1-minute average)`;
