import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { launchChromium } from './browser.js';
import { signedIn, switchOn } from './companySetup.js';

/*
 * Comp type settings by clicking: an admin renames the bonus "Annual bonus" and stops using
 * commission; the team table and the admin's own total rewards statement then say "Annual bonus"
 * and show no commission. Planning then names the lump sum by the company's title for one-off
 * bonuses and offers no equity refresh once no kind of equity is used.
 */
describe('comp type settings in a real browser', () => {
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof createAdmin>>;

  beforeAll(async () => {
    const db = await testDb();
    admin = await createAdmin(db);
    await switchOn(db, admin.companyId, ['team_view', 'total_rewards', 'compensation_planning']);
    const id = await insertEmployee(db, admin.companyId, { firstName: 'Riley', lastName: 'Seller', userId: admin.id });
    await insertPay(db, admin.companyId, id, [
      { type: 'base_salary', amount: 10_000_000, effectiveDate: '2024-01-01' },
      { type: 'bonus_target', amount: 1_000_000, effectiveDate: '2024-01-01' },
      { type: 'commission', amount: 2_000_000, effectiveDate: '2024-01-01' },
    ]);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('renames the bonus and switches commission off, and the team view and total rewards follow', async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);
    const base = inject('baseUrl');
    await page.goto(`${base}/settings`);
    await page.getByRole('link', { name: /Compensation types/ }).click();
    await page.getByRole('heading', { name: 'Compensation types' }).waitFor();
    await page.getByLabel('Title of Bonus target').fill('Annual bonus');
    await page.getByLabel('Use Commission').uncheck();
    expect(await page.getByLabel('Use Base salary').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save compensation types' }).click();
    await page.getByText('Compensation types saved.', { exact: true }).first().waitFor();

    // The team view: the kinds of pay its compensation timeline offers.
    await page.goto(`${base}/team/settings/comp-timeline`);
    await page.getByLabel('Annual bonus', { exact: true }).waitFor();
    expect(await page.getByLabel('Commission', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Bonus target', { exact: true }).count()).toBe(0);

    // The admin's own statement: the bonus under its new name, no commission.
    await page.goto(`${base}/totalrewards`);
    await page.getByText('Annual bonus', { exact: true }).first().waitFor();
    const statement = (await page.locator('main').textContent()) ?? '';
    // (The variable-pay section's own text still speaks of commission; no commission amount is shown.)
    expect(statement).not.toContain('Commission$');
    expect(statement).not.toContain('$20,000');
    expect(statement).not.toContain('Bonus target');
    expect(statement).toContain('Total cash a year$110,000');
    await context.close();
  }, 180_000);

  it('planning offers a lump sum under the company’s title for one-off bonuses, and no equity refresh when the company uses no equity', async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);
    const base = inject('baseUrl');
    await page.goto(`${base}/settings/comp-types`);
    await page.getByLabel('Title of One-off bonus').fill('Spot bonus');
    for (const kind of ['Stock options', 'RSUs', 'Restricted stock', 'Common stock']) await page.getByLabel(`Use ${kind}`).uncheck();
    await page.getByRole('button', { name: 'Save compensation types' }).click();
    await page.getByText('Compensation types saved.', { exact: true }).first().waitFor();

    await page.goto(`${base}/compensationplanning`);
    await page.getByRole('button', { name: 'Create a cycle' }).click();
    const components = page.getByRole('group', { name: 'Components' });
    await components.getByLabel('Spot bonus', { exact: true }).waitFor();
    expect(await components.getByLabel('Lump sum', { exact: true }).count()).toBe(0);
    expect(await components.getByLabel('Equity refresh', { exact: true }).count()).toBe(0);
    expect(await components.getByLabel('Merit increase', { exact: true }).isChecked()).toBe(true);
    await context.close();
  }, 180_000);
});
