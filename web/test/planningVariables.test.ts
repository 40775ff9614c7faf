import type { Knex } from 'knex';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../api/src/contract-types.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { launchChromium, screenshot, seriousViolations } from './browser.js';
import { engineeringBandSet, signedIn, switchOn } from './companySetup.js';

type Schemas = components['schemas'];

/*
 * The several-variables recommendation set up by clicking, in a company of its own: an admin
 * types the factors (a rating adjustment at half weight, range-penetration steps, a step for the
 * months since the last increase), a cap and the range around the target, saves, starts planning,
 * and the worksheet shows the recommendation worked by hand below (docs/merit-cycles.md).
 *
 * The band: software engineering P3, $80,000 / $100,000 / $120,000; the cycle is effective 2026-01-01.
 *   Ava, exceeds, $85,000.00 since 2023-06-01:
 *     rating: 4% × 50% = +2%; penetration (85,000 − 80,000) ÷ 40,000 = 0.125 < 0.25 → +1.5%;
 *     2023-06-01 → 2026-01-01 is 31 months ≥ 25 → +0.5%. Target 4.0%, min 3.0%, max 5.5%;
 *     8,500,000 × 400 ÷ 10,000 = 340,000 cents = $3,400.00.
 *   Leo, meets, $110,000.00 since 2025-03-01:
 *     rating: 2% × 50% = +1%; penetration 30,000 ÷ 40,000 = 0.75 → the step from 0.75, −0.5%;
 *     10 months adds nothing. Target 0.5%, min 0% (0.5 − 1, not below 0), max 2.0%;
 *     11,000,000 × 50 ÷ 10,000 = 55,000 cents = $550.00.
 */

const PASSWORD = 'several variables by hand 2026';

const cell = (page: Page, employeeId: string, column: string): Locator => page.locator(`[role="row"][data-employee-id="${employeeId}"] [data-col="${column}"]`);

