import path from 'node:path';
import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { ARTIFACTS, apiTokenOf, launchChromium, signInThroughProvider, expectNoSidewaysScroll } from './browser.js';

describe('the web client’s plumbing, as a person meets it', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('on a 375 × 667 px phone, fits the navigation and reaches Sign out through "Menu"', async () => {
    // An admin of their own: signing out ends every sign-in of that person, and the demo admin is
    // signed in by other tests running at the same time.
    const person = await createAdmin(await testDb());
    const context = await browser.newContext({ viewport: { width: 375, height: 667 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), person.email, person.password);

    const tabBar = page.getByRole('navigation', { name: 'Main' });
    await tabBar.waitFor();
    // Nothing sticks out sideways: the page is as wide as the phone.
    await expectNoSidewaysScroll(page, 375);
    const barBox = await tabBar.boundingBox();
    expect(barBox && barBox.x >= 0 && barBox.x + barBox.width <= 375 && barBox.y + barBox.height <= 667).toBe(true);
    // Sign out is not on the bar itself; the bar's "Menu" holds it, on screen.
    expect(await tabBar.getByRole('link', { name: 'Sign out' }).count()).toBe(0);
    const menu = tabBar.getByRole('button', { name: 'Menu' });
    const menuBox = await menu.boundingBox();
    expect(menuBox && menuBox.x + menuBox.width <= 375).toBe(true);
    await menu.click();
    const sheet = page.getByRole('dialog', { name: 'Menu' });
    const signOut = sheet.getByRole('link', { name: 'Sign out' });
    await signOut.waitFor();
    // In view without scrolling, however many screens the menu lists.
    // (Asked until the sheet has finished sliding in.)
    const inView = async () => {
      const box = await signOut.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 375 && box.y + box.height <= 667;
    };
    await expect.poll(inView, { timeout: 10_000 }).toBe(true);
    // The screen as the phone shows it (the sheet is fixed to the bottom of the viewport).
    await page.screenshot({ path: path.join(ARTIFACTS, `phone-menu-${inject('engine')}-375.png`) });

    await signOut.click();
    await expect.poll(() => page.getByRole('heading', { name: 'You are signed out' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await context.close();
  });

  it('completes a sign-in whose token exchange met a network failure, by trying the exchange again', async () => {
    const person = await createAdmin(await testDb());
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    // The first POST oauth/token of the exchange never reaches the server; the next ones do.
    let exchanges = 0;
    await page.route('**/oauth/token', async (route) => {
      exchanges++;
      if (exchanges === 1) await route.abort('internetdisconnected');
      else await route.continue();
    });
    await page.goto(`${base()}/login`);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.waitForURL('**/interaction/**');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/acknowledge-terms-of-use', { timeout: 30_000 });
    expect(exchanges).toBe(2);
    await context.close();
  });

  it('renews an expired kept session with its refresh token at start-up instead of signing in again', async () => {
    const person = await createAdmin(await testDb());
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), person.email, person.password);
    const keptUser = () =>
      page.evaluate(() => {
        const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:'));
        return key ? (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token: string; refresh_token?: string; expires_at: number }) : null;
      });
    const before = await keptUser();
    expect(before?.refresh_token).toBeTruthy();
    // The kept access token ran out while the app was closed.
    await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
      const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { expires_at: number };
      localStorage.setItem(key, JSON.stringify({ ...user, expires_at: Math.floor(Date.now() / 1000) - 120 }));
    });
    const toProvider: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/authorize') || url.pathname.startsWith('/interaction')) toProvider.push(url.pathname);
    });
    await page.goto(`${base()}/home`);
    await expect.poll(() => page.getByRole('heading', { name: `Welcome, ${person.firstName}` }).isVisible(), { timeout: 30_000 }).toBe(true);
    const after = await keptUser();
    expect(after?.access_token).not.toBe(before?.access_token);
    expect((after?.expires_at ?? 0) * 1000).toBeGreaterThan(Date.now());
    // No trip through the provider's pages: the refresh token did it.
    expect(toProvider).toEqual([]);
    await context.close();
  });

  it('says which sign-in failure happened, and ends the session when the provider asks for a new sign-in', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    // An answer to a sign-in this device never started.
    await page.goto(`${base()}/auth0/callback?code=abc&state=not-started-here`);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign-in did not complete' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByText('This sign-in was not started on this device, or it is already complete. Please sign in again.').isVisible()).toBe(true);

    // A sign-in started here that the provider answers with login_required: the session ends.
    await page.goto(`${base()}/login`);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.waitForURL('**/interaction/**');
    const state = await page.evaluate(() => Object.keys(localStorage).find((key) => key.startsWith('oidc.') && !key.startsWith('oidc.user:'))?.slice('oidc.'.length));
    expect(state).toBeTruthy();
    await page.goto(`${base()}/auth0/callback?error=login_required&state=${state ?? ''}`);
    await page.waitForURL('**/logout**', { timeout: 15_000 });
    await expect.poll(() => page.getByRole('heading', { name: 'You are signed out' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await page.goto(`${base()}/login`);
    expect(await page.getByRole('alert').textContent()).toBe('Your session has expired. Please sign in again.');
    await context.close();
  });

  it('shows the company currency, and USD (logged) when the company cannot be read', async () => {
    const person = await createAdmin(await testDb());
    // The company works in euros.
    const token = await apiTokenOf(person.email);
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const current = (await (await fetch(`${base()}/api/company/settings`, { headers })).json()) as { data: { version: number } };
    const saved = await fetch(`${base()}/api/company/settings`, { method: 'PATCH', headers: { ...headers, 'If-Match': `"${current.data.version}"` }, body: JSON.stringify({ currency: 'EUR' }) });
    expect(saved.status).toBe(200);

    // Without a service worker, so the one interception below sees the page's own request.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', serviceWorkers: 'block' });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), person.email, person.password);
    const account = page.locator('.side-menu .account-detail');
    await expect.poll(() => account.textContent(), { timeout: 15_000 }).toMatch(/ · EUR$/);

    // The company's profile (its member-safe read) fails (the server stays real for everything else).
    const logged: ConsoleMessage[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().startsWith('Company settings could not be loaded')) logged.push(message);
    });
    await page.route('**/api/company/profile', (route) => route.fulfill({ status: 500, body: '' }));
    await page.reload();
    await expect.poll(() => account.textContent(), { timeout: 15_000 }).toMatch(/ · USD$/);
    await expect.poll(() => logged.length).toBeGreaterThan(0);
    const [first] = logged;
    expect(first?.text().startsWith('Company settings could not be loaded; using USD.')).toBe(true);
    // The failure as the spec normalises it: the HTTP client's message, the status as code, the url.
    expect(await first?.args()[1]?.jsonValue()).toEqual({
      message: 'Request failed with status code 500',
      code: '500',
      status: 500,
      url: '/api/company/profile',
      title: 'Something went wrong',
      description: 'An unexpected error occurred. Please wait and try again.',
    });
    await context.close();
  });
});
