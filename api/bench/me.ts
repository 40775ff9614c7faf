/**
 * npm run bench:me [-- --connections N] [-- --seconds N] [-- --engine sqlite|postgres] [-- --log-level info|silent] [-- --reference] [-- --cpu-prof DIR] [-- --json]
 *
 * `GET /api/me` with a personal API token, the cheapest authenticated read: what authentication
 * costs per request. A real server in a child process on a temporary SQLite data directory (or a
 * fresh Postgres schema with `--engine postgres`), N kept-alive connections each sending its next
 * request as soon as the last is answered, for a few seconds after a short warm-up. The server logs
 * at `info` by default, as a deployment does (one access-log line per request). `--reference` also
 * loads a bare Koa handler answering the same JSON the same way: what this machine can do at all,
 * which puts the figure in proportion on a busy or a slow machine. The server's own CPU time per
 * request is printed beside it: unlike requests per second it does not depend on what else the
 * machine is doing. `--cpu-prof DIR` writes the server's V8 CPU profile there as it stops.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { type Engine, type Latency, call, createBenchCompany, describeLatency, describeLoad, latency, machineLoad, note, numberOption, option, startBenchServer } from './server.js';

/** `GET /api/me` with an API token answers at least this share of bare Koa's requests per second, measured in the same run. */
const ME_TARGET_RATIO = 0.2;

interface Options {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  engine: Engine;
  logLevel: string;
  reference: boolean;
  cpuProfileDir: string | undefined;
  json: boolean;
}

function parseOptions(argv: string[]): Options {
  const engine = option(argv, '--engine') ?? 'sqlite';
  if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`--engine must be sqlite or postgres, not ${engine}`);
  return {
    connections: numberOption(argv, '--connections', 32),
    seconds: numberOption(argv, '--seconds', 5),
    warmupSeconds: numberOption(argv, '--warmup', 1),
    engine,
    logLevel: option(argv, '--log-level') ?? 'info',
    reference: argv.includes('--reference'),
    cpuProfileDir: option(argv, '--cpu-prof'),
    json: argv.includes('--json'),
  };
}

interface Run {
  requests: number;
  errors: number;
  firstError: string | undefined;
  seconds: number;
  samples: number[];
}

/**
 * One kept-alive connection that sends the same request again as soon as the answer is complete,
 * until `deadline`. Plain sockets and a prepared request: Node's HTTP client would cost more than
 * the server it measures on a small machine.
 */
