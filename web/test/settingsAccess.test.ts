import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, expectNoSidewaysScroll, launchChromium, screenshotsAtBothWidths, seriousViolations } from './browser.js';
import { signedIn } from './companySetup.js';

type Rate = components['schemas']['CompanyExchangeRate'];

/*
 * The settings screens for what had no screen: the company's own exchange rates (set, refused,
 * removed), its guests, the person's own access, and the company's market participation, segments
 * and release flags — in a company of the test's own, at 1280 and 375 px.
 */
describe('exchange rates, guests and access settings in a real browser', () => {
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  let adminToken: string;
  let guestEmail: string;

  beforeAll(async () => {
    const db = await testDb();
    admin = await createAdmin(db);
    guestEmail = `candidate-${admin.companyId.slice(-6)}@elsewhere.test`;
    await createTestUser(db, { companyId: admin.companyId, candidate: true, email: guestEmail });
    adminToken = await apiTokenOf(admin.email);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const ratesOf = async () => {
    const reply = await request<{ data: Rate[] }>('/api/company/exchange-rates', { headers: { Authorization: `Bearer ${adminToken}` } });
    expect(reply.status).toBe(200);
    return reply.body.data;
  };

  it('an admin sets a EUR → USD rate, is told why a zero rate and a second rate on the same day are refused, and removes it', async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);
    const base = inject('baseUrl');
    await page.goto(`${base}/settings`);
    await page.getByRole('link', { name: 'Exchange rates' }).click();
    await page.getByRole('heading', { name: 'Exchange rates', level: 1 }).waitFor();
    await page.getByText('No rates of your own').waitFor();

    await page.getByLabel('From currency').selectOption('EUR');
    await page.getByLabel('To currency').selectOption('USD');
    await page.getByLabel('From date').fill('2026-01-01');
    await page.getByLabel('Note').fill('Budget rate 2026');
    // Zero passes the field's pattern; the server refuses it in its words.
    await page.getByLabel('Rate (1 of the first in the second)').fill('0');
    await page.getByRole('button', { name: 'Set rate' }).click();
    await page.getByRole('alert').filter({ hasText: 'must be greater than zero' }).waitFor();
    expect(await ratesOf()).toEqual([]);

    await page.getByLabel('Rate (1 of the first in the second)').fill('1.0850');
    await page.getByRole('button', { name: 'Set rate' }).click();
    await page.getByText('1 EUR converts at 1.085 USD', { exact: false }).first().waitFor();
    const row = page.locator('[data-rate="EUR-USD-2026-01-01"]').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('1.085');
    expect(await row.textContent()).toContain('Budget rate 2026');
    const stored = await ratesOf();
    expect(stored).toEqual([expect.objectContaining({ base: 'EUR', quote: 'USD', rate: '1.085', effectiveDate: '2026-01-01', note: 'Budget rate 2026', createdBy: admin.id })]);

    // The same pair on the same day again: refused, with the way out.
    await page.getByLabel('From currency').selectOption('EUR');
    await page.getByLabel('To currency').selectOption('USD');
    await page.getByLabel('From date').fill('2026-01-01');
    await page.getByLabel('Rate (1 of the first in the second)').fill('1.1');
    await page.getByRole('button', { name: 'Set rate' }).click();
    await page.getByRole('alert').filter({ hasText: 'already has a EUR→USD rate from 2026-01-01; remove it first' }).waitFor();
    expect(await ratesOf()).toHaveLength(1);

    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, 'settings-exchange-rates');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSidewaysScroll(page, 375);
    // On a phone the rate is a card, still removable.
    await page.getByRole('button', { name: 'Remove EUR → USD from 2026-01-01' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Remove rate' }).click();
    await page.getByText('No rates of your own').waitFor();
    expect(await ratesOf()).toEqual([]);
    await context.close();
  }, 240_000);

  it('an admin sees the company’s guests, their own access, and the company’s participation, segments and flags', async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);
    const base = inject('baseUrl');
    await page.goto(`${base}/settings`);
    await page.getByRole('link', { name: 'Guests' }).click();
    await page.getByRole('heading', { name: 'Guests', level: 1 }).waitFor();
    const guest = page.locator(`[data-guest="${guestEmail}"]`).first();
    await guest.waitFor();
    expect(await guest.textContent()).toContain('Never');
    // The guest is not one of the company's users.
    expect(await page.getByText(admin.email).count()).toBe(0);

    await page.goto(`${base}/settings`);
    await page.getByRole('link', { name: 'Your access' }).click();
    await page.getByRole('heading', { name: 'Your access', level: 1 }).waitFor();
    const accounts = page.getByRole('list', { name: 'Your company accounts' });
    await accounts.getByText('Signed in').waitFor();
    expect(await accounts.textContent()).toContain('Sign-in Test');
    const permissions = page.getByRole('list', { name: 'Your permissions' });
    await permissions.locator('[data-permission="companySettings"]').waitFor();
    expect(await permissions.locator('[data-permission="companySettings"]').textContent()).toContain('can see and change for the whole company');
    expect(await page.getByRole('table', { name: 'Modules' }).textContent()).toContain('Open to you');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSidewaysScroll(page, 375);
    await screenshotsAtBothWidths(page, 'settings-your-access');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/settings/company-info`);
    await page.getByRole('heading', { name: 'Market participation and plan' }).waitFor();
    await expect.poll(() => page.getByTestId('data-submission-status').textContent()).toBe('Not taking part');
    expect(await page.getByTestId('data-submitted-at').textContent()).toBe('Never');
    expect(await page.getByTestId('enterprise-tags').textContent()).toBe('Customer segments: none');
    await page.locator('[data-flag="benchmarking"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, 'settings-company-standing');
    await context.close();
  }, 240_000);
});
