import path from 'node:path';
import { defaultWebProcesses } from './cluster/cpus.js';

export type DatabaseEngine = 'sqlite' | 'postgres';

/** What a process does: `web` answers HTTP and sockets; `worker` runs jobs, the event outbox and the clean-ups. */
export type ProcessRole = 'web' | 'worker';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  engine: DatabaseEngine;
  /** Postgres schema to use; lets test runs live side by side in one database. */
  databaseSchema: string | undefined;
  logLevel: string;
  /** Validate every response against the contract (on in tests). */
  validateResponses: boolean;
  /** Requests per client per minute before 429. */
  rateLimitPerMinute: number;
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number;
  /** Where the built PWA lives; served with an SPA fallback when present. */
  webDist: string;
  publicUrl: string;
  seedDemo: boolean;
  /** smtp://user:pass@host:port; without it e-mail is held in the outbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Shared secret of the help-desk provider's identity verification; unset = help desk off. */
  helpDeskSecret: string | undefined;
  /** Allow http:// chat webhooks (local testing only). */
  allowHttpWebhooks: boolean;
  /** Let chat webhooks be on loopback, private and other special-purpose addresses (local testing, an internal chat server). */
  webhooksAllowPrivateNetworks: boolean;
  /** The chat app's OAuth client (`PAYBENCH_CHAT_OAUTH_*`); unset = the chat app cannot be installed, the webhook remains. */
  chatOAuth: ChatOAuthConfig | undefined;
  /** Analytics events per client address per minute. */
  eventsPerMinute: number;
  /** How often the job worker looks for work when idle. */
  jobPollMs: number;
  /** How often a running job's worker renews its lease (`jobs.heartbeat_at`). */
  jobHeartbeatMs: number;
  /** A running job whose lease is older than this belongs to a worker that died; another worker takes it. */
  jobStaleMs: number;
  /** Host names (an old brand host, the admin host) whose requests are moved to `publicUrl`, lower case. */
  redirectHosts: string[];
  /** The insights agent's OpenAI-compatible chat-completions endpoint; unset = the built-in interpreter. */
  agentUrl: string | undefined;
  /** The model named to that endpoint. */
  agentModel: string;
  /** Its API key (sent as a bearer token), if it needs one. */
  agentKey: string | undefined;
  /** `PAYBENCH_ROLES`: both by default; on SQLite (one process) always both. */
  roles: { web: boolean; worker: boolean };
  /** On SIGTERM, how long readiness answers `draining` before the node stops taking requests (lets a load balancer notice). */
  drainDelayMs: number;
  /** Where files are kept (`PAYBENCH_STORAGE`: directory, s3 or database). */
  storage: StorageConfig;
  /** On SIGTERM, how long the node may take to finish requests and its job before it exits anyway. */
  shutdownTimeoutMs: number;
  /** `PAYBENCH_WEB_PROCESSES`: web processes sharing the port on this node (default: one per core; an in-memory database: one). */
  webProcesses: number;
}

/** `PAYBENCH_ROLES`: `web`, `worker` or `web,worker` (the default). */
export function rolesFrom(value: string | undefined, engine: DatabaseEngine): { web: boolean; worker: boolean } {
  const given = (value ?? '').split(',').map((role) => role.trim().toLowerCase()).filter(Boolean);
  if (!given.length) return { web: true, worker: true };
  const wrong = given.find((role) => role !== 'web' && role !== 'worker');
  if (wrong) throw new Error(`PAYBENCH_ROLES must be web, worker or web,worker, got "${value}"`);
  const roles = { web: given.includes('web'), worker: given.includes('worker') };
  if (engine === 'sqlite' && !(roles.web && roles.worker)) {
    throw new Error('PAYBENCH_ROLES: a SQLite database belongs to one process, which is both web and worker; use Postgres (DATABASE_URL) to run web and worker nodes apart');
  }
  return roles;
}

/** `PAYBENCH_WEB_PROCESSES`: at least one; one per core the CPU quota allows by default; one for an in-memory SQLite database (private to its process). */
function webProcessesFrom(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): number {
  const processes = intFrom(env.PAYBENCH_WEB_PROCESSES, defaultWebProcesses(), 'PAYBENCH_WEB_PROCESSES');
  if (processes < 1) throw new Error('PAYBENCH_WEB_PROCESSES must be 1 or more');
  return databaseUrl?.includes(':memory:') ? 1 : processes;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

const HOST_NAME = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$/;

function hostsFrom(value: string | undefined): string[] {
  const hosts = (value ?? '').split(',').map((host) => host.trim().toLowerCase()).filter(Boolean);
  const wrong = hosts.find((host) => !HOST_NAME.test(host));
  if (wrong) throw new Error(`PAYBENCH_REDIRECT_HOSTS must list host names separated by commas (old.example.com,admin.example.com), got "${wrong}"`);
  return hosts;
}

function agentUrlFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(value)) throw new Error(`PAYBENCH_AGENT_URL must be an http(s) URL of an OpenAI-compatible API, got "${value}"`);
  return value;
}