function connection(target: URL, request: Buffer, deadline: number, answered: (ms: number, status: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    socket.setNoDelay(true);
    let pending: Buffer = Buffer.alloc(0);
    let sentAt = 0;
    const next = (): void => {
      if (performance.now() >= deadline) return void socket.end();
      sentAt = performance.now();
      socket.write(request);
    };
    socket.on('connect', next);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = pending.subarray(0, headEnd).toString('latin1');
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
        if (length === undefined) return void socket.destroy(new Error(`an answer without Content-Length: ${head.split('\r\n')[0] ?? ''}`));
        const end = headEnd + 4 + Number(length);
        if (pending.length < end) return;
        pending = pending.subarray(end);
        answered(performance.now() - sentAt, Number(head.slice(9, 12)));
        next();
      }
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

/** `connections` connections for `seconds`: every answer's latency, and the ones that were not 200. */
async function load(url: string, token: string, connections: number, seconds: number): Promise<Run> {
  const target = new URL(url);
  const request = Buffer.from(`GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${token}\r\nAccept: application/json\r\n\r\n`, 'latin1');
  const samples: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const answered = (ms: number, status: number): void => {
    samples.push(ms);
    if (status === 200) return;
    errors += 1;
    firstError ??= `answered ${status}`;
  };
  await Promise.all(
    Array.from({ length: connections }, () =>
      connection(target, request, deadline, answered).catch((error: unknown) => {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }),
    ),
  );
  return { requests: samples.length, errors, firstError, seconds: (performance.now() - started) / 1000, samples };
}

/** A bare Koa app in a child process that answers every request with `body`; resolves with its URL and a stop. */
async function bareKoa(body: string): Promise<{ url: string; stop: () => void }> {
  const code = `import Koa from 'koa'; const body = JSON.parse(process.env.BODY); const app = new Koa(); app.use((ctx) => { ctx.body = body; }); const server = app.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: path.resolve(import.meta.dirname, '..', '..'), env: { ...process.env, BODY: body }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const found = /port (\d+)/.exec(chunk.toString());
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (status) => reject(new Error(`the reference server exited (${status})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

interface Reference {
  requestsPerSecond: number;
  latency: Latency;
}

interface Figures {
  engine: Engine;
  connections: number;
  seconds: number;
  logLevel: string;
  requests: number;
  errors: number;
  requestsPerSecond: number;
  latency: Latency;
  /** The server process's CPU time (user + system) per answered request, in µs; the database's own on Postgres not included. */
  serverCpuMicrosPerRequest: number | null;
  /** The same less what the server spent meanwhile with nothing to answer (measured for 2 s before the run). */
  serverCpuMicrosPerRequestNet: number | null;
  /** The machine's load as the run ended. */
  load: ReturnType<typeof machineLoad>;
  /** A bare Koa handler answering the same JSON, loaded the same way (`--reference`). */
  bareKoa?: Reference;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  note(`${options.engine}: starting a server…`);
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfileDir)}`] : [];
  const server = await startBenchServer(options.engine, { LOG_LEVEL: options.logLevel }, profile);
  try {
    const company = await createBenchCompany(server.db, 'Bench Me');
    const url = `${server.url}/api/me`;
    const answer = await call<unknown>(url, { token: company.token });
    note(`${options.engine}: warming up for ${options.warmupSeconds} s…`);
    await load(url, company.token, options.connections, options.warmupSeconds);
    note(`${options.engine}: ${options.connections} connections for ${options.seconds} s…`);
    // What the server spends with nothing to answer (its job worker's polls), so that it can be told from what requests cost.
    const idleBefore = server.cpuMs();
    const idleStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleCpuMsPerSecond = idleBefore === null ? null : ((server.cpuMs() ?? idleBefore) - idleBefore) / ((performance.now() - idleStarted) / 1000);
    const cpuBefore = server.cpuMs();
    const run = await load(url, company.token, options.connections, options.seconds);
    const cpuAfter = server.cpuMs();
    const figures: Figures = {
      engine: options.engine,
      connections: options.connections,
      seconds: Math.round(run.seconds * 10) / 10,
      logLevel: options.logLevel,
      requests: run.requests,
      errors: run.errors,
      requestsPerSecond: Math.round(run.requests / run.seconds),
      latency: latency(run.samples),
      serverCpuMicrosPerRequest: cpuBefore !== null && cpuAfter !== null && run.requests ? Math.round(((cpuAfter - cpuBefore) * 1000) / run.requests) : null,
      serverCpuMicrosPerRequestNet:
        cpuBefore !== null && cpuAfter !== null && idleCpuMsPerSecond !== null && run.requests ? Math.round(((cpuAfter - cpuBefore - idleCpuMsPerSecond * run.seconds) * 1000) / run.requests) : null,
      load: machineLoad(),
    };
    if (options.reference) {
      note(`bare Koa: ${options.connections} connections for ${options.seconds} s…`);
      const bare = await bareKoa(JSON.stringify(answer));
      try {
        await load(bare.url, company.token, options.connections, options.warmupSeconds);
        const reference = await load(bare.url, company.token, options.connections, options.seconds);
        figures.bareKoa = { requestsPerSecond: Math.round(reference.requests / reference.seconds), latency: latency(reference.samples) };
      } finally {
        bare.stop();
      }
    }
    if (options.json) {
      process.stdout.write(`${JSON.stringify(figures)}\n`);
    } else {
      process.stdout.write(
        `GET /api/me (${figures.engine}, ${figures.connections} connections, ${figures.seconds} s, log ${figures.logLevel}): ` +
          `${figures.requestsPerSecond.toLocaleString('en-US')} requests/s, ${figures.requests.toLocaleString('en-US')} requests, ${figures.errors} errors; ${describeLatency(figures.latency)}\n`,
      );
      process.stdout.write(
        `server CPU per request: ${figures.serverCpuMicrosPerRequest ?? 'n/a'} µs, ${figures.serverCpuMicrosPerRequestNet ?? 'n/a'} µs less its idle work${figures.engine === 'postgres' ? ' (the database\'s own not included)' : ''}\n`,
      );
      if (figures.bareKoa) {
        process.stdout.write(`bare Koa, the same JSON: ${figures.bareKoa.requestsPerSecond.toLocaleString('en-US')} requests/s; ${describeLatency(figures.bareKoa.latency)}\n`);
        const ratio = figures.requestsPerSecond / figures.bareKoa.requestsPerSecond;
        process.stdout.write(`GET /api/me against bare Koa, this run: ${ratio.toFixed(2)} (target ≥ ${ME_TARGET_RATIO}: ${ratio >= ME_TARGET_RATIO ? 'ok' : 'UNDER TARGET'})\n`);
      }
      process.stdout.write(`${describeLoad(figures.load)}\n`);
    }
    if (run.errors) throw new Error(`${run.errors} requests failed (first: ${run.firstError ?? '?'})`);
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
