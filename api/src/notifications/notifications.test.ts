import { type Server, createServer } from 'node:http';
import { type Server as TcpServer, createServer as createTcpServer } from 'node:net';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { type OwnServer, ownServer } from '../../test/ownServer.js';
import { saveCompanySettings } from './store.js';

/** A local listener that only counts the connections made to it: a webhook call reaching it is one. */
async function countingListener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const listener: TcpServer = createTcpServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  return { port: (listener.address() as { port: number }).port, connections: () => count, close: () => new Promise<void>((resolve) => listener.close(() => resolve())) };
}

/**
 * A company whose chat webhook is `url` (stored directly: saved before addresses were checked, or
 * a name that resolved elsewhere then) ends a job; answers once the job's end was handled.
 */
async function jobEndsWithWebhook(input: { db: Knex; base?: string; admin: Parameters<typeof bearer>[0]; companyId: string; url: string }): Promise<void> {
  await saveCompanySettings(input.db, { companyId: input.companyId }, { chatWebhookUrl: input.url, chatEvents: ['jobFinished'] });
  const started = await request<{ data: { id: string } }>('/api/users/exports', { method: 'POST', headers: bearer(input.admin), base: input.base });
  expect(started.status).toBe(202);
  const handled = async (): Promise<boolean> => {
    const event = await input.db('domain_events').where({ company_id: input.companyId, name: 'job.ended', subject_id: started.body.data.id }).first<{ delivered_at: unknown } | undefined>();
    return Boolean(event?.delivered_at);
  };
  await expect.poll(handled, { timeout: 20_000 }).toBe(true);
}