/** The job lease: renewed every `jobHeartbeatMs`, given up as abandoned after `jobStaleMs` without renewal. */
function jobLeaseFrom(env: NodeJS.ProcessEnv): { jobHeartbeatMs: number; jobStaleMs: number } {
  const jobHeartbeatMs = intFrom(env.PAYBENCH_JOB_HEARTBEAT_MS, 5_000, 'PAYBENCH_JOB_HEARTBEAT_MS');
  const jobStaleMs = intFrom(env.PAYBENCH_JOB_STALE_MS, 30_000, 'PAYBENCH_JOB_STALE_MS');
  if (jobStaleMs < 2 * jobHeartbeatMs) throw new Error(`PAYBENCH_JOB_STALE_MS (${jobStaleMs}) must be at least twice PAYBENCH_JOB_HEARTBEAT_MS (${jobHeartbeatMs}), or a live worker's job is taken from it`);
  return { jobHeartbeatMs, jobStaleMs };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env.PORT, 3000, 'PORT');
  const host = env.HOST ?? '0.0.0.0';
  const databaseUrl = env.DATABASE_URL || undefined;
  const engine: DatabaseEngine = databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
  if (databaseUrl && engine === 'sqlite' && !databaseUrl.startsWith('sqlite:')) {
    throw new Error(`DATABASE_URL must start with postgres:// or sqlite:, got "${databaseUrl}"`);
  }
  const repoRoot = path.resolve(import.meta.dirname, '..', '..');
  const dataDir = path.resolve(env.PAYBENCH_DATA_DIR ?? './data');
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    engine,
    databaseSchema: env.PAYBENCH_DATABASE_SCHEMA || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    validateResponses: env.PAYBENCH_VALIDATE_RESPONSES === 'true',
    rateLimitPerMinute: intFrom(env.PAYBENCH_RATE_LIMIT_PER_MINUTE, 600, 'PAYBENCH_RATE_LIMIT_PER_MINUTE'),
    bodyLimitBytes: intFrom(env.PAYBENCH_BODY_LIMIT_BYTES, 1024 * 1024, 'PAYBENCH_BODY_LIMIT_BYTES'),
    webDist: path.resolve(env.PAYBENCH_WEB_DIST ?? path.join(repoRoot, 'web', 'dist')),
    publicUrl: env.PAYBENCH_PUBLIC_URL ?? `http://localhost:${port}`,
    seedDemo: env.PAYBENCH_SEED_DEMO !== 'false',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Paybench <no-reply@paybench.local>',
    helpDeskSecret: env.PAYBENCH_HELP_DESK_SECRET || undefined,
    allowHttpWebhooks: env.PAYBENCH_ALLOW_HTTP_WEBHOOKS === 'true',
    webhooksAllowPrivateNetworks: env.PAYBENCH_WEBHOOKS_ALLOW_PRIVATE_NETWORKS === 'true',
    chatOAuth: chatOAuthFrom(env),
    eventsPerMinute: intFrom(env.PAYBENCH_EVENTS_PER_MINUTE, 120, 'PAYBENCH_EVENTS_PER_MINUTE'),
    jobPollMs: intFrom(env.PAYBENCH_JOB_POLL_MS, 1000, 'PAYBENCH_JOB_POLL_MS'),
    ...jobLeaseFrom(env),
    redirectHosts: hostsFrom(env.PAYBENCH_REDIRECT_HOSTS),
    agentUrl: agentUrlFrom(env.PAYBENCH_AGENT_URL),
    agentModel: env.PAYBENCH_AGENT_MODEL || 'gpt-4o-mini',
    agentKey: env.PAYBENCH_AGENT_KEY || undefined,
    roles: rolesFrom(env.PAYBENCH_ROLES, engine),
    storage: storageConfigFrom(env, dataDir),
    drainDelayMs: intFrom(env.PAYBENCH_DRAIN_DELAY_MS, 0, 'PAYBENCH_DRAIN_DELAY_MS'),
    shutdownTimeoutMs: intFrom(env.PAYBENCH_SHUTDOWN_TIMEOUT_MS, 25_000, 'PAYBENCH_SHUTDOWN_TIMEOUT_MS'),
    webProcesses: webProcessesFrom(env, databaseUrl),
  };
}

/** The chat app's OAuth client (notifications/chatApp/provider.ts uses it). */
export interface ChatOAuthConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
}

const ENV = {
  clientId: 'PAYBENCH_CHAT_OAUTH_CLIENT_ID',
  clientSecret: 'PAYBENCH_CHAT_OAUTH_CLIENT_SECRET',
  authorizeUrl: 'PAYBENCH_CHAT_OAUTH_AUTHORIZE_URL',
  tokenUrl: 'PAYBENCH_CHAT_OAUTH_TOKEN_URL',
  apiUrl: 'PAYBENCH_CHAT_OAUTH_API_URL',
} as const satisfies Record<keyof ChatOAuthConfig, string>;

