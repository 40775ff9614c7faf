import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { testDb } from '../../api/test/factories.js';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { launchChromium, screenshot, seriousViolations } from './browser.js';

describe('the PWA in a real browser', () => {
  let browser: Browser;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    person = await createAdmin(await testDb());
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('signs in through the provider, accepts the terms, shows the company’s modules, and signs out clearing every cache', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${base()}/`);
    await page.waitForURL('**/login');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();

    await page.waitForURL('**/interaction/**');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL('**/acknowledge-terms-of-use');
    await page.getByRole('button', { name: 'I accept the terms of use' }).click();
    await page.waitForURL('**/home');
    await expect.poll(() => page.getByRole('heading', { name: `Welcome, ${person.firstName}` }).isVisible()).toBe(true);
    const marketData = page.locator('[data-module="benchmarking"]');
    await expect.poll(() => marketData.textContent()).toContain('Available');
    expect(await page.locator('[data-module="bands"]').textContent()).toContain('Not switched on for your company');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `home-signed-in-${inject('engine')}-375`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, `home-signed-in-${inject('engine')}-1280`);

    // The admin's user list comes from the API with the signed-in token.
    await page.getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => page.getByRole('gridcell', { name: person.email }).isVisible()).toBe(true);

    // Installable: a manifest with icons and standalone display, and an active service worker.
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await page.request.get(`${base()}${manifestHref}`)).json()) as { display: string; icons: { sizes: string }[]; start_url: string };
    expect(manifest).toMatchObject({ display: 'standalone', start_url: '/home' });
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    await page.evaluate(() => navigator.serviceWorker.ready);
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBeGreaterThan(0);

    // Offline: once the service worker controls the page, the shell and the person's own record still show.
    await page.goto(`${base()}/home`);
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.reload();
    await expect.poll(() => marketData.textContent()).toContain('Available');
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: `Welcome, ${person.firstName}` }).isVisible()).toBe(true);
    await screenshot(page, `home-offline-${inject('engine')}-1280`);
    await context.setOffline(false);

    // Signing out ends the provider session and leaves nothing behind on the device.
    // The server ends the provider session itself, so the provider has nothing to confirm.
    await page.goto(`${base()}/logout`);
    await expect.poll(() => page.getByRole('heading', { name: 'You are signed out' }).isVisible(), { timeout: 15_000 }).toBe(true);
    // Only the app's own files stay (workbox's precache: code, no one's data), so it still opens offline.
    expect(await page.evaluate(async () => (await caches.keys()).filter((key) => !key.startsWith('workbox-precache')))).toEqual([]);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('oidc.')))).toEqual([]);
    // The provider session is gone: signing in again asks for the password.
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.waitForURL('**/interaction/**');
    await expect.poll(() => page.getByLabel('Password').isVisible()).toBe(true);
    await context.close();
  });

  it('signs in when the address is opened under another name for this machine', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The server's public address is 127.0.0.1; "localhost" reaches the same port.
    const other = base().replace('127.0.0.1', 'localhost');
    expect(other).not.toBe(base());
    await page.goto(`${other}/login`);
    expect(new URL(page.url()).host).toBe(new URL(base()).host);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.waitForURL('**/interaction/**');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Welcome, ${person.firstName}` }).or(page.getByRole('button', { name: 'I accept the terms of use' })).first().waitFor();
    await context.close();
  });

  it('sends a person whose token is refused to /logout with the reason', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base()}/login`);
    // A stored session the server does not accept.
    await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? 'oidc.user:' + location.origin + ':paybench-web';
      localStorage.setItem(key, JSON.stringify({ access_token: 'pb_not-a-token-anyone-issued', token_type: 'Bearer', profile: { sub: 'x' }, expires_at: Math.floor(Date.now() / 1000) + 3600 }));
    });
    // The refusal may send the page on before it has loaded: only the request is awaited.
    await page.goto(`${base()}/home`, { waitUntil: 'commit' });
    await page.waitForURL('**/logout**');
    await expect.poll(() => page.getByRole('heading', { name: 'You are signed out' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await page.waitForLoadState('networkidle');
    await page.goto(`${base()}/login`);
    expect(await page.getByRole('alert').textContent()).toBe('Your sign-in was not accepted. Please sign in again.');
    await context.close();
  });
});
