import type { Knex } from 'knex';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../api/src/contract-types.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { expectNoSidewaysScroll, launchChromium, seriousViolations } from './browser.js';
import { signedIn, switchOn } from './companySetup.js';

type Schemas = components['schemas'];

/*
 * A block pasted from a spreadsheet into a merit worksheet, in a company of its own: fifty people
 * report to Mia, each on $100,000.00 (10,000,000 cents). The cycle pays merit, promotion, a lump
 * sum and an equity refresh, with a flat 3% guideline (advisory), so every row starts at a merit of
 * 3% × $100,000 = $3,000 and no lump sum or equity refresh.
 *
 * The block is 50 rows × 2 columns (merit amount, promotion), pasted at the first row's merit:
 *   row i (0…49): merit $2,000 + $10 × i (→ (2,000 + 10 i) × 100 cents), promotion $500 (50,000 cents);
 *   row 7's merit is typed "2,1OO" (letters O, not zeros): not an amount, so it is refused in place
 *   and the 99 other cells are saved.
 * Undo puts the 99 cells back ($3,000 merit, no promotion). Then row 3 is changed through the API
 * (merit 4.5%) while the page still holds the version before, and the block is pasted again: row
 * 3's two cells are refused as a conflict (its 4.5% stays), the other 48 good rows and row 7's
 * promotion are saved.
 */

const PASSWORD = 'spreadsheet paste by hand 2026';
const ROWS = 50;
const BAD_ROW = 7;
const CHANGED_ROW = 3;
const meritDollars = (index: number) => 2_000 + 10 * index;
const block = Array.from({ length: ROWS }, (_, index) => `${index === BAD_ROW ? '2,1OO' : meritDollars(index)}\t500`).join('\r\n') + '\r\n';

const cell = (page: Page, employeeId: string, column: string): Locator => page.locator(`[role="row"][data-employee-id="${employeeId}"] [data-col="${column}"]`);

