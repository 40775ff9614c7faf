import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { seedCurrencies } from './currencies/seed.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrations.js';
import type { AppDeps } from './deps.js';
import { bootstrapAdmin } from './demo/bootstrap.js';
import { type DemoSignIn, seedDemoCompany } from './demo/seed.js';
import { seedForexRates } from './forex/seed.js';
import { removeExpiredDownloads } from './downloads/service.js';
import { DirectoryStorage } from './downloads/storage.js';
import { loadContract } from './http/contract.js';
import { createIdentityProvider } from './identity/provider/index.js';
import type { IdentityProvider } from './identity/provider/types.js';
import { registerJobTypes } from './jobTypes.js';
import { JobQueue } from './jobs/queue.js';
import { loadServedRelease } from './market/releases.js';
import { createMailer } from './notifications/mailer.js';
import { notifyJobEnded } from './notifications/service.js';
import { startRealtime } from './realtime/server.js';

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

/** Opens the database, migrates, seeds reference and demo data, and listens. */
export async function startServer(config: Config, log: Logger = pino({ level: config.logLevel })): Promise<RunningServer> {
  const db = await openDatabase(config);
  const applied = await migrateToLatest(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const currencies = await seedCurrencies(db);
  const rates = await seedForexRates(db);
  if (currencies || rates) log.info({ currencies, rates }, 'reference data loaded');
  const demo = config.seedDemo ? await seedDemoCompany(db, config.dataDir) : { created: false, signIn: undefined };
  if (await bootstrapAdmin(db, process.env.PAYBENCH_BOOTSTRAP_ADMIN_EMAIL, process.env.PAYBENCH_BOOTSTRAP_TOKEN)) {
    log.info({ email: process.env.PAYBENCH_BOOTSTRAP_ADMIN_EMAIL }, 'bootstrap internal admin ensured');
  }

  // Listen first: the identity provider's issuer is this server's own address, known only now.
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.port === 0 ? `http://127.0.0.1:${port}` : config.publicUrl;
  const downloads = new DirectoryStorage(path.join(config.dataDir, 'downloads'));
  const mailer = createMailer(db, log, config.smtpUrl, config.mailFrom);
  const base = { config: { ...config, publicUrl: url }, db, log, contract: loadContract(path.join(REPO_ROOT, 'openapi.yaml')), version: readVersion(), startedAt: new Date() };
  // Realtime authenticates sockets with the identity provider, which is created with the deps below.
  const identityRef: { current?: IdentityProvider } = {};
  const realtime = await startRealtime(server, { config, db, log, identity: () => identityRef.current });
  const jobs = new JobQueue(db, log, realtime, { pollMs: config.jobPollMs, singleNode: config.engine === 'sqlite' });
  const deps: AppDeps = { ...base, jobs, downloads, realtime, mailer };
  jobs.onEnded = (job) => void notifyJobEnded(db, mailer, log, url, job).catch((error: unknown) => log.error({ err: error }, 'job notification failed'));
  registerJobTypes(jobs, deps);
  await loadServedRelease(deps);
  const identity = await createIdentityProvider(deps);
  identityRef.current = identity;
  const app = createApp(deps, identity);
  server.on('request', app.callback());
  await jobs.worker.start();
  const cleanup = setInterval(() => void removeExpiredDownloads(db, downloads).catch((error: unknown) => log.error({ err: error }, 'download cleanup failed')), 3600_000);
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
