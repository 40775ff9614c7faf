import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Contract } from './http/contract.js';

/** The long-lived pieces a request may use, created once at start-up. */
export interface AppDeps {
  config: Config;
  db: Knex;
  log: Logger;
  contract: Contract;
  version: string;
  startedAt: Date;
}
