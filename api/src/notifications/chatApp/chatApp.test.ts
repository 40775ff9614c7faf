import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import { startTestServer } from '../../../test/server.js';
import type { components } from '../../contract-types.js';
import { CLIENT_ID, type FakeChat, fakeChatEnv, startFakeChat } from './test/chatServer.js';

type ChatApp = components['schemas']['ChatApp'];

describe('the chat app, without OAuth configured', () => {
  it('says it cannot be installed here, and the webhook stays the way', async () => {
    const company = await createTestCompany(await testDb(), 'Webhook Only Co');
    const admin = bearer(company.users.admin as TestUser);
    const state = await request<{ data: ChatApp }>('/api/company/chat-app', { headers: admin });
    expect(state.body.data).toEqual({ configured: false, installed: false, workspaceName: null, channel: null, installedAt: null, installedBy: null });
    const start = await request<ErrorBody>('/api/company/chat-app/authorize', { method: 'POST', headers: admin });
    expect(start.status).toBe(409);
    expect(start.body).toMatchObject({ code: 'chat_app_not_configured', message: 'The chat app’s OAuth is not configured on this Paybench. Use a chat webhook instead.' });
  });
});

describe('the chat app installed through OAuth', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let chat: FakeChat;
  let company: TestCompany;
  let admin: TestUser;
  let secondAdmin: TestUser;
  let other: TestCompany;
  let authorizeUrl: URL | undefined;
  const at = <T>(path: string, user: TestUser, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url, headers: bearer(user) });

  /** Starts an authorization and approves it at the fake chat app: the code and state it sends back. */
  async function approve(user: TestUser): Promise<{ code: string; state: string }> {
    const started = await at<{ data: { url: string; expiresAt: string } }>('/api/company/chat-app/authorize', user, { method: 'POST' });
    expect(started.status).toBe(200);
    const back = await fetch(started.body.data.url, { redirect: 'manual' });
    const location = new URL(back.headers.get('location') ?? '');
    authorizeUrl = new URL(started.body.data.url);
    return { code: location.searchParams.get('code') ?? '', state: location.searchParams.get('state') ?? '' };
  }

  beforeAll(async () => {
    chat = await startFakeChat();
    server = await startTestServer({ ...fakeChatEnv(chat), PAYBENCH_ALLOW_HTTP_WEBHOOKS: 'true', PAYBENCH_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' });
    const db = await testDb(server.env);
    company = await createTestCompany(db, 'Chatty Co');
    admin = company.users.admin as TestUser;
    secondAdmin = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('admin') ?? ''] });
    other = await createTestCompany(db, 'Other Chat Co');
  });
  afterAll(async () => {
    await server.stop();
    await chat.stop();
  });

  it('sends the admin to the chat app with a one-time state, stored only hashed', async () => {
    const { state } = await approve(admin);
    const url = authorizeUrl ?? new URL('about:blank');
    expect(`${url.origin}${url.pathname}`).toBe(`http://127.0.0.1:${chat.port}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      scope: 'channels:read,groups:read,chat:write',
      redirect_uri: `${server.url}/settings/notifications`,
      state,
    });
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await (await testDb(server.env))('chat_app_oauth_states').where({ company_id: company.id });
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(state);
  });

  it('refuses a state of another person, another company, a used one and an expired one; installs with the right one and seals the token', async () => {
    const approved = await approve(admin);
    const byOther = await at<ErrorBody>('/api/company/chat-app/callback', other.users.admin as TestUser, { method: 'POST', json: approved });
    expect(byOther.status).toBe(400);
    expect(byOther.body).toMatchObject({ code: 'chat_app_state_invalid', message: 'This chat-app authorization was not started by you in this company. Connect the chat app again.' });
    const byColleague = await at<ErrorBody>('/api/company/chat-app/callback', secondAdmin, { method: 'POST', json: approved });
    expect(byColleague.body.code).toBe('chat_app_state_invalid');

    const installed = await at<{ data: ChatApp }>('/api/company/chat-app/callback', admin, { method: 'POST', json: approved });
    expect(installed.status).toBe(200);
    expect(installed.body.data).toMatchObject({ configured: true, installed: true, workspaceName: 'Notified Chat', channel: null, installedBy: `Test ${admin.email.split('@')[0]}` });
    const row = await (await testDb(server.env))('chat_app_installations').where({ company_id: company.id }).first<{ token_sealed: string }>();
    expect(row?.token_sealed).toMatch(/^v1:/);
    expect(row?.token_sealed).not.toContain('xoxb-token');

    const again = await at<ErrorBody>('/api/company/chat-app/callback', admin, { method: 'POST', json: approved });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'chat_app_state_used', message: 'This chat-app authorization was already used. Connect the chat app again.' });

    const late = await approve(admin);
    await (await testDb(server.env))('chat_app_oauth_states').where({ company_id: company.id }).whereNull('used_at').update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const expired = await at<ErrorBody>('/api/company/chat-app/callback', admin, { method: 'POST', json: late });
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ code: 'chat_app_state_expired', message: 'This chat-app authorization expired (it works for 10 minutes). Connect the chat app again.' });

    const badCode = await approve(admin);
    const refused = await at<ErrorBody>('/api/company/chat-app/callback', admin, { method: 'POST', json: { state: badCode.state, code: 'not-a-code' } });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 'chat_app_refused', message: 'The chat app refused to install the app: invalid_code.' });
    const unknown = await at<ErrorBody>('/api/company/chat-app/callback', admin, { method: 'POST', json: { state: 'made-up', code: 'x' } });
    expect(unknown.body.code).toBe('chat_app_state_invalid');
  });

  it('lists the channels across pages, takes only one of them, and posts a test message there with the stored token', async () => {
    const channels = await at<{ data: { id: string; name: string }[] }>('/api/company/chat-app/channels', admin);
    expect(channels.body.data).toEqual([
      { id: 'C2', name: 'comp-team' },
      { id: 'C1', name: 'general' },
      { id: 'C3', name: 'random' },
    ]);
    const noChannel = await at<ErrorBody>('/api/company/chat-app/test', admin, { method: 'POST' });
    expect(noChannel.status).toBe(409);
    expect(noChannel.body.message).toBe('Choose the channel to post to first.');
    const wrong = await at<ErrorBody>('/api/company/chat-app/channel', admin, { method: 'PUT', json: { channelId: 'C404' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: 'body.channelId', message: 'is not a channel the chat app can post to' }]);
    const chosen = await at<{ data: ChatApp }>('/api/company/chat-app/channel', admin, { method: 'PUT', json: { channelId: 'C2' } });
    expect(chosen.body.data.channel).toEqual({ id: 'C2', name: 'comp-team' });
    const test = await at<{ data: { channel: { id: string }; text: string } }>('/api/company/chat-app/test', admin, { method: 'POST' });
    expect(test.status).toBe(200);
    expect(chat.posts.at(-1)).toEqual({ token: chat.posts.at(-1)?.token, channel: 'C2', text: test.body.data.text });
    expect(chat.posts.at(-1)?.token).toMatch(/^xoxb-token-\d+$/);
    expect(test.body.data.text).toBe(`Test message from Paybench, sent by Test ${admin.email.split('@')[0]}. Notifications will arrive in this channel.`);
  });

  it('carries the company’s chat notifications instead of the webhook, and the webhook again once disconnected', async () => {
    const saved = await at('/api/company/notification-settings', admin, { method: 'PUT', json: { chatWebhookUrl: `http://127.0.0.1:${chat.port}/hook`, chatEvents: ['jobFinished'] } });
    expect(saved.status).toBe(200);
    const before = chat.posts.length;
    await at('/api/users/exports', admin, { method: 'POST' });
    await expect.poll(() => chat.posts.length, { timeout: 20_000 }).toBe(before + 1);
    expect(chat.posts.at(-1)).toMatchObject({ channel: 'C2' });
    expect(chat.posts.at(-1)?.text).toContain(`Users export is ready. Open ${server.url}/home to download it. (${admin.email})`);
    expect(chat.webhook).toEqual([]);

    const token = chat.posts.at(-1)?.token;
    const gone = await at<{ data: ChatApp }>('/api/company/chat-app', admin, { method: 'DELETE' });
    expect(gone.body.data).toEqual({ configured: true, installed: false, workspaceName: null, channel: null, installedAt: null, installedBy: null });
    expect(chat.revoked).toEqual([token]);
    expect(await (await testDb(server.env))('chat_app_installations').where({ company_id: company.id })).toEqual([]);
    await at('/api/users/exports', admin, { method: 'POST' });
    await expect.poll(() => chat.webhook.length, { timeout: 20_000 }).toBe(1);
    expect(chat.webhook[0]).toContain('Users export is ready');
    expect(chat.posts.length).toBe(before + 1);
    const channels = await at<ErrorBody>('/api/company/chat-app/channels', admin);
    expect(channels.status).toBe(409);
    expect(channels.body.message).toBe('Connect the chat app first.');
  });

  it('needs company settings: view to read, edit to install', async () => {
    const employee = company.users.employee as TestUser;
    expect((await at('/api/company/chat-app', employee)).status).toBe(403);
    expect((await at('/api/company/chat-app/authorize', employee, { method: 'POST' })).status).toBe(403);
    expect((await request('/api/company/chat-app/authorize', { method: 'POST', base: server.url })).status).toBe(401);
  });
});
