import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../api/src/contract-types.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

type Schemas = components['schemas'];

/*
 * The notice before a planning window closes, as people set it by clicking: the admin gives a
 * running cycle's windows a 12-hour reminder (the notice is planned 12 hours before the close), and a
 * person turns its e-mail off in Settings → Notifications. What the notice sends is tested over SMTP
 * in api/src/meritCycles/windowNotices.test.ts.
 */

const PASSWORD = 'window notices by hand 2026';
const HOUR = 3_600_000;

async function signedIn(browser: Browser, user: { email: string }, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce', locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await signInThroughProvider(page, inject('baseUrl'), user.email, PASSWORD);
  return { context, page };
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the notice before a planning window closes, set up in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let cycle: Schemas['MeritCycle'];
  const engine = inject('engine');

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Window Reminder Co');
    admin = company.users.admin as TestUser;
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(PASSWORD), first_name: 'Olga', last_name: 'Owner' });
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/compensation_planning`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const mia = await insertEmployee(db, company.id, { firstName: 'Mia', lastName: 'Lead', levelId: 'm4', performanceRating: 'meets' });
    await insertPay(db, company.id, mia, [{ type: 'base_salary', amount: 20_000_000, effectiveDate: '2024-01-01' }]);
    const ava = await insertEmployee(db, company.id, { firstName: 'Ava', lastName: 'Able', managerId: mia, performanceRating: 'meets' });
    await insertPay(db, company.id, ava, [{ type: 'base_salary', amount: 8_500_000, effectiveDate: '2023-06-01' }]);
    const created = await request<{ data: Schemas['MeritCycle'] }>('/api/v2/meritCycles', { method: 'POST', headers: bearer(admin), json: { name: 'Reminder 2026', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } });
    expect(created.status).toBe(201);
    const launched = await request<{ data: Schemas['MeritCycle'] }>(`/api/v2/meritCycles/${created.body.data.id}/transitions`, {
      method: 'POST',
      headers: { ...bearer(admin), 'If-Match': `"${created.body.data.version}"` },
      json: { action: 'launch' },
    });
    expect(launched.status).toBe(200);
    cycle = launched.body.data;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('sets a 12-hour reminder with the windows, planned 12 hours before the close, and turns its e-mail off in the settings', { timeout: 300_000 }, async () => {
    const { context, page } = await signedIn(browser, admin);
    await page.goto(`${inject('baseUrl')}/compensationplanning/cycles/${cycle.id}/windows`);
    const reminder = page.getByLabel('Remind who has not finished, hours before a window closes (0: no reminder)');
    expect(await reminder.inputValue()).toBe('24');
    await page.getByRole('group', { name: 'Planning (managers plan)' }).getByRole('button', { name: 'Open from now for two weeks' }).click();
    // Whole hours only, said in words before anything is sent.
    await reminder.fill('half a day');
    await page.getByRole('button', { name: 'Save windows' }).click();
    await page.getByText('The notice before a window closes needs whole hours from 0 (no notice) to 720.').waitFor();
    await reminder.fill('12');
    await page.setViewportSize({ width: 375, height: 800 });
    // The phone layout follows the resize a moment later: wait for it, then nothing may scroll sideways.
    await page.locator('.frame.phone').waitFor();
    await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `planning-window-reminder-${engine}-375`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Save windows' }).click();
    await page.getByText('The planning windows are saved.', { exact: true }).first().waitFor();

    const stored = (await request<{ data: Schemas['MeritCycle'] }>(`/api/v2/meritCycles/${cycle.id}`, { headers: bearer(admin) })).body.data;
    expect(stored.closingNoticeHours).toBe(12);
    const closesAt = stored.planningWindows.find((window) => window.stage === 'planning')?.closesAt ?? '';
    expect(Date.parse(closesAt)).toBeGreaterThan(Date.now() + 13 * 24 * HOUR);
    // The running cycle's notice is planned 12 hours before that close.
    const jobs = (await db('jobs').where({ company_id: company.id, type: 'meritCycleWindowClosing' }).select('run_after', 'input', 'status')) as { run_after: string | Date; input: string; status: string }[];
    expect(jobs.map((job) => ({ runAfter: new Date(job.run_after).toISOString(), input: JSON.parse(job.input) as unknown, status: job.status }))).toEqual([
      { runAfter: new Date(Date.parse(closesAt) - 12 * HOUR).toISOString(), input: { meritCycleId: cycle.id, stage: 'planning', closesAt, noticeHours: 12 }, status: 'queued' },
    ]);

    // Settings → Notifications: the new row, all on until chosen; the e-mail turned off.
    await page.goto(`${inject('baseUrl')}/settings/notifications`);
    const email = page.getByLabel('A window closes soon and my worksheet or review is not done: e-mail');
    const inApp = page.getByLabel('A window closes soon and my worksheet or review is not done: in the app');
    expect(await email.isChecked()).toBe(true);
    expect(await inApp.isChecked()).toBe(true);
    await email.uncheck();
    await page.getByRole('button', { name: 'Save merit-cycle notifications' }).click();
    await page.getByText('Merit-cycle notifications saved.', { exact: true }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const preferences = (await request<{ data: Schemas['NotificationPreferences'] }>('/api/me/notification-preferences', { headers: bearer(admin) })).body.data;
    expect(preferences.events.find((entry) => entry.event === 'windowClosing')).toEqual({ event: 'windowClosing', email: false, inApp: true });
    // The others keep theirs.
    expect(preferences.events.filter((entry) => !entry.email || !entry.inApp).map((entry) => entry.event)).toEqual(['windowClosing']);
    await context.close();
  });
});
