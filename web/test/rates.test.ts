import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium, seriousViolations } from './browser.js';
import { signedIn, switchOn } from './companySetup.js';

type Schemas = components['schemas'];

const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/*
 * Which exchange rates converted the company's money, on screen: the team overview's payroll names
 * the company's own rate and its date (flagged when older than 30 days), and a people import warns
 * before anything is written about rows the market will leave out.
 */
describe('rates named and import warnings, in a real browser', () => {
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof createAdmin>>;

  beforeAll(async () => {
    const db = await testDb();
    admin = await createAdmin(db);
    await switchOn(db, admin.companyId, ['team_view']);
    const headers = { Authorization: `Bearer ${await apiTokenOf(admin.email)}` };
    // 100,000 USD and 80,000 EUR; the company's own rate 1 EUR = 1.25 USD makes the payroll 200,000 USD exactly.
    for (const [number, currency, country, amount] of [
      ['R-1', 'USD', 'US', 10_000_000],
      ['R-2', 'EUR', 'DE', 8_000_000],
    ] as const) {
      const hired = await request<{ data: Schemas['Employee'] }>('/api/employees', {
        method: 'POST',
        headers,
        json: { employeeNumber: number, firstName: 'Rate', lastName: number, title: 'Engineer', currency, countryCode: country, startDate: '2024-01-01' },
      });
      expect(hired.status, JSON.stringify(hired.body)).toBe(201);
      const pay = await request(`/api/employees/${hired.body.data.id}/compensation`, { method: 'POST', headers, json: { type: 'base_salary', amount: { amount, currency }, effectiveDate: '2024-01-01' } });
      expect(pay.status, JSON.stringify(pay.body)).toBe(201);
    }
    const rate = await request('/api/company/exchange-rates', { method: 'POST', headers, json: { base: 'EUR', quote: 'USD', rate: '1.25', effectiveDate: '2026-01-01' } });
    expect(rate.status, JSON.stringify(rate.body)).toBe(201);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it("shows the payroll converted at the company's own rate, naming it, its date and its age", async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);
    await page.goto(`${inject('baseUrl')}/team`);
    const source = page.getByTestId('payroll-rate-source');
    await source.waitFor({ timeout: 60_000 });
    expect(await source.textContent()).toBe("Converted at your company's rate of 1 January 2026 — older than 30 days. 1 EUR = 1.25 USD.");
    expect(await source.getAttribute('role')).toBe('status');
    const payroll = (await page.locator('section[aria-labelledby="payroll"]').textContent())?.replace(/\u00a0/g, ' ') ?? '';
    expect(payroll).toContain('$100,000'); // 80,000 EUR × 1.25
    // The total (a stat card above) adds the 100,000 USD.
    expect((await page.locator('main').textContent())?.replace(/\u00a0/g, ' ')).toContain('Annual base payroll$200K');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);

  it('warns in the dry run of an import that the market will leave out pay dated years ago, with the fix', async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);
    await page.goto(`${inject('baseUrl')}/integrations`);
    await page.getByRole('button', { name: 'Import employees' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import employees' });
    await dialog.waitFor();
    const file = [
      'Emp ID,First Name,Last Name,Country,Office,Pay Currency,Hire Date,Job Family,Job Level,Annual Base Salary',
      'S1,Ada,Old,US,Seattle,USD,2019-03-01,Software Engineering,P3,150000',
      'S2,Ben,Old,US,Seattle,USD,2019-04-01,Software Engineering,P3,151000',
      `S3,Cy,New,US,Seattle,USD,${daysAgo(100)},Software Engineering,P3,152000`,
    ].join('\n');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'stale.csv', mimeType: 'text/csv', buffer: Buffer.from(`${file}\n`) });
    await dialog.getByTestId('import-file').filter({ hasText: 'stale.csv' }).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    const warning = dialog.getByTestId('import-market-exclusions');
    await warning.waitFor({ timeout: 60_000 });
    expect(await warning.locator('p').textContent()).toBe('A market release built today would leave out 2 of the 3 active employees in this file, if your company takes part in the market:');
    expect(await warning.locator('li').allTextContents()).toEqual([
      "2 — Base salary last set more than 24 months before the build. Import each salary with the day it was last set (the Pay effective date column): without one, a new employee's pay is dated from their start date. Pay unchanged for more than 24 months stays out.",
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);
});
