import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { type TestPerson, createPerson } from '../../api/src/identity/provider/testSupport.js';
import { insertEmployee, insertGrant, insertPay, monthsAgo } from '../../api/src/team/test/fixtures.js';
import { testDb } from '../../api/test/factories.js';
import { launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

/*
 * The employee is a person of a company of their own: signing out ends every sign-in of that
 * person, so the demo employee, whom other tests use at the same time, is not the one signed out.
 */
async function employeeWithPay(): Promise<TestPerson> {
  const db = await testDb();
  const person = await createPerson(db);
  const roles = await seedBuiltinRoles(db, person.companyId);
  await replaceUserRoles(db, { companyId: person.companyId }, person.id, [roles.get('employee') ?? '']);
  const start = monthsAgo(18);
  const employeeId = await insertEmployee(db, person.companyId, { firstName: person.firstName, lastName: person.lastName, userId: person.id, currency: 'USD', countryCode: 'US', locationId: null, startDate: start, title: 'Software engineer' });
  await insertPay(db, person.companyId, employeeId, [{ type: 'base_salary', amount: 12_345_600, currency: 'USD', effectiveDate: start }]);
  await insertGrant(db, person.companyId, employeeId, { type: 'option', shares: 4800, exercisePrice: 100, vestingStartDate: start });
  return person;
}

/** $123,456 a year, as an en-US phone shows it in whole dollars. */
const BASE_SALARY = '$123,456';

describe('an employee on a phone', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('sees their own pay, still sees it offline in the installed app, and leaves nothing behind on sign-out', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    const person = await employeeWithPay();
    await signInThroughProvider(page, base(), person.email, person.password);
    const baseSalary = BASE_SALARY;

    const ownPay = page.getByTestId('own-pay');
    await page.getByRole('heading', { name: 'Your pay', exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => ownPay.textContent()).toContain(`Base salary${baseSalary}`);
    expect(await page.locator('.own-grants li').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `home-own-pay-${inject('engine')}-375`);

    // Installed and offline: the shell and their own pay still show.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    // The last answers fetched online are the copies the device keeps; their Date is when they were
    // fetched, and the note names the older of the two.
    const dates: number[] = [];
    const kept = (response: Response) => {
      if (['/api/me', '/api/employees/me'].includes(new URL(response.url()).pathname) && response.status() === 200) dates.push(Date.parse(response.headers()['date'] ?? ''));
    };
    page.on('response', kept);
    await page.reload();
    await page.getByRole('heading', { name: 'Your pay', exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => dates.length).toBeGreaterThanOrEqual(2);
    page.off('response', kept);
    const fetchedAt = new Date(Math.min(...dates));
    const offlineNote = page.getByRole('status').filter({ hasText: 'Offline · as of' });
    expect(await offlineNote.count()).toBe(0);
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => ownPay.textContent(), { timeout: 30_000 }).toContain(`Base salary${baseSalary}`);
    // Pay shown from the kept copy says so, and since when (en-US, UTC: e.g. "Nov 24, 2026, 11:05 PM").
    const asOf = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(fetchedAt);
    await expect.poll(() => offlineNote.textContent(), { timeout: 30_000 }).toBe(`Offline · as of ${asOf}`);
    expect(asOf).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);
    await screenshot(page, `home-own-pay-offline-${inject('engine')}-375`);

    // What the device keeps of the API is the person's own two answers, nothing of anyone else's.
    const cached = await page.evaluate(async () => {
      const cache = await caches.open('paybench-own-data');
      return (await cache.keys()).map((request) => new URL(request.url).pathname).sort();
    });
    expect(cached).toEqual(['/api/employees/me', '/api/me']);
    // Back online, the kept answers are asked again and the note goes.
    await context.setOffline(false);
    await expect.poll(() => offlineNote.count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => ownPay.textContent()).toContain(`Base salary${baseSalary}`);

    // The server ends the provider session itself, so the provider has nothing to confirm.
    await page.goto(`${base()}/logout`);
    await expect.poll(() => page.getByRole('heading', { name: 'You are signed out' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.evaluate(async () => (await caches.keys()).filter((key) => !key.startsWith('workbox-precache')))).toEqual([]);
    await context.close();
  });
});
