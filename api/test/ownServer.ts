import type { Knex } from 'knex';
import { afterAll, beforeAll } from 'vitest';
import { type TestSmtp, startTestSmtp } from '../src/identity/testMail.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from './factories.js';
import { type ErrorBody, type Reply, request } from './http.js';
import { startTestServer } from './server.js';

export interface CallInit {
  method?: string;
  json?: unknown;
  /** The version the caller read, sent as `If-Match`. */
  ifMatch?: string | number;
}

/** A call with a bare token, in the shape the `test/fixtures.ts` helpers under src/ take. */
export type TokenCall = (path: string, init: CallInit & { token: string }) => Promise<Reply>;

export interface OwnServer {
  /** The server's address, such as `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The environment it was started with, for `testDb` and the like. */
  readonly env: Record<string, string>;
  /** The SMTP server every e-mail of this server travels to. */
  readonly smtp: TestSmtp;
  /** Its database, for arranging what a test then reads over HTTP. */
  readonly db: Knex;
  /** A company with one user per built-in role. */
  readonly company: TestCompany;
  /** The company's admin. */
  readonly admin: TestUser;
  /** A request to this server as `user`: JSON in, parsed JSON out. */
  call: <T = unknown>(user: TestUser, path: string, init?: CallInit) => Promise<Reply<T & ErrorBody>>;
  /** The same server asked with a bare token, for the fixture helpers under src/. */
  tokenCall: TokenCall;
}

interface Started {
  server: Awaited<ReturnType<typeof startTestServer>>;
  smtp: TestSmtp;
  db: Knex;
  company: TestCompany;
}

const ifMatch = (version: string | number | undefined): Record<string, string> => (version !== undefined ? { 'If-Match': `"${version}"` } : {});

/**
 * A Paybench of the test's own (own database, own settings) whose e-mail goes over a real SMTP
 * server, with a company in it: started before the file's (or the describe's) tests and stopped after
 * them. Call it before the test's own `beforeAll`: hooks run in the order they are declared, so that
 * one finds everything ready.
 */
export function ownServer(companyName: string, env: Record<string, string> = {}): OwnServer {
  let started: Started | undefined;
  const ready = (): Started => {
    if (!started) throw new Error('the server is used before it has started: use it inside hooks and tests');
    return started;
  };

  beforeAll(async () => {
    const smtp = await startTestSmtp();
    const server = await startTestServer({ SMTP_URL: smtp.url, ...env });
    const db = await testDb(server.env);
    started = { server, smtp, db, company: await createTestCompany(db, companyName) };
  }, 300_000);
  afterAll(async () => {
    await started?.server.stop();
    await started?.smtp.stop();
  });

  return {
    get url() {
      return ready().server.url;
    },
    get env() {
      return ready().server.env;
    },
    get smtp() {
      return ready().smtp;
    },
    get db() {
      return ready().db;
    },
    get company() {
      return ready().company;
    },
    get admin() {
      return ready().company.users.admin as TestUser;
    },
    call: <T = unknown>(user: TestUser, path: string, init: CallInit = {}) =>
      request<T & ErrorBody>(path, { base: ready().server.url, method: init.method ?? 'GET', headers: { ...bearer(user), ...ifMatch(init.ifMatch) }, json: init.json }),
    tokenCall: (path, init) => request(path, { base: ready().server.url, method: init.method, headers: { ...bearer(init), ...ifMatch(init.ifMatch) }, json: init.json }),
  };
}
