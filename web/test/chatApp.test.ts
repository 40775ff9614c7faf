import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer } from '../../api/test/server.js';
import { type FakeChat, fakeChatEnv, startFakeChat } from '../../api/src/notifications/chatApp/test/chatServer.js';
import { demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

const ADMIN = 'admin@acme.test';

// Its own server, with the chat app's OAuth pointing at a chat app of the test's.
describe('installing the chat app through OAuth, in a real browser', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let chat: FakeChat;
  let browser: Browser;

  beforeAll(async () => {
    chat = await startFakeChat();
    server = await startTestServer(fakeChatEnv(chat), { demoMarketRecords: 20_000 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await chat?.stop();
  });

  it('an admin connects the chat app, comes back, picks a channel, sends a test message and disconnects', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, server.url, ADMIN, demoPassword(server.env));
    await page.goto(`${server.url}/settings/notifications`);
    const section = page.getByRole('region', { name: 'Chat app' });
    await section.getByRole('button', { name: 'Connect the chat app' }).click();

    // Off to the chat app, which approves at once and sends the browser back with a code and state.
    await page.waitForURL(`${server.url}/settings/notifications`, { timeout: 30_000 });
    await expect.poll(() => section.getByText('Connected to Notified Chat').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(page.url()).toBe(`${server.url}/settings/notifications`);
    expect(await section.getByText('Choose the channel notifications go to.').isVisible()).toBe(true);

    const picker = section.getByLabel('Channel');
    await expect.poll(() => picker.locator('option').allTextContents(), { timeout: 20_000 }).toEqual(['Choose a channel', '#comp-team', '#general', '#random']);
    await picker.selectOption('C2');
    await section.getByRole('button', { name: 'Save channel' }).click();
    await expect.poll(() => section.getByText('Notifications go to #comp-team.').isVisible(), { timeout: 10_000 }).toBe(true);
    await section.getByRole('button', { name: 'Send a test message' }).click();
    await expect.poll(() => page.getByText('Test message sent to #comp-team.').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(chat.posts).toHaveLength(1);
    expect(chat.posts[0]).toMatchObject({ channel: 'C2' });
    expect(chat.posts[0]?.text).toMatch(/^Test message from Paybench, sent by .+\. Notifications will arrive in this channel\.$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `chat-app-installed-${inject('engine')}`);

    await section.getByRole('button', { name: 'Disconnect the chat app' }).click();
    await expect.poll(() => section.getByRole('button', { name: 'Connect the chat app' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => chat.revoked.length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByText('Chat app disconnected. Chat notifications use the webhook, if one is set.').isVisible(), { timeout: 10_000 }).toBe(true);

    // Coming back with a state that was already spent is refused, and says so.
    await page.goto(`${server.url}/settings/notifications?code=code-1&state=spent-or-made-up`);
    await expect.poll(() => section.getByText('This chat-app authorization was not started by you in this company. Connect the chat app again.').isVisible(), { timeout: 20_000 }).toBe(true);
    await context.close();
  });
});
