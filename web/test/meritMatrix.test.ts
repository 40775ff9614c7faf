import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashPassword } from '../../api/src/identity/passwords.js';
import type { components } from '../../api/src/contract-types.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { expectNoSidewaysScroll, launchChromium, screenshot, seriousViolations } from './browser.js';
import { signedIn, switchOn } from './companySetup.js';

type Cycle = components['schemas']['MeritCycle'];

/*
 * The merit matrix editor: rating × compa-ratio column, a min, target and max % in every cell, each
 * box named by its rating and column. On a 1280 px screen a table that fits beside the side menu;
 * on a 375 px phone one rating at a time. What is typed is read back from the API.
 */
const PASSWORD = 'merit matrix by hand 2026';
/** Column words for the default compa-ratio thresholds 0.9 / 1 / 1.1. */
const COLUMNS = ['below 0.9', '0.9 to 1', '1 to 1.1', '1.1 and above'];

describe('the merit matrix editor', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let cycle: Cycle;
  const engine = inject('engine');

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Matrix Browser Co');
    admin = company.users.admin as TestUser;
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(PASSWORD) });
    await switchOn(db, company.id, ['compensation_planning']);
    const created = await request<{ data: Cycle }>('/api/v2/meritCycles', {
      method: 'POST',
      headers: bearer(admin),
      json: { name: 'Matrix 2026', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' },
    });
    expect(created.status).toBe(201);
    cycle = created.body.data;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const open = async (page: Page) => {
    await page.goto(`${inject('baseUrl')}/compensationplanning/cycles/${cycle.id}/recommendations`);
    await page.getByLabel('A merit matrix (rating × position in the band)').check();
  };
  /** Each rating's cells: rating index r (0 lowest), column c (1–4) → min r+c, target r+c+1, max r+c+2. */
  const planned = (ratingIndex: number, column: number) => ({ minBp: (ratingIndex + column) * 100, targetBp: (ratingIndex + column + 1) * 100, maxBp: (ratingIndex + column + 2) * 100 });
  const savedCells = async () => {
    const reply = await request<{ data: Cycle }>(`/api/v2/meritCycles/${cycle.id}`, { headers: bearer(admin) });
    return reply.body.data.recommendation.matrix?.cells ?? [];
  };

  it('fits a 1280 px screen as a table whose every box says its rating, column and part', { timeout: 240_000 }, async () => {
    const { context, page } = await signedIn(browser, admin, PASSWORD, 1280);
    await open(page);
    const matrix = page.getByRole('region', { name: 'Merit matrix' });
    await matrix.waitFor();
    const scale = cycle.performance.scale;
    // A row per rating and a named column per compa-ratio range, all headers.
    for (const rating of scale) expect(await matrix.getByRole('rowheader', { name: rating.label }).count()).toBe(1);
    for (const column of COLUMNS) expect(await matrix.getByRole('columnheader', { name: `Compa-ratio ${column}` }).count()).toBe(1);
    expect(await matrix.getByRole('textbox').count()).toBe(scale.length * 12);
    for (const [index, rating] of scale.entries()) {
      for (const [at, column] of COLUMNS.entries()) {
        const where = `${rating.label}, compa-ratio ${column}`;
        const cell = planned(index, at + 1);
        await page.getByLabel(`${where}: min %`, { exact: true }).fill(String(cell.minBp / 100));
        await page.getByLabel(`${where}: target %`, { exact: true }).fill(String(cell.targetBp / 100));
        await page.getByLabel(`${where}: max %`, { exact: true }).fill(String(cell.maxBp / 100));
      }
    }
    // Nothing clipped: the page and the matrix's own region fit the screen.
    await expectNoSidewaysScroll(page, 1280);
    const overflow = await matrix.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `merit-matrix-${engine}-1280`);
    await page.getByRole('button', { name: 'Save recommendation logic' }).click();
    await page.getByText('The recommendation logic is saved.', { exact: true }).first().waitFor();
    const expected = scale.flatMap((rating, index) => [1, 2, 3, 4].map((column) => ({ rating: rating.value, column, ...planned(index, column) })));
    const sorted = (cells: { rating: string; column: number }[]) => [...cells].sort((a, b) => `${a.rating}|${a.column}`.localeCompare(`${b.rating}|${b.column}`));
    expect(sorted(await savedCells())).toEqual(sorted(expected));
    await context.close();
  });

  it('shows one rating at a time on a 375 px phone, its columns as cards, without sideways scrolling', { timeout: 240_000 }, async () => {
    const { context, page } = await signedIn(browser, admin, PASSWORD, 375);
    await open(page);
    const matrix = page.getByRole('group', { name: 'Merit matrix' });
    await matrix.waitFor();
    const scale = cycle.performance.scale;
    const top = scale[scale.length - 1] as { value: string; label: string };
    const lowest = scale[0] as { value: string; label: string };
    // The highest rating first, with what is already set (the 1280 px test saved every cell).
    const chooser = page.getByLabel('Rating to set');
    expect(await chooser.locator('option:checked').textContent()).toBe(`${top.label} (4 of 4 set)`);
    expect(await matrix.getByRole('textbox').count()).toBe(12);
    for (const column of COLUMNS) expect(await matrix.getByRole('group', { name: `Compa-ratio ${column}` }).count()).toBe(1);
    await chooser.selectOption(lowest.value);
    const where = `${lowest.label}, compa-ratio below 0.9`;
    expect(await page.getByLabel(`${where}: target %`, { exact: true }).inputValue()).toBe('2');
    await page.getByLabel(`${where}: target %`, { exact: true }).fill('2.5');
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `merit-matrix-${engine}-375`);
    await page.getByRole('button', { name: 'Save recommendation logic' }).click();
    await page.getByText('The recommendation logic is saved.', { exact: true }).first().waitFor();
    const cell = (await savedCells()).find((entry) => entry.rating === lowest.value && entry.column === 1);
    expect(cell).toMatchObject({ minBp: 100, targetBp: 250, maxBp: 300 });
    await context.close();
  });
});