/** Nothing wider than the screen: the page does not scroll sideways. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the several-variables editor in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  const ids: Record<string, string> = {};
  let bandSetId = '';
  const engine = inject('engine');

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Variables Browser Co');
    admin = company.users.admin as TestUser;
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(PASSWORD), first_name: 'Olga', last_name: 'Owner' });
    await switchOn(db, company.id, ['compensation_planning', 'bands']);
    ids.mia = await insertEmployee(db, company.id, { firstName: 'Mia', lastName: 'Lead', levelId: 'm4', performanceRating: 'meets' });
    await insertPay(db, company.id, ids.mia, [{ type: 'base_salary', amount: 20_000_000, effectiveDate: '2024-01-01' }]);
    ids.ava = await insertEmployee(db, company.id, { firstName: 'Ava', lastName: 'Able', managerId: ids.mia, performanceRating: 'exceeds' });
    await insertPay(db, company.id, ids.ava, [{ type: 'base_salary', amount: 8_500_000, effectiveDate: '2023-06-01' }]);
    ids.leo = await insertEmployee(db, company.id, { firstName: 'Leo', lastName: 'Long', managerId: ids.mia, performanceRating: 'meets' });
    await insertPay(db, company.id, ids.leo, [{ type: 'base_salary', amount: 11_000_000, effectiveDate: '2025-03-01' }]);

    bandSetId = await engineeringBandSet(admin, { min: 80_000, mid: 100_000, max: 120_000 });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('sets the factors up by clicking, keeps them, and the worksheet shows the hand-worked recommendation', { timeout: 600_000 }, async () => {
    const owner = await signedIn(browser, admin, PASSWORD);
    const page = owner.page;
    await page.goto(`${inject('baseUrl')}/compensationplanning`);
    await page.getByRole('button', { name: 'Create a cycle' }).click();
    const create = page.getByRole('dialog', { name: 'Create a merit cycle' });
    await create.getByLabel('Name', { exact: true }).fill('Variables 2026');
    await create.getByLabel('Performance period from').fill('2025-01-01');
    await create.getByLabel('to', { exact: true }).fill('2025-12-31');
    await create.getByLabel('Effective date (new pay starts)').fill('2026-01-01');
    await create.getByLabel('Band set').selectOption(bandSetId);
    await create.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL('**/settings');
    const cycleUrl = page.url().replace(/\/settings$/, '');
    const cycleId = cycleUrl.split('/').pop() as string;
    const sections = page.getByRole('navigation', { name: 'Cycle sections' });

    await sections.getByRole('link', { name: 'Recommendations' }).click();
    await page.getByLabel('Several variables (rating, band position, time since the last increase)').check();
    const editor = page.getByRole('group', { name: 'Several variables' });
    // Factor 1, the rating, counted at half weight: 4% and 2% make +2% and +1%.
    await editor.getByLabel('Factor 1: Weight %', { exact: true }).fill('50');
    await editor.getByLabel('Factor 1: Exceeds expectations %', { exact: true }).fill('4');
    await editor.getByLabel('Factor 1: Meets expectations %', { exact: true }).fill('2');
    // Factor 2, range penetration: under 0.25 adds 1.5%, from 0.75 takes 0.5% off.
    await editor.getByRole('button', { name: 'Add a factor' }).click();
    await editor.getByLabel('Factor 2: Variable', { exact: true }).selectOption('rangePenetration');
    await editor.getByRole('group', { name: 'Factor 2: Range penetration' }).waitFor();
    await editor.getByRole('button', { name: 'Add a step to factor 2' }).click();
    await editor.getByLabel('Factor 2: Step 1 to', { exact: true }).fill('0.25');
    await editor.getByLabel('Factor 2: Step 1 adds %', { exact: true }).fill('1.5');
    await editor.getByRole('button', { name: 'Add a step to factor 2' }).click();
    await editor.getByLabel('Factor 2: Step 2 from', { exact: true }).fill('0.75');
    await editor.getByLabel('Factor 2: Step 2 adds %', { exact: true }).fill('-0.5');
    // Factor 3, months since the last increase: from 25 months adds 0.5% — first saved without its %.
    await editor.getByRole('button', { name: 'Add a factor' }).click();
    await editor.getByLabel('Factor 3: Variable', { exact: true }).selectOption('monthsSinceLastIncrease');
    await editor.getByRole('button', { name: 'Add a step to factor 3' }).click();
    await editor.getByLabel('Factor 3: Step 1 from', { exact: true }).fill('25');
    // A step added by mistake goes again.
    await editor.getByRole('button', { name: 'Add a step to factor 3' }).click();
    await editor.getByRole('button', { name: 'Remove step 2 of factor 3' }).click();
    expect(await editor.getByRole('list', { name: 'Steps of factor 3' }).getByRole('listitem').count()).toBe(1);
    await editor.getByLabel('Target at most %').fill('8');
    await editor.getByLabel('Min: % below target').fill('1');
    await editor.getByLabel('Max: % above target').fill('1.5');
    await page.getByRole('button', { name: 'Save recommendation logic' }).click();
    await page.getByText('Factor 3 (months since the last increase), step 1 needs numbers (from and to may stay empty) and an adjustment %.').waitFor();
    await editor.getByLabel('Factor 3: Step 1 adds %', { exact: true }).fill('0.5');

    // On a phone the editor fits the screen and reads well.
    await page.setViewportSize({ width: 375, height: 800 });
    // The phone layout follows the resize a moment later: wait for it, then nothing may scroll sideways.
    await page.locator('.frame.phone').waitFor();
    await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `planning-variables-${engine}-375`);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save recommendation logic' }).click();
    await page.getByText('The recommendation logic is saved.', { exact: true }).first().waitFor();
    // Stored as typed, in basis points.
    const stored = await request<{ data: Schemas['MeritCycle'] }>(`/api/v2/meritCycles/${cycleId}`, { headers: bearer(admin) });
    expect(stored.body.data.recommendation).toMatchObject({
      kind: 'variables',
      variables: {
        baseBp: 0,
        factors: [
          { variable: 'rating', weightPercent: 50, ratings: [{ rating: 'meets', adjustmentBp: 200 }, { rating: 'exceeds', adjustmentBp: 400 }] },
          { variable: 'rangePenetration', weightPercent: 100, steps: [{ to: 0.25, adjustmentBp: 150 }, { from: 0.75, adjustmentBp: -50 }] },
          { variable: 'monthsSinceLastIncrease', weightPercent: 100, steps: [{ from: 25, adjustmentBp: 50 }] },
        ],
        capMaxBp: 800,
        belowTargetBp: 100,
        aboveTargetBp: 150,
      },
    });
    expect(stored.body.data.recommendation.variables?.capMinBp).toBeUndefined();

    // Read back after a reload, the editor shows what was saved.
    await page.reload();
    await editor.waitFor();
    expect(await editor.getByLabel('Factor 1: Weight %', { exact: true }).inputValue()).toBe('50');
    expect(await editor.getByLabel('Factor 2: Variable', { exact: true }).inputValue()).toBe('rangePenetration');
    expect(await editor.getByLabel('Factor 2: Step 2 adds %', { exact: true }).inputValue()).toBe('-0.5');
    expect(await editor.getByLabel('Factor 3: Step 1 from', { exact: true }).inputValue()).toBe('25');
    expect(await editor.getByLabel('Max: % above target').inputValue()).toBe('1.5');

    // Start planning; Mia's worksheet holds Ava and Leo.
    await sections.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Start planning' }).click();
    await page.getByRole('dialog', { name: 'Start planning?' }).getByRole('button', { name: 'Start planning' }).click();
    await page.getByText('Planning has started.', { exact: true }).first().waitFor();
    await sections.getByRole('link', { name: 'Worksheets' }).click();
    await page.getByRole('link', { name: 'Mia Lead' }).click();
    await page.getByRole('heading', { name: 'Mia Lead’s worksheet' }).waitFor();

    await expect.poll(() => cell(page, ids.ava as string, 'recommendation').textContent()).toBe('4% (3%–5.5%)');
    expect(await cell(page, ids.ava as string, 'meritPercent').textContent()).toBe('4%');
    expect(await cell(page, ids.ava as string, 'meritAmount').textContent()).toBe('$3,400');
    expect(await cell(page, ids.leo as string, 'recommendation').textContent()).toBe('0.5% (0%–2%)');
    expect(await cell(page, ids.leo as string, 'meritPercent').textContent()).toBe('0.5%');
    expect(await cell(page, ids.leo as string, 'meritAmount').textContent()).toBe('$550');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `planning-variables-worksheet-${engine}-1280`);
    // To the cent, as the API answers.
    for (const [key, range, amount] of [
      ['ava', { minBp: 300, targetBp: 400, maxBp: 550 }, 340_000],
      ['leo', { minBp: 0, targetBp: 50, maxBp: 200 }, 55_000],
    ] as const) {
      const row = await request<{ data: Schemas['WorksheetEmployee'] }>(`/api/v2/meritCycles/${cycleId}/employees/${ids[key]}`, { headers: bearer(admin) });
      expect(row.body.data.recommendation, key).toMatchObject(range);
      expect(row.body.data.merit?.amount, key).toEqual({ amount, currency: 'USD' });
    }

    await owner.context.close();
  });
});
