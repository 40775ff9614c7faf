import type { Knex } from 'knex';
import type { VersionSource } from './access/authCache.js';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { DownloadStorage } from './downloads/storage.js';
import type { Contract } from './http/contract.js';
import type { JobQueue } from './jobs/queue.js';
import type { Mailer } from './notifications/mailer.js';
import type { Realtime } from './realtime/server.js';
import type { TxtResolver } from './identity/domains/resolver.js';
import type { Lifecycle } from './platform/lifecycle.js';

/** The long-lived pieces a request may use, created once at start-up. */
export interface AppDeps {
  config: Config;
  db: Knex;
  log: Logger;
  contract: Contract;
  version: string;
  startedAt: Date;
  jobs: JobQueue;
  downloads: DownloadStorage;
  realtime: Realtime;
  mailer: Mailer;
  /** Reads DNS TXT records to prove a company's domain; the system's DNS when none is set (tests set their own). */
  txtResolver?: TxtResolver;
  /** Changes with every commit that writes data; answers kept for reading are checked against it (none: nothing is kept). */
  dataVersion?: VersionSource;
  /** Starting, ready or draining, and this node's roles (none: a node that is both and ready). */
  lifecycle?: Lifecycle;
}
