import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { pdfText } from '../../api/src/documents/test/pdfText.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestPerson, createPerson } from '../../api/src/identity/provider/testSupport.js';
import { insertEmployee, insertGrant, insertPay, monthsAgo } from '../../api/src/team/test/fixtures.js';
import { type TestUser, bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium, screenshot, screenshotsAtBothWidths, seriousViolations, signInThroughProvider, expectNoSidewaysScroll } from './browser.js';

type Statement = components['schemas']['TotalRewardsStatement'];
type Money = components['schemas']['Money'];

/** As the statement shows a year's pay on an en-US phone: whole units. */
const shown = (money: Money | null | undefined): string => {
  if (!money) throw new Error('the API gave no amount');
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: money.currency, maximumFractionDigits: 0 }).format(money.amount / 100);
};

describe('an employee’s total-rewards statement in the installed PWA', () => {
  let browser: Browser;
  let db: Knex;
  let person: TestPerson;
  let admin: TestUser;
  let colleagueId: string;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  beforeAll(async () => {
    db = await testDb();
    // A company of its own: other browser tests on this server expect the demo company without total rewards.
    person = await createPerson(db);
    const roles = await seedBuiltinRoles(db, person.companyId);
    await replaceUserRoles(db, { companyId: person.companyId }, person.id, [roles.get('employee') ?? '']);
    admin = await createTestUser(db, { companyId: person.companyId, roleIds: [roles.get('admin') ?? ''] });
    const support = await createTestUser(db, { companyId: person.companyId, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${person.companyId}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    const settings = await request<{ data: { version: number } }>('/api/company/settings', { headers: bearer(admin) });
    const shares = await request('/api/company/settings', { method: 'PATCH', headers: { ...bearer(admin), 'If-Match': `"${settings.body.data.version}"` }, json: { currency: 'USD', sharePrice: 5, exercisePrice: 1 } });
    expect(shares.status).toBe(200);
    const benefits = await request('/api/total-rewards/settings', {
      method: 'PATCH',
      headers: { ...bearer(admin), 'If-Match': '"0"' },
      json: { benefits: [{ id: 'health', name: 'Health insurance', description: 'For you and your family.', annualValue: { amount: 240_000, currency: 'EUR' }, userGroupIds: [] }] },
    });
    expect(benefits.status).toBe(200);

    // 4,800 options at $1.00, vesting monthly over four years from the first of the month two years ago, with a one-year cliff.
    const start = monthsAgo(24);
    const employeeId = await insertEmployee(db, person.companyId, { firstName: person.firstName, lastName: person.lastName, userId: person.id, currency: 'EUR', countryCode: 'DE', locationId: null, startDate: start, title: 'Software engineer' });
    await insertPay(db, person.companyId, employeeId, [
      { type: 'base_salary', amount: 6_000_000, currency: 'EUR', effectiveDate: start },
      { type: 'bonus_target', amount: 600_000, currency: 'EUR', effectiveDate: start, percentOfBaseBp: 1000 },
    ]);
    await insertGrant(db, person.companyId, employeeId, { type: 'option', shares: 4800, exercisePrice: 100, vestingStartDate: start });
    colleagueId = await insertEmployee(db, person.companyId, { firstName: 'Cora', lastName: 'Colleague' });
    await insertPay(db, person.companyId, colleagueId, [{ type: 'base_salary', amount: 9_900_000, effectiveDate: start }]);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('shows the API’s figures on a phone, models 3×, stays readable offline, and leaves nothing behind on sign-out', async () => {
    const token = await apiTokenOf(person.email);
    const reply = await request<{ data: Statement }>('/api/total-rewards/statement', { headers: { Authorization: `Bearer ${token}` } });
    expect(reply.status).toBe(200);
    const statement = reply.body.data;
    // Nobody reads another's statement, over the API as on screen.
    expect((await request(`/api/total-rewards/statements/${colleagueId}`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(404);

    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const sentWithToken: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('/api/') && sent.headers().authorization) sentWithToken.push(new URL(sent.url()).pathname);
    });
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/totalrewards/statement`);

    // The figures the API gave, in the employee's pay currency.
    const total = page.getByTestId('tr-total');
    await expect.poll(() => total.textContent(), { timeout: 30_000 }).toBe(shown(statement.overview?.total.local));
    expect(await page.getByTestId('tr-salary-base_salary').textContent()).toBe(shown(statement.salary?.items[0]?.amount.local));
    expect(await page.getByTestId('tr-equity-vested').textContent()).toBe(shown(statement.equity?.totals.value?.vested.local));
    expect(await page.getByTestId('tr-grant-vested').textContent()).toBe('2,400 of 4,800 (50.0%)');
    await page.getByRole('heading', { name: 'Benefits', exact: true }).waitFor();
    expect(await page.getByText('Health insurance').count()).toBe(1);
    // The company currency, at the rate the statement names.
    await page.getByRole('button', { name: /^USD/ }).click();
    await expect.poll(() => total.textContent()).toBe(shown(statement.overview?.total.company));
    await page.getByRole('button', { name: /^EUR/ }).click();

    // The simulator: two steps up the slider is 3× the $5.00 share price: 4,800 × ($15.00 − $1.00) = $67,200.
    const slider = page.getByRole('slider', { name: /Company valuation/ });
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByTestId('tr-sim-equity').textContent()).toBe('$67,200');
    expect(await page.getByText('it models no tax', { exact: false }).count()).toBeGreaterThan(0);

    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `total-rewards-statement-${engine}`);

    // The PDF, downloaded from the screen, says the person's name and figures as text.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^total-rewards-.+\.pdf$/);
    const text = pdfText(readFileSync(await download.path())).replaceAll('\x80', '€');
    expect(text).toContain('Total rewards statement:');
    expect(text).toContain(person.lastName);
    expect(text).toContain(shown(statement.salary?.items[0]?.amount.local));

    // Installed and offline: the shell and the statement still show, from what the device kept.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await expect.poll(() => total.textContent(), { timeout: 30_000 }).toBe(shown(statement.overview?.total.local));
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => total.textContent(), { timeout: 30_000 }).toBe(shown(statement.overview?.total.local));
    await page.getByText('Offline: the copy saved on this device').waitFor();
    const kept = await page.evaluate(async () => {
      const names = await caches.keys();
      const urls: string[] = [];
      for (const name of names.filter((candidate) => !candidate.startsWith('workbox-precache'))) for (const entry of await (await caches.open(name)).keys()) urls.push(new URL(entry.url).pathname);
      return { names, urls: urls.sort() };
    });
    expect(kept.names).toContain('paybench-total-rewards');
    // Only the person's own answers: their statement, their issued statements, who they are, and their own employee record;
    // and the currency table every amount's decimals come from (public reference data, the same for everyone).
    expect(kept.urls.every((url) => ['/api/me', '/api/employees/me', '/api/total-rewards/statement', '/api/total-rewards/issued-statements', '/api/currencies'].includes(url))).toBe(true);
    expect(kept.urls).toContain('/api/currencies');
    expect(kept.urls).toContain('/api/total-rewards/statement');
    // Never opened on a device (its kept copy gone), offline: the screen says so, and opens it once back online.
    await page.evaluate(async () => (await caches.open('paybench-total-rewards')).delete('/api/total-rewards/statement'));
    await page.reload();
    await page.getByRole('heading', { name: 'This statement is not saved on this device' }).waitFor({ timeout: 30_000 });
    expect((await page.locator('main').textContent()) ?? '').not.toContain('Something went wrong');
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => total.textContent(), { timeout: 30_000 }).toBe(shown(statement.overview?.total.local));

    // The token went only where a call needs one: their own data.
    expect(sentWithToken.every((path) => !path.startsWith('/api/events/'))).toBe(true);

    // Signing out removes every saved answer from the device; only the app's own files (its code) stay.
    await page.goto(`${base()}/logout`);
    await expect.poll(() => page.getByRole('heading', { name: 'You are signed out' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.evaluate(async () => (await caches.keys()).filter((key) => !key.startsWith('workbox-precache')))).toEqual([]);
    await context.close();
  }, 240_000);

  it('lets an admin switch a section off with a live preview as a chosen employee, on every communicate route', async () => {
    const password = `admin password ${person.companyId.slice(-6)}`;
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(password), email_verified: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), admin.email, password);

    // All 17 routes of the spec's communicate settings.
    const routes = ['', '/benefits', '/benefits/benefits', '/benefits/user-groups', '/about-us', '/appearance', '/overview', '/timeline', '/compensation', '/salary', '/equity', '/bonus', '/variable-pay', '/future-grants', '/future-modeling', '/future-modeling/comp-simulator', '/learning-hub'];
    for (const route of routes) {
      await page.goto(`${base()}/settings/communicate${route}`);
      await page.locator('h1').first().waitFor();
      expect(await page.getByText('No such communicate setting').count(), route).toBe(0);
      await page.locator('.tr-communicate-form form, .tr-section-list').first().waitFor();
    }

    await page.goto(`${base()}/settings/communicate/equity`);
    const preview = page.locator('.tr-live');
    await preview.getByLabel('Preview as').fill(person.lastName);
    await preview.getByRole('button', { name: new RegExp(person.lastName) }).click();
    await preview.locator('[data-section="equity"]').waitFor();
    await page.getByLabel('Show this section to employees').uncheck();
    await expect.poll(() => preview.locator('[data-section="equity"]').count(), { timeout: 30_000 }).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `total-rewards-communicate-${engine}`);

    const saved = page.waitForResponse((response) => response.url().endsWith('/api/total-rewards/settings') && response.request().method() === 'PATCH');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await saved).status()).toBe(200);
    const token = await apiTokenOf(person.email);
    const after = await request<{ data: Statement }>('/api/total-rewards/statement', { headers: { Authorization: `Bearer ${token}` } });
    expect(after.body.data.equity).toBeUndefined();
    expect(after.body.data.sectionOrder).not.toContain('equity');

    // The admin previews the employee's statement as they see it: no equity now.
    await page.goto(`${base()}/totalrewards/preview`);
    await page.getByLabel('Whose statement').fill(person.lastName);
    await page.getByRole('button', { name: new RegExp(person.lastName) }).click();
    await page.getByText('You are previewing someone else’s statement').waitFor();
    await page.getByTestId('tr-total').waitFor();
    expect(await page.locator('[data-section="equity"]').count()).toBe(0);
    await screenshot(page, `total-rewards-preview-${engine}-1280`);

    // Back on, for what follows.
    await page.goto(`${base()}/settings/communicate/equity`);
    await page.getByLabel('Show this section to employees').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved. Employees see it on their next visit.').waitFor();
    await context.close();
  }, 240_000);
});
