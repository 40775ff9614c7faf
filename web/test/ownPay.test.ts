import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testDb } from '../../api/test/factories.js';
import { demoPassword, launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

const EMPLOYEE = 'employee@acme.test';

/** The demo employee's base salary in force today, straight from the database, as a phone shows it. */
async function expectedBase(): Promise<string> {
  const db = await testDb();
  const today = new Date().toISOString().slice(0, 10);
  const record = await db('compensation_records as c')
    .join('employees as e', 'e.id', 'c.employee_id')
    .join('users as u', 'u.id', 'e.user_id')
    .where({ 'u.email': EMPLOYEE, 'c.type': 'base_salary' })
    .andWhere('c.effective_date', '<=', today)
    .orderBy('c.effective_date', 'desc')
    .first<{ amount: number; currency: string }>('c.amount', 'c.currency');
  if (!record) throw new Error('the demo employee has no base salary');
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: record.currency, maximumFractionDigits: 0 }).format(record.amount / 100);
}

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
    await signInThroughProvider(page, base(), EMPLOYEE, demoPassword(inject('serverEnv')));
    const baseSalary = await expectedBase();

    const ownPay = page.getByTestId('own-pay');
    await page.getByRole('heading', { name: 'Your pay' }).waitFor({ timeout: 30_000 });
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
    await page.getByRole('heading', { name: 'Your pay' }).waitFor({ timeout: 30_000 });
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
    expect(await page.evaluate(async () => (await caches.keys()).length)).toBe(0);
    await context.close();
  });
});
