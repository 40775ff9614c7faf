import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium } from './browser.js';
import { signedIn, switchOn } from './companySetup.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };

/*
 * Top-down allocation and the bottom-up dashboard by clicking, on a small org in two currencies
 * (the company's rate: 1 EUR = 1.25 USD):
 *   top (no manager, USD): Tess Top $200,000
 *   └ Tess Top (USD): Eli Euro €100,000
 *     └ Eli Euro (EUR): Emma Euro €80,000
 * The admin allocates $10,000 at the top, 3% of eligible pay to Tess's branch
 * (3% × (€180,000 × 1.25 = $225,000) = $6,750) and €2,000 to Eli's (= $2,500):
 * left at the top $10,000 − $6,750 = $3,250; at Tess $6,750 − $2,500 = $4,250; at Eli €2,000.
 * Planned: Tess $1,000, Eli €1,000, Emma €2,500 — Eli's branch €2,500 against €2,000 is €500 over;
 * Tess's €3,500 → $4,375 against $6,750 is $2,375 under; the top's $5,375 against $10,000 is $4,625 under.
 */
const usd = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);
const eur = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(value);
const clean = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ').trim();

describe('merit-cycle budgets in a real browser', () => {
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  let cycleId = '';
  const people: Record<string, string> = {};

  beforeAll(async () => {
    const db = await testDb();
    admin = await createAdmin(db);
    await switchOn(db, admin.companyId, ['compensation_planning']);
    const headers = { Authorization: `Bearer ${await apiTokenOf(admin.email)}` };
    const call = <T>(url: string, method: string, json?: unknown, ifMatch?: number) =>
      request<T>(url, { method, headers: { ...headers, ...(ifMatch === undefined ? {} : { 'If-Match': `"${ifMatch}"` }) }, json });
    expect((await call('/api/company/exchange-rates', 'POST', { base: 'EUR', quote: 'USD', rate: '1.25', effectiveDate: '2024-01-01' })).status).toBe(201);
    const person = async (key: string, first: string, last: string, pay: number, currency: string, manager?: string) => {
      people[key] = await insertEmployee(db, admin.companyId, { firstName: first, lastName: last, currency, managerId: manager ? people[manager] : undefined, performanceRating: 'meets', countryCode: currency === 'USD' ? 'US' : 'DE' });
      await insertPay(db, admin.companyId, people[key] as string, [{ type: 'base_salary', amount: pay, currency, effectiveDate: '2024-01-01' }]);
    };
    await person('tess', 'Tess', 'Top', 20_000_000, 'USD');
    await person('eli', 'Eli', 'Euro', 10_000_000, 'EUR', 'tess');
    await person('emma', 'Emma', 'Euro', 8_000_000, 'EUR', 'eli');
    const created = await call<Data<Schemas['MeritCycle']>>('/api/v2/meritCycles', 'POST', { name: 'Budgets by hand', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    cycleId = created.body.data.id;
    const configured = await call<Data<Schemas['MeritCycle']>>(`/api/v2/meritCycles/${cycleId}/budgets/configuration`, 'PUT', { percentBp: 300, spendComponents: ['merit'], blockOverBudget: false }, created.body.data.version);
    expect(configured.status).toBe(200);
    const launched = await call(`/api/v2/meritCycles/${cycleId}/transitions`, 'POST', { action: 'launch' }, configured.body.data.version);
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    // What the managers plan (their worksheets' rows).
    for (const [key, amount, currency] of [
      ['tess', 100_000, 'USD'],
      ['eli', 100_000, 'EUR'],
      ['emma', 250_000, 'EUR'],
    ] as const) {
      const row = await call<Data<Schemas['WorksheetEmployee']>>(`/api/v2/meritCycles/${cycleId}/employees/${people[key]}`, 'GET');
      const edited = await call(`/api/v2/meritCycles/${cycleId}/employees/${people[key]}`, 'PATCH', { meritAmount: { amount, currency }, comment: 'Planned' }, row.body.data.version);
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    }
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('allocates down the tree by amount and percentage, shows what is left, and compares the plans on the dashboard', async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);
    await page.goto(`${inject('baseUrl')}/compensationplanning/cycles/${cycleId}/budget`);
    const editor = page.getByRole('form', { name: 'Top-down allocation' });
    await editor.waitFor();
    await editor.getByLabel('Allocate by, for people without a manager').selectOption('amount');
    await editor.getByLabel('Amount for people without a manager (USD)').fill('10000');
    await editor.getByLabel('Allocate by, for Tess Top').selectOption('percent');
    await editor.getByLabel('Percentage for Tess Top').fill('3');
    await editor.getByLabel('Allocate by, for Eli Euro').selectOption('amount');
    await editor.getByLabel('Amount for Eli Euro (EUR)').fill('2000');
    await editor.getByRole('button', { name: 'Save allocations' }).click();
    await page.getByText('The allocations are saved.', { exact: true }).first().waitFor();

    const left = (name: string) => editor.getByRole('row', { name: new RegExp(name) }).getByTestId('allocation-left');
    const allocated = (name: string) => editor.getByRole('row', { name: new RegExp(name) }).getByTestId('allocation-allocated');
    await expect.poll(async () => clean(await left('Tess Top').textContent())).toBe(usd(4_250));
    expect(clean(await allocated('Tess Top').textContent())).toBe(usd(6_750));
    expect(clean(await left('People without a manager').textContent())).toBe(usd(3_250));
    expect(clean(await left('Eli Euro').textContent())).toBe(eur(2_000));

    // A child given more than its parent is refused, and nothing changes.
    await editor.getByLabel('Amount for Eli Euro (EUR)').fill('9000');
    await editor.getByRole('button', { name: 'Save allocations' }).click();
    await editor.getByText(/exceed what Tess Top is allocated/).first().waitFor();
    expect(clean(await left('Tess Top').textContent())).toBe(usd(4_250));

    await page.goto(`${inject('baseUrl')}/compensationplanning/cycles/${cycleId}/dashboard`);
    const versus = page.getByRole('region', { name: 'Allocated against planned' });
    await versus.waitFor();
    const row = (name: string) => versus.getByRole('row', { name: new RegExp(name) });
    expect(await row('Eli Euro').getAttribute('data-status')).toBe('over');
    expect(clean(await row('Eli Euro').textContent())).toContain(`${eur(2_000)}${eur(2_500)}`);
    expect(clean(await row('Eli Euro').textContent())).toContain('Over');
    expect(await row('Tess Top').getAttribute('data-status')).toBe('under');
    expect(clean(await row('Tess Top').textContent())).toContain(`${usd(6_750)}${usd(4_375)}${usd(2_375)}Under`);
    expect(clean(await row('Without a manager').textContent())).toContain(`${usd(10_000)}${usd(5_375)}${usd(4_625)}Under`);
    await context.close();
  }, 240_000);
});
