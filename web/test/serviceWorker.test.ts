import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testDb } from '../../api/test/factories.js';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { launchChromium, screenshot, signInThroughProvider } from './browser.js';

/*
 * A browser that has used the app has its service worker, which answers navigations with the app
 * shell. The pages the server renders itself (links sent by e-mail, the provider's pages, enterprise
 * sign-in's callback, the legal texts) must still come from the server (api/src/http/serverPaths.ts).
 */
describe('the service worker of a browser that has used the app', () => {
  let browser: Browser;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    person = await createAdmin(await testDb());
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** Opens a path; whether the service worker answered it, and the page's first heading. */
  async function open(page: Page, path: string): Promise<{ fromWorker: boolean; heading: string; appShell: boolean }> {
    const response = await page.goto(`${base()}${path}`);
    await page.locator('h1').first().waitFor({ timeout: 20_000 });
    return {
      fromWorker: response?.fromServiceWorker() ?? false,
      heading: ((await page.locator('h1').first().textContent()) ?? '').trim(),
      appShell: (await page.locator('#root').count()) > 0,
    };
  }

  it('answers the app itself to a client that takes anything, as curl does', async () => {
    for (const accept of ['*/*', '']) {
      const reply = await fetch(`${base()}/`, { headers: { accept } });
      expect(reply.status, accept).toBe(200);
      expect(reply.headers.get('content-type'), accept).toMatch(/^text\/html/);
    }
    // A file that is not there is still a 404.
    expect((await fetch(`${base()}/nothing-here.js`, { headers: { accept: '*/*' } })).status).toBe(404);
  });

  it('lets every page the server renders through to the server, and opens the signed-out app offline', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.goto(`${base()}/home`);
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

    // The positive control: an address of the app's is answered by the worker with the shell.
    const appPage = await open(page, '/no-such-screen');
    expect(appPage).toMatchObject({ fromWorker: true, appShell: true });

    // Links from e-mails (their secrets unknown here: the server's own "no longer valid" pages), the
    // provider's device-code page, enterprise sign-in's callback and a legal text.
    const pages: [string, string | null][] = [
      ['/invitation/not-a-real-secret', 'This invitation is no longer valid'],
      ['/password-reset/not-a-real-secret', 'This link has expired'],
      ['/verify-email/not-a-real-token', 'This link has expired'],
      ['/domain-proof/not-a-real-token', 'This link has expired'],
      ['/oauth/device', 'Connect the Paybench CLI'],
      ['/auth/sso/callback?code=abc&state=def', null],
    ];
    for (const [path, heading] of pages) {
      const opened = await open(page, path);
      expect(opened, path).toMatchObject({ fromWorker: false, appShell: false });
      expect(opened.heading, path).not.toBe('Not found');
      if (heading) expect(opened.heading, path).toBe(heading);
    }
    // A legal text is a static file of the build: the worker may answer it from its copy, never with the shell.
    expect(await open(page, '/legal/terms.html')).toMatchObject({ appShell: false });
    await open(page, '/invitation/not-a-real-secret');
    await screenshot(page, `service-worker-invitation-${inject('engine')}-1280`);

    // Signed out, offline: the installed app opens its own sign-in screen, not the browser's error page.
    await page.goto(`${base()}/logout`);
    await expect.poll(() => page.getByRole('heading', { name: 'You are signed out' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await context.setOffline(true);
    await page.goto(`${base()}/home`);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Paybench' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByText('You are offline. Signing in needs a connection.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Continue to sign in' }).isDisabled()).toBe(true);
    await screenshot(page, `signed-out-offline-${inject('engine')}-1280`);
    await context.setOffline(false);
    await expect.poll(() => page.getByRole('button', { name: 'Continue to sign in' }).isEnabled()).toBe(true);
    await context.close();
  });
});
