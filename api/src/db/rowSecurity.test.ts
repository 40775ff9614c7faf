import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { presentPerson } from '../identity/present.js';
import { emit } from '../platform/events.js';
import { HttpError } from '../kernel/errors.js';
import { RawResponse, type RegisteredOperation, type SecuredContext, type ServiceContext } from '../kernel/operations.js';
import { allOperations } from '../modules.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { type RouterApp, startRouterApp } from '../../test/routerApp.js';
import { asTenant, emailsWithAccounts } from './rowSecurity.js';

/**
 * The router's side of row-level security, seen through real HTTP: which requests run in a tenant
 * transaction on Postgres (and that on SQLite none does), when it commits, and what happens after.
 */

const engine = inject('engine');

interface Observation {
  /** Postgres: who ran the handler's queries and with which company; SQLite: whether deps.db was the server's own. */
  role: string;
  company: string | null;
  ownDatabase: boolean;
  txid: string | null;
}

let db: Knex;
let base: string;
let app: RouterApp;
let a: TestCompany;
let b: TestCompany;
let loner: TestUser;
let support: TestUser;
const seen: Observation[] = [];
const afterwards: string[] = [];
const refusals: string[] = [];

async function observe(ctx: Pick<ServiceContext, 'db'>): Promise<Observation> {
  const { db: handlerDb } = ctx;
  if (engine !== 'postgres') return { role: 'sqlite', company: null, ownDatabase: handlerDb === db, txid: null };
  const { rows } = await handlerDb.raw<{ rows: { role: string; company: string | null; txid: string }[] }>(
    `select current_user as role, nullif(current_setting('paybench.company_id', true), '') as company, txid_current()::text as txid`,
  );
  const row = rows[0] as { role: string; company: string | null; txid: string };
  return { ...row, ownDatabase: handlerDb === db };
}

/** Whether the transaction that ran a handler is committed now (Postgres), or there was none (SQLite). */
async function committed(txid: string | null): Promise<string> {
  if (!txid) return 'no transaction';
  const { rows } = await db.raw<{ rows: { status: string }[] }>('select txid_status(?::bigint) as status', [txid]);
  return rows[0]?.status ?? 'unknown';
}

/** The streamed probe's length, fixed before its content is known. */
const WIDTH = 24;

/** The real router and operations, with a few handlers swapped for probes. */
function probes(): RegisteredOperation[] {
  const replaced: Record<string, RegisteredOperation['handler']> = {
    async getUserPreferences(_input, ctx: SecuredContext) {
      const observation = await observe(ctx);
      seen.push(observation);
      ctx.afterCommit(async () => void afterwards.push(await committed(observation.txid)));
      return { data: {} };
    },
    async getAuthenticatedPerson(_input, ctx: SecuredContext) {
      // Answered from the caller alone: whatever it tries on the database is refused.
      refusals.push(await (async () => ctx.deps.db('users').select('id'))().then(() => 'read', (error: Error) => error.message));
      return { data: presentPerson(ctx.caller) };
    },
    async listAccessibleCompanies(_input, ctx: SecuredContext) {
      seen.push(await observe(ctx));
      return { data: [] };
    },
    async createUser(_input, ctx: SecuredContext) {
      seen.push(await observe(ctx));
      throw new HttpError(409, 'probe', { message: 'probed' });
    },
    async logoutUser(_input, ctx: SecuredContext) {
      // A write, then a refusal: on Postgres the request's transaction takes the write back with it.
      await emit(ctx.db, { companyId: ctx.caller.companyId, actorUserId: ctx.caller.userId, name: 'view_as.ended', subjectType: 'view_as_session', subjectId: ctx.requestId, payload: {} });
      ctx.afterCommit(async () => void afterwards.push('ran after a failure'));
      throw new HttpError(409, 'probe', { message: 'refused after writing' });
    },
    async acknowledgeTermsOfUse(_input, ctx: SecuredContext) {
      ctx.afterCommit(async () => {
        throw new Error('the mail server is down');
      });
      return { data: presentPerson(ctx.caller) };
    },
    async getDownload(_input, ctx: SecuredContext) {
      const observation = await observe(ctx);
      // The body is produced only when the response is streamed: by then the transaction must be over.
      const body = Readable.from(
        (async function* () {
          yield `${(await committed(observation.txid)).padEnd(WIDTH - 1)}\n`;
        })(),
      );
      return new RawResponse(body, 'text/plain', 'probe.txt', WIDTH);
    },
  };
  return allOperations.map((op) => {
    const handler = replaced[op.operationId];
    return handler ? { ...op, handler } : op;
  });
}

beforeAll(async () => {
  db = await testDb();
  a = await createTestCompany(db, 'Row Security A');
  b = await createTestCompany(db, 'Row Security B');
  loner = await createTestUser(db, { companyId: null });
  support = await createTestUser(db, { companyId: a.id, internalAdmin: true });
  app = await startRouterApp(db, { operations: probes() });
  base = app.url;
});

afterAll(() => app?.close());

async function probe(pathname: string, caller: TestUser, method = 'GET'): Promise<{ status: number; observation: Observation | undefined }> {
  const before = seen.length;
  const reply = await request(pathname, { base, method, headers: bearer(caller), json: method === 'GET' ? undefined : { email: 'probe@example.test', firstName: 'P', lastName: 'Robe' } });
  return { status: reply.status, observation: seen.length > before ? seen.at(-1) : undefined };
}