describe('notifications, the help desk and analytics events', () => {
  // Local testing: an http webhook on this machine, both allowed here only.
  const server: OwnServer = ownServer('Notified Co', { PAYBENCH_HELP_DESK_SECRET: 'help-desk-shared-secret', PAYBENCH_ALLOW_HTTP_WEBHOOKS: 'true', PAYBENCH_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' });
  let chat: Server;
  const chatPosts: unknown[] = [];
  let chatPort = 0;

  beforeAll(async () => {
    chat = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        chatPosts.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', () => resolve()));
    chatPort = (chat.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => chat.close(() => resolve())));

  const at = (path: string, init: Parameters<typeof request>[1] = {}) => request(path, { ...init, base: server.url });

  it('e-mails a finished job through SMTP and posts it to the company chat', async () => {
    const admin = bearer(server.admin);
    const settings = await at('/api/me/notification-settings', { method: 'PUT', headers: admin, json: { email: ['jobFinished'], inApp: [] } });
    expect(settings.status).toBe(200);
    const refused = await at('/api/company/notification-settings', { method: 'PUT', headers: admin, json: { chatWebhookUrl: 'ftp://chat.example.test/hook', chatEvents: ['jobFinished'] } });
    expect(refused.status).toBe(400);
    const saved = await at('/api/company/notification-settings', {
      method: 'PUT',
      headers: admin,
      json: { chatWebhookUrl: `http://127.0.0.1:${chatPort}/hook`, chatEvents: ['jobFinished'] },
    });
    expect(saved.status).toBe(200);

    await at('/api/users/exports', { method: 'POST', headers: admin });
    await expect.poll(() => server.smtp.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(server.smtp.received[0]?.to).toBe(server.admin.email);
    expect(server.smtp.received[0]?.text).toContain('Users export is ready');
    await expect.poll(() => chatPosts.length, { timeout: 10_000 }).toBe(1);
    expect(JSON.stringify(chatPosts[0])).toContain('Users export is ready');

    const support = await createTestUser(server.db, { companyId: server.company.id, internalAdmin: true });
    const outbox = await at('/api/internal/outbox', { headers: bearer(support) });
    expect((outbox.body as { data: { to: string; status: string }[] }).data[0]).toMatchObject({ to: server.admin.email, status: 'sent' });
    const notInternal = await at('/api/internal/outbox', { headers: admin });
    expect(notInternal.status).toBe(403);
  });

  it('calls a webhook on loopback where private networks are allowed (the control of the test below)', async () => {
    const listener = await countingListener();
    try {
      await jobEndsWithWebhook({ db: server.db, base: server.url, admin: server.admin, companyId: server.company.id, url: `https://127.0.0.1:${listener.port}/hook` });
      expect(listener.connections()).toBe(1);
    } finally {
      await listener.close();
    }
  });

  it('signs a help-desk token with the shared secret', async () => {
    const reply = await at('/api/help-desk/token', { headers: bearer(server.company.users.employee!) });
    const jwt = (reply.body as { data: { jwt: string } }).data.jwt;
    const { jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode('help-desk-shared-secret'));
    expect(payload).toMatchObject({ sub: server.company.users.employee!.id, email: server.company.users.employee!.email });
  });

  it('accepts analytics events of the spec’s shapes and refuses others', async () => {
    const track = await at('/api/events/track', { method: 'POST', json: { anonymousId: 'anon-1', event: 'Benchmark Exported', properties: { rows: 12 }, timestamp: '2026-01-02T03:04:05.000Z', context: { page: '/home' } } });
    expect(track.status).toBe(202);
    const identify = await at('/api/events/identify', { method: 'POST', json: { anonymousId: 'anon-1', userId: 'u-1', traits: { plan: 'pro' } } });
    expect(identify.status).toBe(202);
    const page = await at('/api/events/page', { method: 'POST', json: { anonymousId: 'anon-1', name: 'Data explorer' } });
    expect(page.status).toBe(202);
    const bad = await at('/api/events/track', { method: 'POST', json: { anonymousId: 'anon-1' } });
    expect(bad.status).toBe(400);
    expect((bad.body as ErrorBody).errors).toContainEqual({ field: 'body.event', message: 'is required' });
    const stored = await server.db('analytics_events').where({ anonymous_id: 'anon-1' }).orderBy('received_at');
    expect(stored.map((row: { kind: string; name: string | null }) => [row.kind, row.name])).toEqual([
      ['track', 'Benchmark Exported'],
      ['identify', null],
      ['page', 'Data explorer'],
    ]);
  });

  it('reports the company’s data-submission status', async () => {
    const reply = await at('/api/company/data-submission-status', { headers: bearer(server.company.users.analyst!) });
    expect((reply.body as { data: unknown }).data).toEqual({ participates: false, status: 'not_participating', lastSubmittedAt: null });
  });
});

describe('chat webhooks on a deployment that keeps to the public internet', () => {
  const ALLOW = 'Paybench does not call such addresses (set PAYBENCH_WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true to allow private and special-purpose ones).';

  it('refuses to save a loopback, private or documentation address, or a name that resolves to loopback', async () => {
    const company = await createTestCompany(await testDb(), 'Webhook Guard Co');
    const admin = bearer(company.users.admin!);
    const save = (url: string) => request<ErrorBody>('/api/company/notification-settings', { method: 'PUT', headers: admin, json: { chatWebhookUrl: url, chatEvents: ['jobFinished'] } });
    const refusals: [string, string][] = [
      ['https://127.0.0.1:8443/hook', '127.0.0.1 is in 127.0.0.0/8 (loopback)'],
      ['https://10.20.30.40/hook', '10.20.30.40 is in 10.0.0.0/8 (private use)'],
      ['https://192.0.2.2:8443/hook', '192.0.2.2 is in 192.0.2.0/24 (documentation)'],
      ['https://[::1]/hook', '::1 is in ::1/128 (loopback)'],
    ];
    for (const [url, reason] of refusals) {
      const reply = await save(url);
      expect(reply.status, url).toBe(400);
      expect(reply.body.message).toBe(`The chat webhook cannot be used: ${reason}; ${ALLOW}`);
      expect(reply.body.errors).toEqual([{ field: 'body.chatWebhookUrl', message: 'is a loopback, private or special-purpose address' }]);
    }
    const named = await save('https://localhost:8443/hook');
    expect(named.status).toBe(400);
    expect(named.body.message).toMatch(/^The chat webhook cannot be used: localhost resolves to (127\.0\.0\.1, which is in 127\.0\.0\.0\/8|::1, which is in ::1\/128) \(loopback\); /);
    expect((await request<{ data: { chatWebhookUrl: string | null } }>('/api/company/notification-settings', { headers: admin })).body.data.chatWebhookUrl).toBeNull();
  });

  it('does not call a webhook on loopback when a job ends, even one stored before addresses were checked', async () => {
    const db = await testDb();
    const company = await createTestCompany(db, 'Stored Webhook Co');
    const listener = await countingListener();
    try {
      await jobEndsWithWebhook({ db, admin: company.users.admin!, companyId: company.id, url: `https://127.0.0.1:${listener.port}/hook` });
      await jobEndsWithWebhook({ db, admin: company.users.admin!, companyId: company.id, url: `https://localhost:${listener.port}/hook` });
      expect(listener.connections()).toBe(0);
    } finally {
      await listener.close();
    }
  });
});

describe('without a help-desk secret', () => {
  it('the help desk is off', async () => {
    const company = await createTestCompany(await testDb());
    const reply = await request<ErrorBody>('/api/help-desk/token', { headers: bearer(company.users.employee!) });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('help_desk_disabled');
  });
});
