import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium } from './browser.js';
import { signedIn, switchOn } from './companySetup.js';

type Schemas = components['schemas'];

/*
 * A forint salary on screen. ISO 4217 gives the forint two decimals; the browser's Intl (CLDR) gives
 * it none, so a screen that asked Intl showed a million forints (100,000,000 fillér) as
 * "HUF 100,000,000". Hand-checked: the team table and the drawer say HUF 1,000,000.
 */
describe('amounts in a currency where ISO and the browser disagree, in a real browser', () => {
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  let employeeId = '';

  beforeAll(async () => {
    const db = await testDb();
    admin = await createAdmin(db);
    await switchOn(db, admin.companyId, ['team_view']);
    const headers = { Authorization: `Bearer ${await apiTokenOf(admin.email)}` };
    const hired = await request<{ data: Schemas['Employee'] }>('/api/employees', {
      method: 'POST',
      headers,
      json: { employeeNumber: 'HU-1', firstName: 'Eszter', lastName: 'Kovács', title: 'Engineer', currency: 'HUF', countryCode: 'HU', startDate: '2024-01-01' },
    });
    expect(hired.status, JSON.stringify(hired.body)).toBe(201);
    employeeId = hired.body.data.id;
    const pay = await request(`/api/employees/${employeeId}/compensation`, {
      method: 'POST',
      headers,
      json: { type: 'base_salary', amount: { amount: 100_000_000, currency: 'HUF' }, effectiveDate: '2024-01-01' },
    });
    expect(pay.status, JSON.stringify(pay.body)).toBe(201);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('shows a million forints as HUF 1,000,000 in the team table and the drawer', async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);
    await page.goto(`${inject('baseUrl')}/team/employees`);
    const row = page.locator(`[role="row"][data-employee-id="${employeeId}"]`);
    await row.waitFor({ timeout: 30_000 });
    const text = (await row.textContent())?.replace(/\u00a0/g, ' ') ?? '';
    expect(text).toContain('HUF 1,000,000');
    expect(text).not.toContain('100,000,000');

    await row.getByRole('button').first().click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('heading', { name: 'Compensation timeline' }).waitFor({ timeout: 30_000 });
    const drawn = (await drawer.textContent())?.replace(/\u00a0/g, ' ') ?? '';
    expect(drawn).toContain('HUF 1,000,000');
    expect(drawn).not.toContain('100,000,000');
    await context.close();
  }, 180_000);
});