describe('requests under row-level security', () => {
  it(engine === 'postgres' ? "run a company's requests as the tenant role, with the company set, in a transaction of their own" : 'run on SQLite on the database itself (there is no row security to switch to)', async () => {
    const { status, observation } = await probe('/api/me/preferences', a.users.employee as TestUser);
    expect(status).toBe(200);
    if (engine === 'postgres') {
      expect(observation).toMatchObject({ role: 'paybench_app', company: a.id, ownDatabase: false });
      const other = await probe('/api/me/preferences', b.users.employee as TestUser);
      expect(other.observation).toMatchObject({ role: 'paybench_app', company: b.id });
      expect(other.observation?.txid).not.toBe(observation?.txid);
    } else {
      expect(observation).toMatchObject({ ownDatabase: true });
    }
  });

  it('answer GET /api/me from the caller alone: no transaction is begun for it, and its handler may not read', async () => {
    refusals.length = 0;
    const sent: string[] = [];
    const listen = (query: { sql: string }): void => void sent.push(query.sql);
    db.on('query', listen);
    try {
      expect((await request('/api/me', { base, headers: bearer(a.users.employee as TestUser) })).status).toBe(200);
    } finally {
      db.off('query', listen);
    }
    expect(refusals).toEqual(['getAuthenticatedPerson is declared to answer from its caller alone (CALLER_ONLY_OPERATIONS) but used the database']);
    expect(sent.filter((sql) => /^(begin|commit|rollback)/i.test(sql.trim()))).toEqual([]);
  });

  it('run people without a company, internal tools, and the listed cross-company operations as the connecting role', async () => {
    const { rows } = engine === 'postgres' ? await db.raw<{ rows: { role: string }[] }>('select current_user as role') : { rows: [{ role: 'sqlite' }] };
    const connecting = rows[0]?.role;
    const cases = [
      await probe('/api/me/preferences', loner),
      await probe('/api/internal/companies', support),
      await probe('/api/users', a.users.admin as TestUser, 'POST'),
    ];
    expect(cases.map((c) => c.status)).toEqual([200, 200, 409]);
    for (const { observation } of cases) expect(observation).toMatchObject({ role: connecting, company: null, ownDatabase: true });
  });

  it('commit before the work queued for after the commit runs', async () => {
    afterwards.length = 0;
    expect((await probe('/api/me/preferences', a.users.analyst as TestUser)).status).toBe(200);
    expect(afterwards).toEqual([engine === 'postgres' ? 'committed' : 'no transaction']);
  });

  it(engine === 'postgres' ? 'take back what a refused request wrote, and run nothing after it' : 'keep on SQLite what a handler wrote before refusing (each write is its own), and run nothing after it', async () => {
    afterwards.length = 0;
    const caller = a.users.compensation_planner as TestUser;
    const reply = await request<ErrorBody>('/api/me/logout', { base, method: 'POST', headers: bearer(caller) });
    expect(reply.status).toBe(409);
    // The handler emitted an event: its audit entry and its outbox row go (or stay) with the request's writes.
    const written = await db('audit_events').where({ action: 'view_as.ended', actor_user_id: caller.id, subject_id: reply.body.requestId }).select('id');
    expect(written).toHaveLength(engine === 'postgres' ? 0 : 1);
    const queued = await db('domain_events').where({ name: 'view_as.ended', actor_user_id: caller.id, subject_id: reply.body.requestId }).select('id');
    expect(queued).toHaveLength(engine === 'postgres' ? 0 : 1);
    expect(afterwards).toEqual([]);
  });

  it('answer as the handler did when work after the commit fails', async () => {
    const reply = await request('/api/me/terms-of-use', { base, method: 'POST', headers: bearer(a.users.employee as TestUser) });
    expect(reply.status).toBe(200);
  });

  it('stream a file only after the transaction has committed', async () => {
    const reply = await request<string>('/api/downloads/any-download', { base, headers: bearer(a.users.admin as TestUser) });
    expect(reply.status).toBe(200);
    expect(reply.body.trim()).toBe(engine === 'postgres' ? 'committed' : 'no transaction');
  });
});

describe('e-mail addresses across companies', () => {
  it("are found from inside a company, which sees no other company's people", async () => {
    const theirs = (b.users.employee as TestUser).email;
    const unknown = `nobody-${Math.random().toString(36).slice(2)}@example.test`;
    const check = async (trx: Knex) => ({
      taken: await emailsWithAccounts(trx, [theirs, loner.email, unknown, (a.users.admin as TestUser).email]),
      visible: await trx('users').whereIn('email', [theirs, loner.email]).select('email'),
    });
    const { taken, visible } = engine === 'postgres' ? await asTenant(db, a.id, check) : await db.transaction(check);
    expect([...taken].sort()).toEqual([theirs, loner.email, (a.users.admin as TestUser).email].sort());
    // Under row security the company cannot read those people; SQLite has no such wall.
    expect(visible).toHaveLength(engine === 'postgres' ? 0 : 2);
    expect(await emailsWithAccounts(db, [])).toEqual(new Set());
  });
});
