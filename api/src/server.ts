import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import type { AppDeps } from './deps.js';
import { dataVersionOf } from './access/authCache.js';
import type { DemoSignIn } from './demo/seed.js';
import { removeExpiredDownloads } from './downloads/service.js';
import { createFileStorage } from './platform/storage/index.js';
import { type Contract, loadContract } from './http/contract.js';
import { createIdentityProvider } from './identity/provider/index.js';
import type { IdentityProvider } from './access/identityProvider.js';
import { JobQueue } from './jobs/queue.js';
import { loadServedRelease } from './market/releases.js';
import { warmTitleIndex } from './market/titles/index.js';
import { createMailer } from './notifications/mailer.js';
import { allJobKinds, allSubscribers } from './modules.js';
import { EventRelay } from './platform/outbox.js';
import { startRealtime } from './realtime/server.js';
import type { PreparedDatabase } from './startupWorker.js';
import { runInThread } from './threads/start.js';
import { answerClientErrors } from './http/clientErrors.js';
import { type StartupGate, startupGate } from './kernel/startupGate.js';
import { probesOnly } from './http/workerNode.js';
import { lifecycleOf } from './platform/lifecycle.js';

/** Delivered events are kept a week (the audit log keeps the record for good). */
const EVENT_HISTORY_MS = 7 * 24 * 3600_000;

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface RunningServer {
  url: string;
  deps: AppDeps;
  server: Server;
  demoCreated: boolean;
  demoSignIn: DemoSignIn | undefined;
  close(): Promise<void>;
}

export function readVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * Listens, then migrates and seeds (on a thread), loads the market release and opens the app.
 * From the moment the port opens every request is answered at once, with 503 until the app is ready,
 * and the identity provider's issuer (this server's own address) is known before it is created.
 */
/** Migrations, reference data, the demo company and the bootstrap admin, on a thread. */
export function prepareDatabase(config: Config): Promise<PreparedDatabase> {
  return runInThread<PreparedDatabase>(import.meta.url, 'startupWorker', config);
}

export interface StartOptions {
  /** The database was prepared already (by a cluster's primary): start-up skips it. */
  prepared?: PreparedDatabase;
  /**
   * Listen only once the app is ready (a web process of a cluster: the port is shared, and a
   * process that is still starting would answer its share of requests with 503).
   */
  listenWhenReady?: boolean;
  /** Waits until the port may be opened (a cluster's primary holds it while the processes load). */
  beforeListen?: () => Promise<void>;
}

function listen(server: Server, config: Config): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
}

export async function startServer(config: Config, log: Logger = pino({ level: config.logLevel }), options: StartOptions = {}): Promise<RunningServer> {
  // Reading the contract is the one long stretch of synchronous work: done before the port opens.
  const contract = loadContract(path.join(REPO_ROOT, 'openapi.yaml'));
  const server = createServer();
  const gate = startupGate(server);
  answerClientErrors(server);
  const open = async (): Promise<void> => {
    await options.beforeListen?.();
    await listen(server, config);
  };
  if (!options.listenWhenReady) await open();
  try {
    const running = await startApp(config, log, { server, gate, contract, prepared: options.prepared });
    if (options.listenWhenReady) await open();
    return running;
  } catch (error) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

async function startApp(
  config: Config,
  log: Logger,
  { server, gate, contract, prepared: given }: { server: Server; gate: StartupGate; contract: Contract; prepared: PreparedDatabase | undefined },
): Promise<RunningServer> {
  const preparing = given ? Promise.resolve(given) : prepareDatabase(config);
  // The title index is built on a thread of its own meanwhile, so no search waits for it; if that
  // fails, the first search builds it.
  const warming = warmTitleIndex().catch((error: unknown) => log.warn({ err: error }, 'title index not built at start-up'));
  const prepared = await preparing;
  if (!given && prepared.applied.length) log.info({ applied: prepared.applied }, 'migrations applied');
  if (!given && (prepared.currencies || prepared.rates)) log.info({ currencies: prepared.currencies, rates: prepared.rates }, 'reference data loaded');
  if (!given && prepared.bootstrapped) log.info({ email: process.env.PAYBENCH_BOOTSTRAP_ADMIN_EMAIL }, 'bootstrap internal admin ensured');
  const demo = prepared.demo;
  const db = await openDatabase(config);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.port === 0 ? `http://127.0.0.1:${port}` : config.publicUrl;
  const downloads = createFileStorage(config.storage, db);
  const mailer = createMailer(db, log, config.smtpUrl, config.mailFrom);
  const base = { config: { ...config, publicUrl: url }, db, log, contract, version: readVersion(), startedAt: new Date() };
  // Realtime authenticates sockets with the identity provider, which is created with the deps below.
  const identityRef: { current?: IdentityProvider } = {};
  // A worker-only node takes no sockets: its realtime only publishes (through Postgres) to the web nodes' sockets.
  const realtime = await startRealtime(config.roles.web ? server : createServer(), { config, db, log, identity: () => identityRef.current });
  const jobs = new JobQueue(db, log, realtime, { pollMs: config.jobPollMs, heartbeatMs: config.jobHeartbeatMs, staleMs: config.jobStaleMs, singleNode: config.engine === 'sqlite' });
  const lifecycle = lifecycleOf(config.roles);
  const deps: AppDeps = { ...base, jobs, downloads, realtime, mailer, dataVersion: dataVersionOf(db), lifecycle };
  for (const kind of allJobKinds) jobs.registerKind(kind, deps);
  const relay = new EventRelay(db, log, allSubscribers, () => deps);
  jobs.worker.deliverEvents(relay);
  await loadServedRelease(deps);
  const identity = await createIdentityProvider(deps);
  identityRef.current = identity;
  const app = createApp(deps, identity);
  await warming;
  lifecycle.state = 'ready';
  gate.open(config.roles.web ? app.callback() : probesOnly(app.callback()));
  // Jobs, the event outbox and the clean-ups run on worker nodes only.
  if (config.roles.worker) await jobs.worker.start();
  // The hourly clean-ups are worker work too: a web-only node starts none.
  const cleanup = config.roles.worker
    ? setInterval(() => {
        void removeExpiredDownloads(db, downloads).catch((error: unknown) => log.error({ err: error }, 'download cleanup failed'));
        void relay.prune(new Date(Date.now() - EVENT_HISTORY_MS)).catch((error: unknown) => log.error({ err: error }, 'event outbox cleanup failed'));
      }, 3600_000)
    : undefined;
  cleanup?.unref();

  return {
    url,
    deps,
    server,
    demoCreated: demo.created,
    demoSignIn: demo.signIn,
    async close() {
      // Readiness answers `draining` at once; the node keeps serving while load balancers notice.
      lifecycle.state = 'draining';
      if (config.drainDelayMs) await sleep(config.drainDelayMs);
      clearInterval(cleanup);
      // The job in hand finishes, or is handed back to the queue before the shutdown deadline.
      const jobGraceMs = Math.max(0, config.shutdownTimeoutMs - config.drainDelayMs - 2_000);
      await Promise.all([
        jobs.worker.stop({ releaseAfterMs: jobGraceMs }),
        // Closing realtime closes the HTTP server too (a worker-only node's own listener is closed here); requests in flight finish first.
        realtime.close().then(() => (config.roles.web ? undefined : closeServer(server))),
      ]);
      await db.destroy();
    },
  };
}
