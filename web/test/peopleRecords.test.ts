import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { ARTIFACTS, launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';


/** Nothing wider than the screen: a phone never scrolls sideways. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('correcting an employee’s records in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let employeeId: string;
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  const engine = inject('engine');
  const last = `Corrigan${Date.now().toString(36)}`;

  beforeAll(async () => {
    db = await testDb();
    // A company of its own, so the demo company's people stay as seeded for the tests that price them.
    admin = await createAdmin(db);
    const companyId = admin.companyId;
    // The team view is a release flag, switched on through the internal tools.
    const support = await createTestUser(db, { companyId, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${companyId}/release-flags/team_view`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    // Someone whose salary was entered wrong: 120,000.00 USD instead of 125,500.00.
    const role = await db('roles').where({ company_id: companyId, key: 'admin' }).first<{ id: string }>('id');
    const setup = bearer(await createTestUser(db, { companyId, roleIds: [role.id] }));
    const hired = await request<{ data: { id: string } }>('/api/employees', {
      method: 'POST',
      headers: setup,
      json: { employeeNumber: `FIX-${last}`, firstName: 'Quinn', lastName: last, title: 'Analyst', currency: 'USD', startDate: '2024-09-01' },
    });
    expect(hired.status).toBe(201);
    employeeId = hired.body.data.id;
    const pay = await request(`/api/employees/${employeeId}/compensation`, {
      method: 'POST',
      headers: setup,
      json: { type: 'base_salary', amount: { amount: 120_000_00, currency: 'USD' }, effectiveDate: '2025-01-01', reason: 'hire' },
    });
    expect(pay.status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('lets an admin open an employee from the team view, correct the salary and see it in the history; a second tab’s stale correction is refused', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    // A loaded two-core machine can be slow to answer; nothing here is a timing assertion.
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, inject('baseUrl'), admin.email, admin.password);

    // A second tab has the employee page open, with the salary record's correction form, before the fix.
    const second = await context.newPage();
    second.setDefaultTimeout(60_000);
    await second.goto(`${inject('baseUrl')}/people/${employeeId}`);
    await second.getByRole('heading', { name: `Quinn ${last}` }).waitFor({ timeout: 30_000 });
    await second.getByRole('button', { name: /^Correct the base salary/ }).click();
    const staleForm = second.getByRole('form', { name: /^Correct the base salary record/ });
    await staleForm.waitFor();

    // The team view: find them, open the drawer, open the corrections.
    await page.bringToFront();
    await page.goto(`${inject('baseUrl')}/team/employees`);
    await page.getByLabel('Search').fill(last);
    const row = page.locator(`[role="row"][data-employee-id="${employeeId}"]`);
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole('button').first().click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('button', { name: 'Correct records' }).click();
    const payRecords = drawer.getByRole('region', { name: 'Pay records' });
    await payRecords.getByRole('button', { name: /^Correct the base salary/ }).click();
    const form = drawer.getByRole('form', { name: /^Correct the base salary record/ });
    await form.getByLabel('Amount (USD, a year)').fill('125,500.00');
    await form.getByRole('button', { name: 'Save the correction' }).click();
    await payRecords.getByText(/\$125,500\.00/).first().waitFor({ timeout: 30_000 });

    // The history says who changed what, from what: 120,000.00 → 125,500.00 (12,550,000 cents).
    const history = drawer.getByRole('list', { name: 'Changes' });
    const entry = history.locator('> li').filter({ hasText: 'Pay record corrected' }).first();
    await entry.waitFor({ timeout: 30_000 });
    expect(await entry.textContent()).toMatch(/Amount: \$120,000\.00 → \$125,500\.00/);
    expect(await entry.textContent()).toContain('in Paybench');
    const stored = await db('compensation_records').where({ employee_id: employeeId, type: 'base_salary' }).first<{ amount: number | string; version: number | string }>('amount', 'version');
    expect(Number(stored.amount)).toBe(12_550_000);
    expect(Number(stored.version)).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/people-drawer-corrected-${engine}-1280.png` });

    // The second tab still holds version 1: its save is refused and nothing is overwritten.
    await second.bringToFront();
    await staleForm.getByLabel('Amount (USD, a year)').fill('130,000');
    await staleForm.getByRole('button', { name: 'Save the correction' }).click();
    await staleForm.getByRole('alert').filter({ hasText: 'Someone else changed' }).waitFor({ timeout: 30_000 });
    expect(Number((await db('compensation_records').where({ employee_id: employeeId, type: 'base_salary' }).first<{ amount: number | string }>('amount')).amount)).toBe(12_550_000);
    // What the person typed stays, for them to compare after reloading.
    expect(await staleForm.getByLabel('Amount (USD, a year)').inputValue()).toBe('130,000');

    // The record editor too: a stale title change is refused after the first tab saved one.
    await second.reload();
    await second.getByRole('form', { name: 'Employee record' }).getByLabel('Title').fill('Senior Analyst');
    await page.bringToFront();
    const editor = drawer.getByRole('form', { name: 'Employee record' });
    await editor.getByLabel('Title').fill('Lead Analyst');
    await editor.getByRole('button', { name: 'Save the record' }).click();
    await history.locator('> li').filter({ hasText: 'Lead Analyst' }).first().waitFor({ timeout: 30_000 });
    await second.bringToFront();
    await second.getByRole('form', { name: 'Employee record' }).getByRole('button', { name: 'Save the record' }).click();
    await second.getByRole('button', { name: 'Reload the record' }).waitFor({ timeout: 30_000 });
    expect((await db('employees').where({ id: employeeId }).first<{ title: string }>('title')).title).toBe('Lead Analyst');

    // The employee page at 1280 px and on a phone: everything fits the screen.
    await second.reload();
    await second.getByRole('heading', { name: 'History' }).waitFor({ timeout: 30_000 });
    await second.getByRole('list', { name: 'Changes' }).waitFor({ timeout: 30_000 });
    expect(await seriousViolations(second)).toEqual([]);
    await screenshot(second, `people-employee-page-admin-${engine}-1280`);
    await second.setViewportSize({ width: 375, height: 800 });
    await second.getByRole('button', { name: /^Correct the base salary/ }).click();
    expect(await overflow(second)).toBeLessThanOrEqual(0);
    await screenshot(second, `people-employee-page-admin-${engine}-375`);
    await context.close();
  }, 240_000);
});
