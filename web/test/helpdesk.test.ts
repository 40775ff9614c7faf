import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { launchChromium, seriousViolations, signInThroughProvider } from './browser.js';

const TOKEN_PATH = '/api/help-desk/token';
/** What the token endpoint answers when it works (this server has no help-desk secret, so the one call is answered here). */
const TOKEN_ANSWER = { status: 200, contentType: 'application/json', body: JSON.stringify({ data: { jwt: 'header.payload.signature' } }) };
const DOWN_ANSWER = { status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'unavailable', message: 'Try again later.' }) };

describe('the help desk', () => {
  let browser: Browser;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    // A company of its own with the help-desk release flag switched on by an internal admin.
    const db = await testDb();
    person = await createAdmin(db);
    const support = await createTestUser(db, { companyId: null, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${person.companyId}/release-flags/help_desk`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** A desktop page whose token calls are answered by `answer` (by attempt, from 1) and counted. */
  async function pageWithToken(answer: (attempt: number) => typeof TOKEN_ANSWER): Promise<{ context: BrowserContext; page: Page; attempts: () => number }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    let attempts = 0;
    await page.route(`**${TOKEN_PATH}`, (route) => {
      attempts += 1;
      return route.fulfill(answer(attempts));
    });
    return { context, page, attempts: () => attempts };
  }

  const launcher = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Help', exact: true });

  it('shows its launcher on /home, opens and closes its panel, is not there on onboarding, and is gone after sign out', async () => {
    const { context, page, attempts } = await pageWithToken(() => TOKEN_ANSWER);
    await signInThroughProvider(page, base(), person.email, person.password);
    await launcher(page).waitFor({ timeout: 30_000 });
    expect(attempts()).toBe(1);

    // The panel: guides and who to contact; closing it keeps the launcher.
    await launcher(page).click();
    const panel = page.getByRole('dialog', { name: 'Help' });
    await panel.waitFor();
    expect(await panel.getByRole('link', { name: 'Getting started' }).isVisible()).toBe(true);
    expect(await panel.getByRole('link', { name: 'Terms of use' }).getAttribute('href')).toBe('/legal/terms.html');
    expect(await panel.getByText('contact your company admin').isVisible()).toBe(true);
    expect(await panel.getByText(`(${person.email})`).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await panel.getByRole('button', { name: /close/i }).click();
    await panel.waitFor({ state: 'detached' });
    expect(await launcher(page).isVisible()).toBe(true);

    // On a phone the launcher sits in the top bar, never over the tab bar at the bottom.
    await page.setViewportSize({ width: 375, height: 667 });
    await page.getByRole('banner').getByRole('button', { name: 'Help', exact: true }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Help', exact: true }).count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await launcher(page).waitFor();

    // Onboarding: shut down.
    await page.goto(`${base()}/onboarding`);
    await page.getByRole('link', { name: 'You', exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await launcher(page).count()).toBe(0);

    // Back on a screen of the product: booted again.
    await page.goto(`${base()}/home`);
    await launcher(page).waitFor({ timeout: 30_000 });

    // Signing out shuts it down.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/home'), { timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Help', exact: true }).count()).toBe(0);
    await context.close();
  }, 120_000);

  it('asks for the token again when the first attempts fail, then boots', async () => {
    const { context, page, attempts } = await pageWithToken((attempt) => (attempt <= 2 ? DOWN_ANSWER : TOKEN_ANSWER));
    await signInThroughProvider(page, base(), person.email, person.password);
    await launcher(page).waitFor({ timeout: 30_000 });
    expect(attempts()).toBe(3);
    await context.close();
  });

  it('after 5 failed attempts reports the error and stays hidden', async () => {
    const { context, page, attempts } = await pageWithToken(() => DOWN_ANSWER);
    const isHelpDeskReport = (sent: Request) => sent.url().endsWith('/api/events/track') && (sent.postData() ?? '').includes('Help desk: the identity token failed 5 times');
    const reported = page.waitForRequest(isHelpDeskReport, { timeout: 60_000 });
    await signInThroughProvider(page, base(), person.email, person.password);
    const report = await reported;
    const body = JSON.parse(report.postData() ?? '{}') as { event: string; properties: { message: string } };
    expect(body.event).toBe('Client Error');
    expect(body.properties.message).toBe('Help desk: the identity token failed 5 times (Try again later.)');
    expect(attempts()).toBe(5);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await launcher(page).count()).toBe(0);
    await context.close();
  });
});
