import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { expectNoSidewaysScroll, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

/*
 * A company with two jobs in the current year:
 *   Software Engineering P3: women 90,000 … 94,000 (mean 92,000), men 100,000 … 104,000 (mean 102,000):
 *     gap (102,000 − 92,000) / 102,000 = 9.80 % — flagged.
 *   Sales P2: five women and five men on 80,000: gap 0.
 * All twenty work for Equal Works GmbH; a second employer, Equal Works Ltd, has one woman and one
 * man in Sales P2 on 80,000: the group view counts 22 workers, the GmbH's report 20.
 */
describe('pay equity in the browser', () => {
  let browser: Browser;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    const db = await testDb();
    person = await createAdmin(db);
    const support = await createTestUser(db, { companyId: null, internalAdmin: true });
    expect((await request(`/api/internal/companies/${person.companyId}/release-flags/pay_equity`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    expect((await request(`/api/internal/companies/${person.companyId}/release-flags/compensation_planning`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    for (let i = 0; i < 5; i += 1) {
      for (const [gender, family, level, pay] of [
        ['woman', 'software_engineering', 'p3', 90_000 + i * 1_000],
        ['man', 'software_engineering', 'p3', 100_000 + i * 1_000],
        ['woman', 'sales', 'p2', 80_000],
        ['man', 'sales', 'p2', 80_000],
      ] as const) {
        const id = await insertEmployee(db, person.companyId, { firstName: `${gender}${i}`, lastName: family, jobFamilyId: family, levelId: level, demographics: { gender } });
        await insertPay(db, person.companyId, id, [{ type: 'base_salary', amount: pay * 100, effectiveDate: '2025-01-01' }]);
        await db('employees').where({ id }).update({ legal_entity: 'Equal Works GmbH' });
      }
    }
    for (const gender of ['woman', 'man']) {
      const id = await insertEmployee(db, person.companyId, { firstName: `${gender}Ltd`, lastName: 'sales', jobFamilyId: 'sales', levelId: 'p2', demographics: { gender } });
      await insertPay(db, person.companyId, id, [{ type: 'base_salary', amount: 80_000 * 100, effectiveDate: '2025-01-01' }]);
      await db('employees').where({ id }).update({ legal_entity: 'Equal Works Ltd' });
    }
    // A running merit cycle over everyone, for the raises to be sent to.
    const planner = await createTestUser(db, { companyId: person.companyId, roleIds: [((await db('roles').where({ company_id: person.companyId, key: 'admin' }).first()) as { id: string }).id] });
    const created = await request<{ data: { id: string; version: number } }>('/api/v2/meritCycles', { method: 'POST', headers: bearer(planner), json: { name: 'Merit next year', effectiveDate: `${new Date().getFullYear() + 1}-01-01`, periodStart: `${new Date().getFullYear()}-01-01`, periodEnd: `${new Date().getFullYear()}-12-31` } });
    expect(created.status).toBe(201);
    const launched = await request(`/api/v2/meritCycles/${created.body.data.id}/transitions`, { method: 'POST', headers: { ...bearer(planner), 'If-Match': `"${created.body.data.version}"` }, json: { action: 'launch' } });
    expect(launched.status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('an admin builds categories, runs the report, flags a category and records a justification; it reads at 375 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pay equity' }).click();
    await page.getByRole('heading', { name: 'Pay equity', level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByTestId('report-summary').waitFor({ timeout: 30_000 });
    // The group view first: both employers together; then the GmbH's own report (Art. 9 is per legal entity).
    expect(await page.getByTestId('report-summary').textContent()).toContain('22 workers — 11 women, 11 men');
    expect(await page.getByTestId('legal-entities').textContent()).toContain('Equal Works Ltd');
    await page.getByLabel('Legal entity').selectOption('Equal Works GmbH');
    await expect.poll(() => page.getByTestId('report-summary').textContent(), { timeout: 30_000 }).toContain('20 workers — 10 women, 10 men');
    expect(await page.getByTestId('legal-entities').textContent()).toContain('Employer: Equal Works GmbH.');

    // Build categories: score the engineering job (35 × 4/5 + 20 × 3/5 + 35 × 3/5 + 10 × 2/5, × 10 = 650 points).
    const job = 'Software Engineering';
    const evaluation = page.locator('section[aria-labelledby="pe-evaluation"]');
    const row = evaluation.getByRole('grid', { name: 'Jobs and their evaluation' }).getByRole('row').filter({ hasText: job });
    // Edited as a sheet: a level out of range is refused in place, then the levels typed with Tab between them.
    await row.locator('[data-col="skills"]').click();
    await page.keyboard.type('9');
    await page.keyboard.press('Enter');
    await expect.poll(() => row.locator('[data-col="skills"]').getAttribute('aria-invalid')).toBe('true');
    expect(await evaluation.getByTestId('evaluation-refused').textContent()).toContain('Type a level from 1 to 5 for Skills.');
    // From the People cell (read-only), → to Skills; typing replaces what is there.
    await row.locator('[data-col="employees"]').click();
    await page.keyboard.press('ArrowRight');
    for (const typed of ['4', '3', '3', '2', 'Designs and runs production systems']) {
      await page.keyboard.type(typed);
      await page.keyboard.press('Tab');
    }
    expect(await row.locator('[data-col="skills"]').getAttribute('aria-invalid')).toBe(null);
    expect(await row.locator('[data-col="evidence"]').textContent()).toBe('Designs and runs production systems');
    // Ctrl+Z takes the evidence back out, Redo puts it in again (as in the worksheet).
    await page.keyboard.press('Control+Z');
    await expect.poll(() => row.locator('[data-col="evidence"]').textContent()).toBe('');
    await evaluation.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => row.locator('[data-col="evidence"]').textContent()).toBe('Designs and runs production systems');
    expect(await evaluation.getByRole('button', { name: 'Redo' }).isDisabled()).toBe(true);
    await evaluation.getByRole('button', { name: 'Save evaluation' }).click();
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('650');

    // The report now shows the 650-point category with its 9.80 % gap, flagged; flag it.
    const categories = page.locator('section[aria-labelledby="pe-categories"]');
    const category = categories.getByTestId('category-row').filter({ hasText: '650 points' });
    await expect.poll(() => category.textContent(), { timeout: 20_000 }).toContain('9.80 %');
    await category.getByRole('button', { name: 'Flag' }).click();
    await category.getByText('Flagged').waitFor({ timeout: 20_000 });

    // Record the justification of the assessment.
    const assessment = page.getByTestId('assessment').first();
    await assessment.getByRole('textbox', { name: 'Objective, gender-neutral justification' }).fill('Engineers on call carry a documented extra responsibility.');
    await assessment.getByRole('button', { name: 'Record justification' }).click();
    await assessment.getByText('justified').waitFor({ timeout: 20_000 });
    // The assessment is the GmbH's (Art. 10 per employer), and its gap now counts as explained.
    expect(await assessment.getByRole('heading').textContent()).toContain('(Equal Works GmbH, ');
    await category.getByText('Explained · justified').waitFor({ timeout: 20_000 });

    // The adjusted gap is fitted within the GmbH, and downloads as its own CSV.
    const residuals = page.locator('section[aria-labelledby="pe-residuals"]');
    await residuals.getByText('Fitted within Equal Works GmbH.').waitFor({ timeout: 20_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), residuals.getByRole('button', { name: 'Adjusted gap CSV' }).click()]);
    expect(file.suggestedFilename()).toBe(`adjusted-pay-gap-${new Date().getFullYear()}-equal-works-gmbh.csv`);

    // Send the cost to close to the running cycle: every raise is planned there (the amounts are hand-checked in the API's tests).
    const sending = page.getByTestId('send-to-cycle');
    await sending.getByRole('button', { name: 'Send raises to the cycle' }).click();
    await sending.getByTestId('sent-summary').waitFor({ timeout: 20_000 });
    const raises = Number(/each of the (\d+) raises/.exec((await sending.textContent()) ?? '')?.[1]);
    expect(raises).toBeGreaterThan(0);
    expect(await sending.getByTestId('sent-summary').textContent()).toBe(`${raises} sent, 0 not sent.`);

    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSidewaysScroll(page, 375);
    await screenshotsAtBothWidths(page, 'pay-equity');
    await context.close();
  }, 180_000);
});
