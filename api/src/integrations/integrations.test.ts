import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';
import type { components } from '../contract-types.js';

type Integration = components['schemas']['Integration'];
type Connector = components['schemas']['IntegrationConnector'];
type PeopleImport = components['schemas']['PeopleImport'];
type Job = components['schemas']['BackgroundJob'];

const SECRET = 'Bearer s3cr3t-hr-export-token';

/** The HR system's export, served the way a customer's would be: a CSV behind an Authorization header. */
class ExportServer {
  readonly server: Server;
  body = 'Employee ID,First Name,Last Name,Manager ID,Base Salary,Currency\nU1,Ana,Lopez,,150000,USD\nU2,Bo,Berg,U1,95000,EUR\n';
  status = 200;
  readonly seen: IncomingHttpHeaders[] = [];

  constructor() {
    this.server = createServer((req, res) => {
      this.seen.push(req.headers);
      if (req.url === '/moved') {
        res.writeHead(302, { Location: '/people.csv' }).end();
        return;
      }
      if (req.headers.authorization !== SECRET) {
        res.writeHead(401, 'Unauthorized').end();
        return;
      }
      res.writeHead(this.status, { 'Content-Type': 'text/csv' }).end(this.status === 200 ? this.body : 'boom');
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

describe('integrations', () => {
  const hr = new ExportServer();
  let hrUrl: string;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let db: Knex;
  let company: TestCompany;
  let admin: Record<string, string>;
  const api = <T>(path: string, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url, headers: { ...admin, ...(init.headers as Record<string, string> | undefined) } });

  beforeAll(async () => {
    hrUrl = await hr.start();
    // This server may fetch from the local network (where the export is served in this test).
    process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS = 'true';
    server = await startTestServer({ PAYBENCH_SEED_DEMO: 'false', PAYBENCH_DEMO_MARKET_RECORDS: '1000' });
    db = server.deps.db;
    company = await createTestCompany(db, 'Integrations Co');
    admin = bearer(company.users.admin!);
  });
  afterAll(async () => {
    delete process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS;
    await server?.stop();
    hr.server.close();
  });

  const finished = async (id: string): Promise<PeopleImport> => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const reply = await api<{ data: PeopleImport }>(`/api/people-imports/runs/${id}`);
      if (!['queued', 'running'].includes(reply.body.data.status)) return reply.body.data;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${reply.body.data.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const connect = (config: Record<string, string>, extra: Record<string, unknown> = {}) =>
    api<{ data: Integration } & ErrorBody>('/api/integrations', { method: 'POST', json: { kind: 'file_url', config, ...extra } });
  const syncNow = async (id: string, dryRun = false) => {
    const started = await api<{ data: PeopleImport }>(`/api/integrations/${id}/syncs`, { method: 'POST', json: { dryRun } });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ status: 'queued', source: { type: 'integration', integrationId: id } });
    return finished(started.body.data.id);
  };

  it('lists the catalogue: the file URL works here, the HR and cap-table systems say why they cannot', async () => {
    const reply = await api<{ data: Connector[] }>('/api/integration-connectors');
    expect(reply.status).toBe(200);
    const byKind = new Map(reply.body.data.map((connector) => [connector.kind, connector]));
    expect([...byKind.keys()]).toEqual(['file_url', 'bamboohr', 'workday', 'rippling', 'hibob', 'personio', 'carta', 'pulley']);
    expect(byKind.get('file_url')).toMatchObject({ available: true, availabilityNote: null, importKinds: ['employees', 'equityGrants'] });
    expect(byKind.get('carta')).toMatchObject({ available: false, category: 'capTable', importKinds: ['equityGrants'] });
    expect(byKind.get('carta')?.availabilityNote).toMatch(/^Carta is not available in this deployment: it has no Carta API client or partner credentials/);
    expect(byKind.get('workday')).toMatchObject({ available: true, availabilityNote: null, category: 'hris' });
    expect(byKind.get('bamboohr')?.fields.find((field) => field.key === 'apiKey')).toMatchObject({ type: 'secret', required: true });
    const refused = await api<ErrorBody>('/api/integrations', { method: 'POST', json: { kind: 'carta', config: {} } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'connector_unavailable', message: byKind.get('carta')?.availabilityNote });
  });

  it('connects a file at a URL, tests it, and never gives its secret back', async () => {
    const incomplete = await connect({ importKind: 'employees' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors).toEqual([{ field: 'config.url', message: 'is required' }]);
    const unknown = await connect({ url: `${hrUrl}/people.csv`, importKind: 'employees', password: 'x' });
    expect(unknown.body.errors).toEqual([{ field: 'config.password', message: 'is not a setting of File from a URL (CSV or XLSX)' }]);

    const reply = await connect({ url: `${hrUrl}/people.csv`, importKind: 'employees', authorization: SECRET }, { name: 'HR export' });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({
      kind: 'file_url',
      name: 'HR export',
      category: 'hris',
      importKind: 'employees',
      status: 'connected',
      statusMessage: 'Fetched the file: 6 columns, 2 rows.',
      config: { url: `${hrUrl}/people.csv`, importKind: 'employees' },
      secretsSet: ['authorization'],
      lastSync: null,
      version: 1,
    });
    expect(hr.seen.at(-1)?.authorization).toBe(SECRET);
    const listed = await api<{ data: Integration[] }>('/api/integrations');
    const fetched = await api<{ data: Integration }>(`/api/integrations/${reply.body.data.id}`);
    for (const body of [reply.body, listed.body, fetched.body]) expect(JSON.stringify(body)).not.toContain('s3cr3t');
    const stored = await db('integrations').where({ id: reply.body.data.id }).first<{ secrets: string; config: string }>();
    expect(stored.secrets).toMatch(/^v1:/);
    expect(`${stored.secrets}${stored.config}`).not.toContain('s3cr3t');
    const duplicate = await connect({ url: `${hrUrl}/people.csv`, importKind: 'employees' }, { name: 'hr export' });
    expect(duplicate.status).toBe(409);
  });

  it('syncs now through the people-data import; syncing again changes nothing', async () => {
    const connection = (await connect({ url: `${hrUrl}/moved`, importKind: 'employees', authorization: SECRET }, { name: 'Redirected export' })).body.data;
    // A redirect to another address of the same server keeps the credentials; the test proves the file arrived.
    expect(connection.status).toBe('connected');
    const dry = await syncNow(connection.id, true);
    expect(dry).toMatchObject({ status: 'planned', plan: { create: 2, compensationRecords: { add: 2 } } });
    expect(await db('employees').where({ company_id: company.id })).toEqual([]);

    const run = await syncNow(connection.id);
    expect(run).toMatchObject({ status: 'applied', kind: 'employees', rowCount: 2, plan: { create: 2, update: 0, unchanged: 0, compensationRecords: { add: 2, update: 0 } } });
    const stored = await db('employees').where({ company_id: company.id }).orderBy('employee_number').select('id', 'employee_number', 'manager_id', 'currency');
    expect(stored.map((employee: { employee_number: string; currency: string }) => [employee.employee_number, employee.currency])).toEqual([['U1', 'USD'], ['U2', 'EUR']]);
    expect(stored[1].manager_id).toBe(stored[0].id);
    expect(await db('compensation_records').where({ employee_id: stored[0].id }).first()).toMatchObject({ amount: 15_000_000, source: 'integration', reason: 'hire' });

    const listed = (await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data;
    expect(listed).toMatchObject({ status: 'connected', statusMessage: 'Last sync read 2 rows.', lastSync: { importId: run.id, status: 'applied', trigger: 'manual', rows: 2, create: 2, update: 0, unchanged: 0, compensationRecordsAdded: 2, errorCount: 0 } });
    expect((await syncNow(connection.id)).plan).toMatchObject({ create: 0, update: 0, unchanged: 2, compensationRecords: { add: 0 } });
  });

  it('fails a sync that cannot fetch, writes nothing, and marks the connection; rejects a bad file like an upload', async () => {
    const connection = (await connect({ url: `${hrUrl}/people.csv`, importKind: 'employees', authorization: SECRET }, { name: 'Flaky export' })).body.data;
    hr.status = 500;
    try {
      const failed = await syncNow(connection.id);
      expect(failed).toMatchObject({ status: 'failed', plan: null, message: `${new URL(hrUrl).host} answered 500 Internal Server Error.` });
      const job = await api<{ data: Job }>(`/api/background-jobs/${failed.jobId}`);
      expect(job.body.data).toMatchObject({ status: 'failed', message: failed.message });
      expect((await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data).toMatchObject({ status: 'error', statusMessage: failed.message, lastSync: { status: 'failed' } });
    } finally {
      hr.status = 200;
    }
    const original = hr.body;
    hr.body = 'Employee ID,First Name,Last Name,Base Salary\nU9,,Nobody,lots\n';
    try {
      const rejected = await syncNow(connection.id);
      expect(rejected).toMatchObject({ status: 'rejected', errorCount: 2 });
      expect(rejected.errors).toEqual([
        { line: 2, column: 'First Name', field: 'firstName', message: 'is required' },
        { line: 2, column: 'Base Salary', field: 'baseSalary', message: '"lots" is not an amount' },
      ]);
      expect(await db('employees').where({ company_id: company.id, employee_number: 'U9' })).toEqual([]);
    } finally {
      hr.body = original;
    }
  });

  it('changes configuration by version, keeps secrets unless replaced, and syncs on its schedule', async () => {
    const connection = (await connect({ url: `${hrUrl}/people.csv`, importKind: 'employees', authorization: SECRET }, { name: 'Nightly export' })).body.data;
    const renamed = await api<{ data: Integration }>(`/api/integrations/${connection.id}`, { method: 'PATCH', json: { version: 1, name: 'Nightly HR export', syncIntervalHours: 24 } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Nightly HR export', version: 2, syncIntervalHours: 24, secretsSet: ['authorization'], status: 'connected' });
    const due = new Date(renamed.body.data.nextSyncAt ?? '').getTime();
    expect(Math.abs(due - (Date.now() + 24 * 3600_000))).toBeLessThan(300_000);
    const stale = await api<ErrorBody>(`/api/integrations/${connection.id}`, { method: 'PATCH', json: { version: 1, name: 'Lost update' } });
    expect(stale.status).toBe(409);

    // The schedule is a durable job, waiting until it is due.
    const jobs = async () => (await api<{ data: Job[] }>('/api/me/background-jobs', { method: 'POST', json: { withinDays: 1 } })).body.data.filter((job) => job.type === 'integrationScheduledSync');
    expect((await jobs()).filter((job) => job.status === 'queued')).toHaveLength(1);
    // Make it due now, as if a day had passed.
    const now = new Date().toISOString();
    await db('integrations').where({ id: connection.id }).update({ next_sync_at: now });
    await db('jobs').where({ company_id: company.id, type: 'integrationScheduledSync', status: 'queued' }).update({ run_after: now, input: JSON.stringify({ integrationId: connection.id, dueAt: now }) });
    server.deps.jobs.worker.wake();
    await expect
      .poll(async () => (await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data.lastSync?.status, { timeout: 30_000, interval: 200 })
      .toBe('applied');
    const after = (await api<{ data: Integration }>(`/api/integrations/${connection.id}`)).body.data;
    expect(after.lastSync).toMatchObject({ trigger: 'schedule', rows: 2 });
    expect(new Date(after.nextSyncAt ?? '').getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    await expect.poll(async () => (await jobs()).filter((job) => job.status === 'queued').length).toBe(1);

    // Removing the secret is a change of configuration: the connection is tested again and says why it fails.
    const withoutSecret = await api<{ data: Integration }>(`/api/integrations/${connection.id}`, { method: 'PATCH', json: { version: 2, config: { authorization: '' } } });
    expect(withoutSecret.body.data).toMatchObject({ secretsSet: [], status: 'error', statusMessage: `${new URL(hrUrl).host} answered 401 Unauthorized.`, version: 3 });
    const retested = await api<{ data: { ok: boolean; message: string } }>(`/api/integrations/${connection.id}/test`, { method: 'POST' });
    expect(retested.body.data).toMatchObject({ ok: false, message: `${new URL(hrUrl).host} answered 401 Unauthorized.` });

    const removed = await api<{ data: Integration }>(`/api/integrations/${connection.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await api(`/api/integrations/${connection.id}`)).status).toBe(404);
    expect((await jobs()).filter((job) => job.status === 'queued')).toEqual([]);
  });

  it('is for people with the integrations permission only', async () => {
    const planner = bearer(company.users.compensation_planner!);
    expect((await request('/api/integrations', { base: server.url, headers: planner })).status).toBe(403);
    expect((await request('/api/integration-connectors', { base: server.url, headers: planner })).status).toBe(403);
  });
});

describe('integrations on a deployment that keeps to the public internet', () => {
  const ALLOW = 'this deployment does not fetch from such addresses (set PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS=true to allow private and special-purpose ones).';
  let admin: Record<string, string>;
  beforeAll(async () => {
    admin = bearer((await createTestCompany(await testDb(), 'Private Co')).users.admin!);
  });
  const connectTo = async (url: string): Promise<Integration> => {
    const reply = await request<{ data: Integration }>('/api/integrations', {
      method: 'POST',
      headers: admin,
      json: { kind: 'file_url', name: url, config: { url, importKind: 'employees', authorization: SECRET } },
    });
    expect(reply.status).toBe(201);
    return reply.body.data;
  };

  it('refuses to fetch from a private network, and says how to allow it', async () => {
    expect(await connectTo('http://127.0.0.1:9/people.csv')).toMatchObject({ status: 'error', statusMessage: `127.0.0.1 is in 127.0.0.0/8 (loopback); ${ALLOW}` });
  });

  it('refuses the documentation and other special-purpose ranges before connecting, with the range', async () => {
    const refusals: [string, string][] = [
      ['http://192.0.2.1/people.csv', '192.0.2.1 is in 192.0.2.0/24 (documentation)'],
      ['https://198.51.100.7/people.csv', '198.51.100.7 is in 198.51.100.0/24 (documentation)'],
      ['http://100.64.0.1/', '100.64.0.1 is in 100.64.0.0/10 (shared address space)'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is in 169.254.0.0/16 (link-local)'],
      ['http://[2001:db8::1]/', '2001:db8::1 is in 2001:db8::/32 (documentation)'],
      ['http://[::ffff:192.0.2.1]/', '::ffff:c000:201 (IPv4 192.0.2.1) is in 192.0.2.0/24 (documentation)'],
      ['http://[64:ff9b::a00:1]/', '64:ff9b::a00:1 (IPv4 10.0.0.1) is in 10.0.0.0/8 (private use)'],
      ['http://[2002:7f00:1::]/', '2002:7f00:1:: (IPv4 127.0.0.1) is in 127.0.0.0/8 (loopback)'],
    ];
    for (const [url, message] of refusals) expect(await connectTo(url)).toMatchObject({ status: 'error', statusMessage: `${message}; ${ALLOW}` });
  });

  it('refuses a name that resolves to a special-purpose address', async () => {
    const integration = await connectTo('http://localhost:9/people.csv');
    expect(integration.status).toBe('error');
    expect(integration.statusMessage).toMatch(/^localhost resolves to (127\.0\.0\.1, which is in 127\.0\.0\.0\/8|::1, which is in ::1\/128) \(loopback\); /);
  });
});