/** The chat app's OAuth client from the environment: all five variables, or none (not configured). */
export function chatOAuthFrom(env: NodeJS.ProcessEnv): ChatOAuthConfig | undefined {
  const entries = Object.entries(ENV) as [keyof ChatOAuthConfig, string][];
  const given = entries.filter(([, name]) => env[name]);
  if (given.length === 0) return undefined;
  const missing = entries.filter(([, name]) => !env[name]).map(([, name]) => name);
  if (missing.length) throw new Error(`The chat app's OAuth needs ${missing.join(', ')} as well`);
  const config = Object.fromEntries(entries.map(([key, name]) => [key, String(env[name])])) as unknown as ChatOAuthConfig;
  for (const key of ['authorizeUrl', 'tokenUrl', 'apiUrl'] as const) {
    if (!/^https?:\/\//.test(config[key])) throw new Error(`${ENV[key]} must be an http(s) URL, got "${config[key]}"`);
  }
  return config;
}

/** Where the product keeps its files (platform/storage): `directory` (default), `s3` or `database`. */
export type StorageBackend = 'directory' | 's3' | 'database';

/** An S3-compatible bucket (AWS S3, MinIO, Ceph, Garage, R2…) from `PAYBENCH_S3_*`. */
export interface S3StorageConfig {
  bucket: string;
  /** Another endpoint than AWS's, e.g. `http://minio:9000`. */
  endpoint: string | undefined;
  region: string;
  /** `bucket` in the path rather than the host name (MinIO and most self-hosted stores need it). */
  forcePathStyle: boolean;
  /** Keys are stored under this prefix (e.g. `paybench/`). */
  prefix: string;
  /** Server-side encryption asked of the store: `AES256` or `aws:kms` (with `kmsKeyId`). */
  serverSideEncryption: 'AES256' | 'aws:kms' | undefined;
  kmsKeyId: string | undefined;
  /** Given explicitly, else the SDK's usual chain (AWS_ACCESS_KEY_ID…, a web identity, an instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `signed-url`: downloads answer with a redirect to a short-lived signed URL; `stream`: through the API. */
  downloads: 'stream' | 'signed-url';
  /** How long a signed URL works. */
  urlExpiresSeconds: number;
}

/** `PAYBENCH_STORAGE` and what its backend needs. */
export interface StorageConfig {
  backend: StorageBackend;
  /** For `directory`: where the files are (default: `downloads` in the data directory). */
  directory: string;
  s3: S3StorageConfig | undefined;
}

const bool = (value: string | undefined, name: string, fallback: boolean): boolean => {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`${name} must be true or false, got "${value}"`);
};

/** The storage settings from the environment; a wrong or missing one stops start-up with its name. */
export function storageConfigFrom(env: NodeJS.ProcessEnv, dataDir: string): StorageConfig {
  const backend = (env.PAYBENCH_STORAGE || 'directory') as StorageBackend;
  if (!['directory', 's3', 'database'].includes(backend)) throw new Error(`PAYBENCH_STORAGE must be directory, s3 or database, got "${backend}"`);
  const directory = path.resolve(env.PAYBENCH_STORAGE_DIR || path.join(dataDir, 'downloads'));
  if (backend !== 's3') return { backend, directory, s3: undefined };
  const bucket = env.PAYBENCH_S3_BUCKET;
  if (!bucket) throw new Error('PAYBENCH_STORAGE=s3 needs PAYBENCH_S3_BUCKET');
  const endpoint = env.PAYBENCH_S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\/[^\s]+$/.test(endpoint)) throw new Error(`PAYBENCH_S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  const sse = env.PAYBENCH_S3_SSE || undefined;
  if (sse && sse !== 'AES256' && sse !== 'aws:kms') throw new Error(`PAYBENCH_S3_SSE must be AES256 or aws:kms, got "${sse}"`);
  const downloads = env.PAYBENCH_S3_DOWNLOADS || 'stream';
  if (downloads !== 'stream' && downloads !== 'signed-url') throw new Error(`PAYBENCH_S3_DOWNLOADS must be stream or signed-url, got "${downloads}"`);
  const expires = Number(env.PAYBENCH_S3_URL_EXPIRES_SECONDS || 300);
  if (!Number.isInteger(expires) || expires < 1 || expires > 7 * 24 * 3600) throw new Error('PAYBENCH_S3_URL_EXPIRES_SECONDS must be a whole number of seconds from 1 to 604800');
  const accessKeyId = env.PAYBENCH_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.PAYBENCH_S3_SECRET_ACCESS_KEY;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new Error('PAYBENCH_S3_ACCESS_KEY_ID and PAYBENCH_S3_SECRET_ACCESS_KEY go together');
  return {
    backend,
    directory,
    s3: {
      bucket,
      endpoint,
      region: env.PAYBENCH_S3_REGION || env.AWS_REGION || 'us-east-1',
      forcePathStyle: bool(env.PAYBENCH_S3_FORCE_PATH_STYLE, 'PAYBENCH_S3_FORCE_PATH_STYLE', Boolean(endpoint)),
      prefix: env.PAYBENCH_S3_PREFIX ?? '',
      serverSideEncryption: sse as 'AES256' | 'aws:kms' | undefined,
      kmsKeyId: env.PAYBENCH_S3_SSE_KMS_KEY_ID || undefined,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      downloads,
      urlExpiresSeconds: expires,
    },
  };
}

