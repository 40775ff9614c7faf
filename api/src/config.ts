import path from 'node:path';

export type DatabaseEngine = 'sqlite' | 'postgres';

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
  /** Host names (an old brand host, the admin host) whose requests are moved to `publicUrl`, lower case. */
  redirectHosts: string[];
  /** The insights agent's OpenAI-compatible chat-completions endpoint; unset = the built-in interpreter. */
  agentUrl: string | undefined;
  /** The model named to that endpoint. */
  agentModel: string;
  /** Its API key (sent as a bearer token), if it needs one. */
  agentKey: string | undefined;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env.PORT, 3000, 'PORT');
  const host = env.HOST ?? '0.0.0.0';
  const databaseUrl = env.DATABASE_URL || undefined;
  const engine: DatabaseEngine = databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
  if (databaseUrl && engine === 'sqlite' && !databaseUrl.startsWith('sqlite:')) {
    throw new Error(`DATABASE_URL must start with postgres:// or sqlite:, got "${databaseUrl}"`);
  }
  const repoRoot = path.resolve(import.meta.dirname, '..', '..');
  return {
    port,
    host,
    dataDir: path.resolve(env.PAYBENCH_DATA_DIR ?? './data'),
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
    redirectHosts: hostsFrom(env.PAYBENCH_REDIRECT_HOSTS),
    agentUrl: agentUrlFrom(env.PAYBENCH_AGENT_URL),
    agentModel: env.PAYBENCH_AGENT_MODEL || 'gpt-4o-mini',
    agentKey: env.PAYBENCH_AGENT_KEY || undefined,
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
