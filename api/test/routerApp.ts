import type { Server } from 'node:http';
import path from 'node:path';
import Koa from 'koa';
import type { Knex } from 'knex';
import pino from 'pino';
import { inject } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { AppDeps } from '../src/deps.js';
import { type Contract, loadContract } from '../src/http/contract.js';
import { errorHandler } from '../src/http/errorHandler.js';
import type { RegisteredOperation } from '../src/kernel/operations.js';
import { contractRouter } from '../src/http/router.js';
import type { IdentityProvider } from '../src/access/identityProvider.js';
import { createMailer } from '../src/notifications/mailer.js';
import { allOperations } from '../src/modules.js';

export interface RouterApp {
  url: string;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * The real contract router on the shared test server's database, in a Koa app of its own: for
 * tests that need another identity provider, a fresh rate limit, or a handler swapped for a probe.
 * Requests still go over HTTP and through authentication, validation and the tenant transaction.
 */
export async function startRouterApp(
  db: Knex,
  options: { operations?: readonly RegisteredOperation[]; identity?: IdentityProvider; env?: Record<string, string>; contract?: Contract; deps?: Partial<AppDeps> } = {},
): Promise<RouterApp> {
  const log = pino({ level: 'silent' });
  const config = loadConfig({ ...process.env, ...inject('serverEnv'), ...options.env });
  const contract = options.contract ?? loadContract(path.resolve(import.meta.dirname, '..', '..', 'openapi.yaml'));
  const deps = { config, db, log, contract, mailer: createMailer(db, log, undefined, config.mailFrom), ...options.deps } as unknown as AppDeps;
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.log = log;
    ctx.state.requestId = `test-${Math.random().toString(36).slice(2)}`;
    await next();
  });
  app.use(errorHandler());
  app.use(contractRouter(deps, options.operations ?? allOperations, options.identity).routes());
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { url, deps, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
