import type { Knex } from 'knex';
import { afterAll, beforeAll, expect } from 'vitest';
import { type TestCompany, bearer, createTestCompany } from '../../../../test/factories.js';
import { type ErrorBody, request } from '../../../../test/http.js';
import { startTestServer } from '../../../../test/server.js';
import type { components } from '../../../contract-types.js';

/*
 * What every vendor's sync test sets up the same way: the vendor's conformance server, a Paybench
 * server of its own (private addresses allowed, short back-offs), a company with its admin, and the
 * calls a test makes — connect, sync and follow the import to its end, read the people tables.
 */

type Integration = components['schemas']['Integration'];
type PeopleImport = components['schemas']['PeopleImport'];

/** A vendor's conformance server: started on a free port (its base URL), stopped, and (when it keeps time) moved on. */
export interface ConformanceServer {
  start(): Promise<string>;
  stop(): Promise<void>;
  advance?(ms: number): void;
}

export interface VendorSyncFixture {
  /** The conformance server's base URL, once started. */
  readonly baseUrl: string;
  readonly db: Knex;
  readonly company: TestCompany;
  api<T>(path: string, init?: Parameters<typeof request>[1]): ReturnType<typeof request<T>>;
  /** Creates a connection of the fixture's kind (its connection test runs then). */
  connect(name: string, config: Record<string, string>): ReturnType<typeof request<{ data: Integration } & ErrorBody>>;
  /** A sync ten minutes (the vendor's clock) after the changes before it, followed to its end. */
  sync(connectionId: string, options?: { dryRun?: boolean }): Promise<PeopleImport>;
  /** An import followed until it is no longer queued or running. */
  finished(importId: string): Promise<PeopleImport>;
  employee(number: string): Promise<Record<string, unknown> & { id: string }>;
  /** An employee's base salaries, oldest first (amount, currency, effective date, and any other columns asked for). */
  payOf(number: string, columns?: readonly string[]): Promise<({ amount: number; currency: string; effective_date: string } & Record<string, unknown>)[]>;
  /** Every employee and pay record of the company, to show a failed sync wrote nothing. */
  peopleTables(): Promise<{ employees: unknown[]; pay: unknown[] }>;
}

/** Registers the set-up and tear-down of a vendor's sync tests (call it inside their describe). */
export function vendorSyncFixture(options: { kind: string; companyName: string; vendor: ConformanceServer }): VendorSyncFixture {
  let baseUrl = '';
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let company: TestCompany | undefined;
  let admin: Record<string, string> = {};
  const started = () => {
    if (!server || !company) throw new Error('the vendor sync fixture is used before its beforeAll ran');
    return { server, company };
  };

  beforeAll(async () => {
    baseUrl = await options.vendor.start();
    process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS = 'true';
    process.env.PAYBENCH_INTEGRATIONS_RETRY_BASE_MS = '10';
    // A server of its own: on Postgres under load its start-up (migrations) takes a while.
    server = await startTestServer({ PAYBENCH_SEED_DEMO: 'false', PAYBENCH_DEMO_MARKET_RECORDS: '1000' });
    company = await createTestCompany(server.deps.db, options.companyName);
    admin = bearer(company.users.admin!);
  }, 300_000);
  afterAll(async () => {
    delete process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS;
    delete process.env.PAYBENCH_INTEGRATIONS_RETRY_BASE_MS;
    await server?.stop();
    await options.vendor.stop();
  });

  const api = <T>(path: string, init: Parameters<typeof request>[1] = {}) =>
    request<T>(path, { ...init, base: started().server.url, headers: { ...admin, ...(init.headers as Record<string, string> | undefined) } });
  const finished = async (id: string): Promise<PeopleImport> => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const reply = await api<{ data: PeopleImport }>(`/api/people-imports/runs/${id}`);
      if (!['queued', 'running'].includes(reply.body.data.status)) return reply.body.data;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${reply.body.data.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const db = () => started().server.deps.db;
  const employee = async (number: string) => db()('employees').where({ company_id: started().company.id, employee_number: number }).first();

  return {
    get baseUrl() {
      return baseUrl;
    },
    get db() {
      return db();
    },
    get company() {
      return started().company;
    },
    api,
    connect: (name, config) => api<{ data: Integration } & ErrorBody>('/api/integrations', { method: 'POST', json: { kind: options.kind, name, config } }),
    async sync(connectionId, syncOptions = {}) {
      options.vendor.advance?.(10 * 60_000);
      const reply = await api<{ data: PeopleImport }>(`/api/integrations/${connectionId}/syncs`, { method: 'POST', json: { dryRun: syncOptions.dryRun ?? false } });
      expect(reply.status).toBe(202);
      return finished(reply.body.data.id);
    },
    finished,
    employee,
    async payOf(number, columns = []) {
      const found = await employee(number);
      return db()('compensation_records').where({ employee_id: found.id, type: 'base_salary' }).orderBy('effective_date').select('amount', 'currency', 'effective_date', ...columns);
    },
    async peopleTables() {
      const companyId = started().company.id;
      return {
        employees: await db()('employees').where({ company_id: companyId }).orderBy('id'),
        pay: await db()('compensation_records').where({ company_id: companyId }).orderBy('id'),
      };
    },
  };
}
