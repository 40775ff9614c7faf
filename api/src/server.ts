import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import type { AppDeps } from './deps.js';
import { dataVersionOf } from './access/authCache.js';
import type { DemoSignIn } from './demo/seed.js';
import { removeExpiredDownloads } from './downloads/service.js';
import { DirectoryStorage } from './downloads/storage.js';
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
import { type StartupGate, startupGate } from './http/startupGate.js';

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

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * Listens, then migrates and seeds (on a thread), loads the market release and opens the app.
 * From the moment the port opens every request is answered at once, with 503 until the app is ready,
 * and the identity provider's issuer (this server's own address) is known before it is created.
 */
export async function startServer(config: Config, log: Logger = pino({ level: config.logLevel })): Promise<RunningServer> {
  // Reading the contract is the one long stretch of synchronous work: done before the port opens.
  const contract = loadContract(path.join(REPO_ROOT, 'openapi.yaml'));
  const server = createServer();
  const gate = startupGate(server);
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  try {
    return await startApp(config, log, { server, gate, contract });
  } catch (error) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
}

async function startApp(
  config: Config,
  log: Logger,
  { server, gate, contract }: { server: Server; gate: StartupGate; contract: Contract },
): Promise<RunningServer> {
  const preparing = runInThread<PreparedDatabase>(import.meta.url, 'startupWorker', config);
  // The title index is built on a thread of its own meanwhile, so no search waits for it; if that
  // fails, the first search builds it.
  const warming = warmTitleIndex().catch((error: unknown) => log.warn({ err: error }, 'title index not built at start-up'));
  const prepared = await preparing;
  if (prepared.applied.length) log.info({ applied: prepared.applied }, 'migrations applied');
  if (prepared.currencies || prepared.rates) log.info({ currencies: prepared.currencies, rates: prepared.rates }, 'reference data loaded');
  if (prepared.bootstrapped) log.info({ email: process.env.PAYBENCH_BOOTSTRAP_ADMIN_EMAIL }, 'bootstrap internal admin ensured');
  const demo = prepared.demo;
  const db = await openDatabase(config);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.port === 0 ? `http://127.0.0.1:${port}` : config.publicUrl;
  const downloads = new DirectoryStorage(path.join(config.dataDir, 'downloads'));
  const mailer = createMailer(db, log, config.smtpUrl, config.mailFrom);
  const base = { config: { ...config, publicUrl: url }, db, log, contract, version: readVersion(), startedAt: new Date() };
  // Realtime authenticates sockets with the identity provider, which is created with the deps below.
  const identityRef: { current?: IdentityProvider } = {};
  const realtime = await startRealtime(server, { config, db, log, identity: () => identityRef.current });
  const jobs = new JobQueue(db, log, realtime, { pollMs: config.jobPollMs, singleNode: config.engine === 'sqlite' });
  const deps: AppDeps = { ...base, jobs, downloads, realtime, mailer, dataVersion: dataVersionOf(db) };
  for (const kind of allJobKinds) jobs.registerKind(kind, deps);
  const relay = new EventRelay(db, log, allSubscribers, () => deps);
  jobs.worker.deliverEvents(relay);
  await loadServedRelease(deps);
  const identity = await createIdentityProvider(deps);
  identityRef.current = identity;
  const app = createApp(deps, identity);
  await warming;
  gate.open(app.callback());
  await jobs.worker.start();
  const cleanup = setInterval(() => {
    void removeExpiredDownloads(db, downloads).catch((error: unknown) => log.error({ err: error }, 'download cleanup failed'));
    void relay.prune(new Date(Date.now() - EVENT_HISTORY_MS)).catch((error: unknown) => log.error({ err: error }, 'event outbox cleanup failed'));
  }, 3600_000);
  cleanup.unref();

  return {
    url,
    deps,
    server,
    demoCreated: demo.created,
    demoSignIn: demo.signIn,
    async close() {
      clearInterval(cleanup);
      await jobs.worker.stop();
      // Closing realtime closes the HTTP server too; requests in flight finish first.
      await realtime.close();
      await db.destroy();
    },
  };
}
