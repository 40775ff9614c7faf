import { type Server, createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { ownServer } from '../../test/ownServer.js';

describe('notifications, the help desk and analytics events', () => {
  const server = ownServer('Notified Co', { PAYBENCH_HELP_DESK_SECRET: 'help-desk-shared-secret', PAYBENCH_ALLOW_HTTP_WEBHOOKS: 'true' });
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

describe('without a help-desk secret', () => {
  it('the help desk is off', async () => {
    const company = await createTestCompany(await testDb());
    const reply = await request<ErrorBody>('/api/help-desk/token', { headers: bearer(company.users.employee!) });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('help_desk_disabled');
  });
});