describe('spreadsheet editing in a worksheet, in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let planner: TestUser;
  // The cycle and Mia's worksheet, set up by the first test and edited by the keyboard in the second.
  let cycleId = '';
  let sheetId = '';

  /** Mia's worksheet's eligible rows, as the API answers an admin now. */
  const readSheet = async () =>
    (await request<{ data: Schemas['WorksheetDetail'] }>(`/api/v2/meritCycles/${cycleId}/worksheets/${sheetId}`, { headers: bearer(admin) })).body.data.employees.filter((row) => row.eligibility.status === 'eligible');

  /** Mia's worksheet opened by the planner at 1280 × 900; `choose` ticks rows by their index in `rows`. */
  async function openSheet(rows: Schemas['WorksheetEmployee'][]) {
    const { context, page } = await signedIn(browser, planner, PASSWORD);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${inject('baseUrl')}/compensationplanning/cycles/${cycleId}/worksheets/${sheetId}`);
    const grid = page.getByRole('grid', { name: 'Mia Manager’s worksheet' });
    await grid.waitFor();
    const choose = async (indexes: number[]) => {
      for (const index of indexes) await grid.getByLabel(`Select ${(rows[index] as Schemas['WorksheetEmployee']).name}`).check();
    };
    return { context, page, grid, notice: page.getByTestId('sheet-notice'), choose };
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Worksheet Paste Co');
    admin = company.users.admin as TestUser;
    planner = company.users.compensation_planner as TestUser;
    await db('users').where({ id: planner.id }).update({ password_hash: await hashPassword(PASSWORD), first_name: 'Priya', last_name: 'Planner' });
    await switchOn(db, company.id, ['compensation_planning']);
    const mia = await insertEmployee(db, company.id, { firstName: 'Mia', lastName: 'Manager', levelId: 'm4', performanceRating: 'meets' });
    for (let index = 0; index < ROWS; index += 1) {
      const id = await insertEmployee(db, company.id, { firstName: `Person${String(index).padStart(2, '0')}`, lastName: 'Paste', managerId: mia, performanceRating: 'meets', startDate: '2020-01-01' });
      await insertPay(db, company.id, id, [{ type: 'base_salary', amount: 10_000_000, effectiveDate: '2024-01-01' }]);
    }
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('pastes 50 × 2 cells with one bad cell shown in place, undoes the paste, and pastes again with a conflicting row refused and the rest saved', { timeout: 600_000 }, async () => {
    const api = <T>(url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
      request<{ data: T }>(url, { method: init.method ?? 'GET', headers: { ...bearer(admin), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });

    // The cycle, set up through the API as an admin would, and launched.
    const created = await api<Schemas['MeritCycle']>('/api/v2/meritCycles', { method: 'POST', json: { name: 'Paste 2026', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', components: ['merit', 'promotion', 'lumpSum', 'equityRefresh'] } });
    expect(created.status).toBe(201);
    let cycle = created.body.data;
    const put = async (path: string, json: unknown) => {
      const reply = await api<Schemas['MeritCycle']>(`/api/v2/meritCycles/${cycle.id}${path}`, { method: 'PUT', json, ifMatch: cycle.version });
      expect(reply.status, path).toBe(200);
      cycle = reply.body.data;
    };
    await put('/recommendationLogic', { kind: 'flat', flat: { minBp: 100, targetBp: 300, maxBp: 600 }, guidelines: { mode: 'advisory', commentRequired: false } });
    await put('/budgets/configuration', { percentBp: 300, basis: 'department', overrides: [], spendComponents: ['merit', 'promotion'], blockOverBudget: false });
    const launched = await api<Schemas['MeritCycle']>(`/api/v2/meritCycles/${cycle.id}/transitions`, { method: 'POST', json: { action: 'launch' }, ifMatch: cycle.version });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const sheets = await api<Schemas['Worksheet'][]>(`/api/v2/meritCycles/${cycle.id}/worksheets`);
    const sheet = sheets.body.data.find((entry) => entry.counts.employees >= ROWS);
    if (!sheet) throw new Error('no worksheet for Mia’s team');
    cycleId = cycle.id;
    sheetId = sheet.id;
    const read = async () => (await api<Schemas['WorksheetDetail']>(`/api/v2/meritCycles/${cycle.id}/worksheets/${sheet.id}`)).body.data.employees.filter((row) => row.eligibility.status === 'eligible');
    const before = await read();
    expect(before).toHaveLength(ROWS);
    // Everyone starts at the 3% target: 10,000,000 × 300 ÷ 10,000 = 300,000 cents, and no promotion.
    for (const row of before) expect([row.merit?.amount.amount, row.promotion]).toEqual([300_000, null]);
    const order = before.map((row) => row.employeeId);
    const at = (index: number) => order[index] as string;

    const { context, page } = await signedIn(browser, planner, PASSWORD);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`${inject('baseUrl')}/compensationplanning/cycles/${cycle.id}/worksheets/${sheet.id}`);
    const grid = page.getByRole('grid', { name: 'Mia Manager’s worksheet' });
    await grid.waitFor();
    const notice = page.getByTestId('sheet-notice');
    const paste = async () => {
      await page.evaluate((text) => navigator.clipboard.writeText(text), block);
      await cell(page, at(0), 'meritAmount').click();
      await page.keyboard.press('Control+V');
    };
    const stored = async (expected: (index: number) => [number | undefined, number | null | undefined]) => {
      await expect
        .poll(async () => (await read()).map((row) => [row.merit?.amount.amount, row.promotion?.amount ?? null]), { timeout: 120_000, interval: 500 })
        .toEqual(order.map((_, index) => expected(index)));
    };

    // ── the first paste: 99 cells saved, the bad one shown in place ─────────────────────────
    await paste();
    await notice.getByText('Paste: 99 cells changed. 1 not taken (shown in red): Type the merit increase as an amount in USD, e.g. 2500.').waitFor();
    const bad = cell(page, at(BAD_ROW), 'meritAmount');
    await expect.poll(() => bad.getAttribute('aria-invalid')).toBe('true');
    expect(await bad.textContent()).toBe('2,1OO');
    expect(await bad.getAttribute('title')).toBe('Type the merit increase as an amount in USD, e.g. 2500.');
    // Saved: row i's merit (2,000 + 10 i) × 100 cents, row 7's merit untouched at 300,000; every promotion 50,000.
    await stored((index) => [index === BAD_ROW ? 300_000 : meritDollars(index) * 100, 50_000]);
    expect(await seriousViolations(page)).toEqual([]);

    // Copy out: the first three rows' two cells, as tab-separated text (shift+click selects them).
    await cell(page, at(0), 'meritAmount').click();
    await cell(page, at(2), 'promotion').click({ modifiers: ['Shift'] });
    expect(await cell(page, at(1), 'promotion').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Control+C');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('2000\t500\n2010\t500\n2020\t500');

    // ── undo: the whole paste goes back, the bad cell with it ───────────────────────────────
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await notice.getByText('Undone: Paste of 99 cells.').waitFor();
    await stored(() => [300_000, null]);
    await expect.poll(() => bad.getAttribute('aria-invalid')).toBe(null);
    expect(await page.getByRole('button', { name: 'Redo', exact: true }).isEnabled()).toBe(true);

    // ── someone changes row 3 through the API meanwhile (the page still holds its old version) ──
    const third = (await read())[CHANGED_ROW] as Schemas['WorksheetEmployee'];
    const changed = await request(`/api/v2/meritCycles/${cycle.id}/employees/${third.employeeId}`, { method: 'PATCH', headers: { ...bearer(admin), 'If-Match': `"${third.version}"` }, json: { meritPercentBp: 450 } });
    expect(changed.status).toBe(200);

    // ── the second paste: row 3 refused as a conflict, the others saved ─────────────────────
    await paste();
    await notice.getByText('Paste: 99 cells changed. 1 not taken (shown in red): Type the merit increase as an amount in USD, e.g. 2500.').waitFor();
    const refused = page.getByRole('region', { name: 'Changes not saved' }).locator(`li[data-employee-id="${at(CHANGED_ROW)}"]`);
    await expect.poll(() => refused.count(), { timeout: 120_000 }).toBe(2);
    expect(await refused.first().textContent()).toContain('Person03 Paste');
    // Row 3 keeps the other person's 4.5%: 10,000,000 × 450 ÷ 10,000 = 450,000 cents, no promotion.
    await stored((index) => (index === CHANGED_ROW ? [450_000, null] : [index === BAD_ROW ? 300_000 : meritDollars(index) * 100, 50_000]));
    await expect.poll(() => cell(page, at(CHANGED_ROW), 'meritAmount').getAttribute('aria-invalid')).toBe('true');
    await context.close();
  });

  /*
   * The keyboard alone, in the same worksheet (after the pastes above): row 10's merit % is opened
   * with Enter, typed over and dropped with Escape (nothing saved); opened again, 5 typed and saved
   * with Tab, which moves to the merit amount: 5% of $100,000 = $5,000 (500,000 cents). Arrow down
   * to row 11's merit amount, type 2500 (typing opens the cell) and Enter: $2,500 (250,000 cents),
   * and the active cell is row 12's. "12abc" typed there is refused in place and saves nothing.
   */
  it('edits cells from the keyboard: Enter, Escape, Tab and the arrows; a bad entry is refused in place; phones get cards', { timeout: 600_000 }, async () => {
    const before = await readSheet();
    const at = (index: number) => (before[index] as Schemas['WorksheetEmployee']).employeeId;
    const merits = async () => Object.fromEntries((await readSheet()).map((row) => [row.employeeId, row.merit?.amount.amount]));
    const start = await merits();

    const { context, page } = await signedIn(browser, planner, PASSWORD);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${inject('baseUrl')}/compensationplanning/cycles/${cycleId}/worksheets/${sheetId}`);
    await page.getByRole('grid', { name: 'Mia Manager’s worksheet' }).waitFor();
    const editor = page.getByRole('textbox', { name: 'Merit % for Person10 Paste' });
    const activeColumn = () => page.evaluate(() => [document.activeElement?.closest('[role="row"]')?.getAttribute('data-employee-id') ?? null, document.activeElement?.getAttribute('data-col') ?? null]);

    // Enter opens the cell; Escape drops what was typed.
    await cell(page, at(10), 'meritPercent').click();
    await page.keyboard.press('Enter');
    await editor.waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('9');
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    expect(await activeColumn()).toEqual([at(10), 'meritPercent']);

    // Enter, 5, Tab: saved, and the merit amount beside it is active.
    await page.keyboard.press('Enter');
    await editor.waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    await page.keyboard.press('Tab');
    await expect.poll(activeColumn).toEqual([at(10), 'meritAmount']);

    // ↓, then typing opens row 11's merit amount; Enter saves and goes down.
    await page.keyboard.press('ArrowDown');
    await expect.poll(activeColumn).toEqual([at(11), 'meritAmount']);
    await page.keyboard.type('2500');
    await page.keyboard.press('Enter');
    await expect.poll(activeColumn).toEqual([at(12), 'meritAmount']);
    await expect.poll(merits, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(10)]: 500_000, [at(11)]: 250_000 });

    // A bad entry: refused in place with its reason, nothing sent.
    await page.keyboard.type('12abc');
    await page.keyboard.press('Enter');
    const bad = cell(page, at(12), 'meritAmount');
    await expect.poll(() => bad.getAttribute('aria-invalid')).toBe('true');
    expect(await bad.textContent()).toBe('12abc');
    expect(await bad.getAttribute('title')).toBe('Type the merit increase as an amount in USD, e.g. 2500.');
    expect((await merits())[at(12)]).toBe(start[at(12)]);
    expect(await seriousViolations(page)).toEqual([]);

    // Phones: the rows are cards to read, each opening the person; nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('region', { name: 'Worksheet cards' }).waitFor();
    expect(await page.getByRole('grid', { name: 'Mia Manager’s worksheet' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open Person00 Paste' }).waitFor();
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  /*
   * Rows chosen by their checkboxes, in the same worksheet: rows 4, 5 and 6 hold the first paste's
   * merits ($2,040, $2,050, $2,060 of $100,000: 2.04%, 2.05%, 2.06%). "Set merit %" with 4.5 makes
   * each 4.5% of $100,000 = $4,500 (450,000 cents), one change that Undo puts back. Someone then
   * sets row 8's merit to 5% through the API while the page holds the version before; "Set to
   * guideline" on rows 4, 5, 6 and 8 gives the first three the flat 3% target ($3,000, 300,000
   * cents) and refuses row 8 as a conflict: its 5% (500,000 cents) stays.
   */
  it('applies a merit to the rows selected in one undoable change, saved per row at the version read', { timeout: 600_000 }, async () => {
    const before = await readSheet();
    const row = (index: number) => before[index] as Schemas['WorksheetEmployee'];
    const at = (index: number) => row(index).employeeId;
    const merits = async () => Object.fromEntries((await readSheet()).map((entry) => [entry.employeeId, entry.merit?.amount.amount]));
    const start = await merits();
    for (const index of [4, 5, 6]) expect(start[at(index)]).toBe((2_000 + 10 * index) * 100);

    const { context, page, notice, choose } = await openSheet(before);
    const bar = page.getByRole('group', { name: 'Change the selected people’s merit' });

    // ── one merit % for three rows, then undone as one change ───────────────────────────────
    await choose([4, 5, 6]);
    expect(await page.locator('.dgrid-selection [role="status"]').textContent()).toBe('3 selected');
    await bar.getByLabel('Merit % for the selected').fill('4.5');
    await bar.getByRole('button', { name: 'Set merit %' }).click();
    await notice.getByText('Set merit %: 3 cells changed.').waitFor();
    await expect.poll(merits, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(4)]: 450_000, [at(5)]: 450_000, [at(6)]: 450_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await notice.getByText('Undone: Set merit % of 3 cells.').waitFor();
    await expect.poll(merits, { timeout: 120_000, interval: 500 }).toEqual(start);
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // ── someone sets row 8's merit meanwhile; the guideline for four rows refuses that one ──
    await choose([4, 5, 6, 8]);
    const eighth = (await readSheet()).find((entry) => entry.employeeId === at(8)) as Schemas['WorksheetEmployee'];
    const changed = await request(`/api/v2/meritCycles/${cycleId}/employees/${at(8)}`, { method: 'PATCH', headers: { ...bearer(admin), 'If-Match': `"${eighth.version}"` }, json: { meritPercentBp: 500 } });
    expect(changed.status).toBe(200);
    await bar.getByRole('button', { name: 'Set to guideline' }).click();
    await notice.getByText('Set to guideline: 4 cells changed.').waitFor();
    await expect.poll(() => cell(page, at(8), 'meritPercent').getAttribute('aria-invalid'), { timeout: 120_000 }).toBe('true');
    expect(await cell(page, at(8), 'meritPercent').getAttribute('title')).toMatch(/changed/i);
    await expect.poll(merits, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(4)]: 300_000, [at(5)]: 300_000, [at(6)]: 300_000, [at(8)]: 500_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  /*
   * The promotion column the same way, in the same worksheet: rows 10 to 13 hold the second paste's
   * $500 promotion (50,000 cents). Someone sets row 13's promotion to $700 (70,000 cents) through
   * the API while the page holds the version before; "Set promotion" with 1200 on the four rows
   * gives rows 10, 11 and 12 $1,200 (120,000 cents) and refuses row 13 as a conflict, its $700
   * kept. Undo puts the three back at $500 and drops row 13's refused entry; "Clear promotion" on
   * rows 10 and 11 then takes their promotion away (none), one change of two cells.
   */
  it('sets and clears a promotion on the rows selected in one undoable change, the row someone else changed refused', { timeout: 600_000 }, async () => {
    const before = await readSheet();
    const row = (index: number) => before[index] as Schemas['WorksheetEmployee'];
    const at = (index: number) => row(index).employeeId;
    const promotions = async () => Object.fromEntries((await readSheet()).map((entry) => [entry.employeeId, entry.promotion?.amount ?? null]));
    const start = await promotions();
    for (const index of [10, 11, 12, 13]) expect(start[at(index)]).toBe(50_000);

    const { context, page, notice, choose } = await openSheet(before);
    const bar = page.getByRole('group', { name: 'Change an amount of the selected people' });

    // ── someone sets row 13's promotion meanwhile; $1,200 for four rows refuses that one ────
    await choose([10, 11, 12, 13]);
    const changed = await request(`/api/v2/meritCycles/${cycleId}/employees/${at(13)}`, { method: 'PATCH', headers: { ...bearer(admin), 'If-Match': `"${row(13).version}"` }, json: { promotionAmount: { amount: 70_000, currency: 'USD' } } });
    expect(changed.status).toBe(200);
    await bar.getByLabel('Promotion for the selected').fill('1200');
    await bar.getByRole('button', { name: 'Set promotion' }).click();
    await notice.getByText('Set promotion: 4 cells changed.').waitFor();
    await expect.poll(() => cell(page, at(13), 'promotion').getAttribute('aria-invalid'), { timeout: 120_000 }).toBe('true');
    expect(await cell(page, at(13), 'promotion').getAttribute('title')).toMatch(/changed/i);
    await expect.poll(promotions, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(10)]: 120_000, [at(11)]: 120_000, [at(12)]: 120_000, [at(13)]: 70_000 });
    expect(await seriousViolations(page)).toEqual([]);

    // ── undone as one change: the three back at $500, row 13's refused entry dropped ────────
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await notice.getByText('Undone: Set promotion of 4 cells.').waitFor();
    await expect.poll(promotions, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(13)]: 70_000 });
    await expect.poll(() => cell(page, at(13), 'promotion').getAttribute('aria-invalid'), { timeout: 120_000 }).toBeNull();
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // ── no promotion for two rows ───────────────────────────────────────────────────────────
    await choose([10, 11]);
    await bar.getByRole('button', { name: 'Clear promotion' }).click();
    await notice.getByText('Clear promotion: 2 cells changed.').waitFor();
    await expect.poll(promotions, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(10)]: null, [at(11)]: null, [at(13)]: 70_000 });
    await context.close();
  });
  /*
   * A lump sum and an equity refresh, each chosen in the amount picker of the bulk bar, in the same
   * worksheet: rows 20 to 23 start with neither (null). Someone sets row 23's amount to $700 (70,000
   * cents) through the API while the page holds the version before; the amount 1200 on the four rows
   * gives rows 20, 21 and 22 $1,200 (120,000 cents) and refuses row 23 as a conflict, its $700 kept.
   * Undo takes the three away again (null). 900 on rows 20 to 22 gives each $900 (90,000 cents); Clear
   * on rows 20 and 21 then takes theirs away, row 22 keeping its $900. The equity refresh does the
   * same on rows 30 to 33.
   */
  const amountThroughThePicker = (field: 'lumpSum' | 'equityRefresh', first: number) => async () => {
    const before = await readSheet();
    const row = (index: number) => before[index] as Schemas['WorksheetEmployee'];
    const at = (index: number) => row(index).employeeId;
    const amounts = async () => Object.fromEntries((await readSheet()).map((entry) => [entry.employeeId, entry[field]?.amount ?? null]));
    const start = await amounts();
    const [a, b, c, d] = [first, first + 1, first + 2, first + 3];
    for (const index of [a, b, c, d]) expect(start[at(index)]).toBeNull();

    const { context, page, notice, choose } = await openSheet(before);
    const bar = page.getByRole('group', { name: 'Change an amount of the selected people' });

    // ── someone sets row d's amount meanwhile; $1,200 for four rows refuses that one ────────
    await choose([a, b, c, d]);
    const changed = await request(`/api/v2/meritCycles/${cycleId}/employees/${at(d)}`, { method: 'PATCH', headers: { ...bearer(admin), 'If-Match': `"${row(d).version}"` }, json: { [`${field}Amount`]: { amount: 70_000, currency: 'USD' } } });
    expect(changed.status).toBe(200);
    // The bar starts at the promotion each time rows are chosen: the amount is picked first.
    const picker = bar.getByRole('combobox');
    const pick = async () => {
      await picker.selectOption(field);
      await expect.poll(() => picker.inputValue()).toBe(field);
    };
    await pick();
    // The column's name in the company's words (a lump sum carries the company's title for a one-off bonus).
    const label = ((await picker.locator('option:checked').textContent()) ?? '').trim();
    expect(label).not.toBe('');
    const what = label.toLowerCase();
    await bar.getByLabel(`${label} for the selected`).fill('1200');
    await bar.getByRole('button', { name: `Set ${what}` }).click();
    await notice.getByText(`Set ${what}: 4 cells changed.`).waitFor();
    await expect.poll(() => cell(page, at(d), field).getAttribute('aria-invalid'), { timeout: 120_000 }).toBe('true');
    expect(await cell(page, at(d), field).getAttribute('title')).toMatch(/changed/i);
    await expect.poll(amounts, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(a)]: 120_000, [at(b)]: 120_000, [at(c)]: 120_000, [at(d)]: 70_000 });
    expect(await seriousViolations(page)).toEqual([]);

    // ── undone as one change: the three have none again, row d's refused entry dropped ──────
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await notice.getByText(`Undone: Set ${what} of 4 cells.`).waitFor();
    await expect.poll(amounts, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(d)]: 70_000 });
    await expect.poll(() => cell(page, at(d), field).getAttribute('aria-invalid'), { timeout: 120_000 }).toBeNull();
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // ── $900 for three rows, then none for two of them ──────────────────────────────────────
    await choose([a, b, c]);
    await pick();
    await bar.getByLabel(`${label} for the selected`).fill('900');
    await bar.getByRole('button', { name: `Set ${what}` }).click();
    await notice.getByText(`Set ${what}: 3 cells changed.`).waitFor();
    await expect.poll(amounts, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(a)]: 90_000, [at(b)]: 90_000, [at(c)]: 90_000, [at(d)]: 70_000 });
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await choose([a, b]);
    await pick();
    await bar.getByRole('button', { name: `Clear ${what}` }).click();
    await notice.getByText(`Clear ${what}: 2 cells changed.`).waitFor();
    await expect.poll(amounts, { timeout: 120_000, interval: 500 }).toEqual({ ...start, [at(c)]: 90_000, [at(d)]: 70_000 });
    await context.close();
  };

  it('sets and clears a lump sum through the amount picker on the rows selected, the row someone else changed refused', { timeout: 600_000 }, amountThroughThePicker('lumpSum', 20));
  it('sets and clears an equity refresh through the amount picker on the rows selected, the row someone else changed refused', { timeout: 600_000 }, amountThroughThePicker('equityRefresh', 30));
});
