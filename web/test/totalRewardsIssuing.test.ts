import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { pdfText } from '../../api/src/documents/test/pdfText.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestPerson, createPerson } from '../../api/src/identity/provider/testSupport.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestUser, bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { launchChromium, seriousViolations, signInThroughProvider, expectNoSidewaysScroll } from './browser.js';

// Hand-checked: the employee's base salary is €60,000.00 (6,000,000 cents) from 2024-01-01, in force on
// 2025-06-30, so the statement issued as of that day says "€60,000"; Cora's is $99,000.00.
const TITLE = '2025 mid-year statement';
const AS_OF = '2025-06-30';

/** A PDF's text with the euro sign read back (Windows-1252 puts it at 0x80). */
const textOf = (path: string): string => pdfText(readFileSync(path)).replaceAll('\x80', '€');

/** The paths of every entry the service worker keeps (the precache of the app's own files aside). */
const keptPaths = (page: Page): Promise<string[]> =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of (await caches.keys()).filter((candidate) => !candidate.startsWith('workbox-precache'))) {
      for (const entry of await (await caches.open(name)).keys()) urls.push(new URL(entry.url).pathname);
    }
    return urls.sort();
  });

/** Waits until the service worker controls the page, so what it fetches from now on goes through it. */
async function installed(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 }).toBe(true);
}

describe('issuing total-rewards statements, and reading them offline', () => {
  let browser: Browser;
  let db: Knex;
  let person: TestPerson;
  let admin: TestUser;
  let adminPassword = '';
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    db = await testDb();
    // A company of its own: the demo company and its sign-ins stay as other browser tests expect them.
    person = await createPerson(db);
    const roles = await seedBuiltinRoles(db, person.companyId);
    await replaceUserRoles(db, { companyId: person.companyId }, person.id, [roles.get('employee') ?? '']);
    admin = await createTestUser(db, { companyId: person.companyId, roleIds: [roles.get('admin') ?? ''] });
    adminPassword = `admin password ${person.companyId.slice(-6)}`;
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(adminPassword), email_verified: true });
    const support = await createTestUser(db, { companyId: person.companyId, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${person.companyId}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    const employeeId = await insertEmployee(db, person.companyId, { firstName: person.firstName, lastName: person.lastName, userId: person.id, currency: 'EUR', countryCode: 'DE', locationId: null, startDate: '2024-01-01' });
    await insertPay(db, person.companyId, employeeId, [{ type: 'base_salary', amount: 6_000_000, currency: 'EUR', effectiveDate: '2024-01-01' }]);
    const cora = await insertEmployee(db, person.companyId, { firstName: 'Cora', lastName: 'Colleague', startDate: '2024-01-01' });
    await insertPay(db, person.companyId, cora, [{ type: 'base_salary', amount: 9_900_000, effectiveDate: '2024-01-01' }]);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('lets an admin issue a statement to one employee, see it listed, and download it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), admin.email, adminPassword);
    await page.goto(`${base()}/totalrewards`);
    // Reached from the admins' links of total rewards.
    await page.getByRole('link', { name: 'Issue statements' }).click();
    await page.getByRole('heading', { name: 'Issue statements', level: 1 }).waitFor();
    await installed(page);
    await page.getByText('Nothing issued yet').waitFor();

    const form = page.getByRole('form', { name: 'Issue statements' });
    // Without a title the screen says what is missing, and nothing is issued.
    await form.getByRole('button', { name: 'Issue statements' }).click();
    await form.getByRole('alert').getByText('Give the statements a title, as employees will see it.').waitFor();

    await form.getByLabel('Title').fill(TITLE);
    await form.getByLabel('As of').fill(AS_OF);
    await form.getByRole('searchbox', { name: 'Employee' }).fill(person.lastName);
    await form.getByRole('button', { name: new RegExp(`${person.firstName} ${person.lastName}`) }).click();
    await form.getByText(`Issuing to ${person.firstName} ${person.lastName}.`).waitFor();
    await form.getByRole('button', { name: 'Issue statements' }).click();

    // The job runs and ends; the list shows who, what and as of when.
    const row = page.locator('tr', { hasText: TITLE });
    await row.waitFor();
    expect(await row.getByRole('rowheader').textContent()).toBe(`${person.firstName} ${person.lastName}`);
    expect(await row.getByText('Jun 30, 2025').count()).toBe(1);
    expect(await page.locator('tr[data-issued-id]').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: `Download ${TITLE} for ${person.firstName} ${person.lastName} (PDF)` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('2025-mid-year-statement.pdf');
    const text = textOf(await download.path());
    expect(text).toContain(TITLE);
    expect(text).toContain(person.lastName);
    expect(text).toContain('€60,000');
    // An admin's read of someone's statement is never kept on the device.
    expect((await keptPaths(page)).filter((path) => path.startsWith('/api/total-rewards/'))).toEqual([]);

    // On a phone the form and the list still fit.
    await page.setViewportSize({ width: 375, height: 800 });
    await row.waitFor();
    await expectNoSidewaysScroll(page, 375);
    await context.close();
  }, 240_000);

  it("keeps the employee's issued statements and the PDF they opened readable offline, and nothing after sign-out", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/totalrewards`);
    await installed(page);
    const list = page.getByRole('region', { name: 'Issued statements' });
    await list.getByText(TITLE).waitFor();
    const button = list.getByRole('button', { name: `Download ${TITLE} (PDF)` });

    // Online, the person opens the PDF once.
    const online = page.waitForEvent('download');
    await button.click();
    expect(textOf(await (await online).path())).toContain('€60,000');
    const kept = await keptPaths(page);
    const pdfPath = kept.find((path) => /^\/api\/total-rewards\/statement\/issued\/[^/]+\/pdf$/.test(path));
    // The positive control: their list and the PDF they opened are on the device, and only their own answers.
    expect(kept).toContain('/api/total-rewards/issued-statements');
    expect(pdfPath).toBeDefined();
    expect(kept.every((path) => ['/api/me', '/api/employees/me', '/api/total-rewards/statement', '/api/total-rewards/issued-statements', '/api/currencies', pdfPath].includes(path))).toBe(true);

    // Offline, the list and that PDF still load.
    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline: the copy saved on this device').waitFor();
    await list.getByText(TITLE).waitFor();
    expect(await list.getByText(`as of ${AS_OF}`).count()).toBe(1);
    const offline = page.waitForEvent('download');
    await button.click();
    const text = textOf(await (await offline).path());
    expect(text).toContain(TITLE);
    expect(text).toContain('€60,000');
    await context.setOffline(false);

    // Signing out removes every cache from the device.
    await page.goto(`${base()}/logout`);
    await expect.poll(() => page.getByRole('heading', { name: 'You are signed out' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.evaluate(async () => (await caches.keys()).filter((key) => !key.startsWith('workbox-precache')))).toEqual([]);
    await context.close();
  }, 240_000);
});
