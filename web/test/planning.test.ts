import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Knex } from 'knex';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestCompany, type TestUser, createTestCompany, testDb } from '../../api/test/factories.js';
import { launchChromium, screenshot, seriousViolations } from './browser.js';
import { engineeringBandSet, signedIn, switchOn } from './companySetup.js';

/*
 * A whole merit cycle by clicking, in a company of its own (other browser tests expect the demo
 * company's modules as they are): an admin sets it up, a manager and a compensation planner plan the
 * same worksheet in two browsers at once, the admin sends it back and approves it from a phone, then
 * closes the cycle and downloads the payroll file. Every expected figure is worked out below from
 * what this test sets up — the people's pay, the band, the matrix it types and the 4% budget.
 */

const PASSWORD = 'merit cycles by hand 2026';
const DATES = { periodStart: '2025-01-01', periodEnd: '2025-12-31', effectiveDate: '2026-01-01' };
const BAND = { min: 80_000, mid: 100_000, max: 120_000 }; // dollars, every P3 software engineer

/** The merit matrix the admin types: min / target / max % by rating and compa-ratio column (1: below 0.9 … 4: 1.1 and above). */
const MATRIX: Record<string, { label: string; cells: [number, number, number][] }> = {
  exceeds: { label: 'Exceeds expectations', cells: [[5, 6, 7], [4, 5, 6], [3, 4, 5], [2, 3, 4]] },
  meets: { label: 'Meets expectations', cells: [[4, 5, 6], [3, 4, 5], [2, 3, 4], [1, 2, 3]] },
  developing: { label: 'Developing', cells: [[1, 2, 3], [1, 1.5, 2], [0, 1, 2], [0, 0.5, 1]] },
};
const COLUMN_LABELS = ['below 0.9', '0.9 to 1', '1 to 1.1', '1.1 and above'];

/** Marco's team: who is eligible is decided by the rules the admin clicks (hired before 2025-01-01, full time). */
const TEAM = [
  { key: 'ada', first: 'Ada', last: 'Anchor', base: 100_000, rating: 'exceeds', eligible: true },
  { key: 'ben', first: 'Ben', last: 'Baker', base: 90_000, rating: 'meets', eligible: true },
  { key: 'cai', first: 'Cai', last: 'Chen', base: 120_000, rating: 'meets', eligible: true },
  { key: 'dee', first: 'Dee', last: 'Dane', base: 110_000, rating: 'developing', eligible: true },
  { key: 'eli', first: 'Eli', last: 'Early', base: 95_000, rating: 'meets', eligible: false, startDate: '2025-06-01' },
  { key: 'fox', first: 'Fox', last: 'Freelance', base: 80_000, rating: 'meets', eligible: false, contractor: true },
] as const;

const dollars = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);
const percent = (value: number) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);

/** The matrix column of a compa-ratio, by the thresholds 0.9 / 1.0 / 1.1. */
const columnOf = (compa: number) => 1 + [0.9, 1.0, 1.1].filter((threshold) => compa >= threshold).length;
/** The guideline of a person: their rating's row, their compa-ratio's column. */
function guideline(person: (typeof TEAM)[number]) {
  const [min, target, max] = MATRIX[person.rating]?.cells[columnOf(person.base / BAND.mid) - 1] ?? [0, 0, 0];
  return { min, target, max };
}

/** A cell of the worksheet grid: the person's row, the column's key. */
const cell = (page: Page, employeeId: string, column: string): Locator => page.locator(`[role="row"][data-employee-id="${employeeId}"] [data-col="${column}"]`);

/** Types into a grid cell as a planner does: select it, type, Enter. */
async function typeInto(page: Page, employeeId: string, column: string, text: string): Promise<void> {
  await cell(page, employeeId, column).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

describe('merit cycles in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let planner: TestUser;
  let manager: TestUser;
  const ids: Record<string, string> = {};
  let bandSetId = '';
  const engine = inject('engine');

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Planning Browser Co');
    admin = company.users.admin as TestUser;
    planner = company.users.compensation_planner as TestUser;
    manager = company.users.people_manager as TestUser;
    const password = await hashPassword(PASSWORD);
    for (const [user, first, last] of [
      [admin, 'Olga', 'Owner'],
      [planner, 'Priya', 'Planner'],
      [manager, 'Marco', 'Manager'],
    ] as const) {
      await db('users').where({ id: user.id }).update({ password_hash: password, first_name: first, last_name: last });
    }
    // Compensation planning, salary bands (the cycle's band set) and live updates, switched on by support.
    await switchOn(db, company.id, ['compensation_planning', 'bands', 'multiplayer']);

    // Hana heads the company (no pay recorded); Marco manages the team above (his own pay is excluded by hand later).
    ids.hana = await insertEmployee(db, company.id, { firstName: 'Hana', lastName: 'Head', levelId: 'm6', department: 'Engineering', performanceRating: 'meets' });
    ids.marco = await insertEmployee(db, company.id, { firstName: 'Marco', lastName: 'Manager', levelId: 'm4', managerId: ids.hana, userId: manager.id, performanceRating: 'meets' });
    await insertPay(db, company.id, ids.marco, [{ type: 'base_salary', amount: 15_000_000, effectiveDate: '2024-01-01' }]);
    for (const person of TEAM) {
      ids[person.key] = await insertEmployee(db, company.id, {
        firstName: person.first,
        lastName: person.last,
        managerId: ids.marco,
        performanceRating: person.rating,
        ...('startDate' in person ? { startDate: person.startDate } : {}),
      });
      await insertPay(db, company.id, ids[person.key] as string, [{ type: 'base_salary', amount: person.base * 100, effectiveDate: '2024-01-01' }]);
      if ('contractor' in person) await db('employees').where({ id: ids[person.key] }).update({ employment_type: 'contractor' });
    }

    // The band set the cycle reads compa-ratios from: one P3 band, set by hand to $80k / $100k / $120k.
    bandSetId = await engineeringBandSet(admin, BAND);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('sets a cycle up, plans it in two browsers at once, sends it back from a phone, approves it from the bulk bar once closing points to it, closes it and exports the payroll file', { timeout: 600_000 }, async () => {
    const eligible = TEAM.filter((person) => person.eligible);
    const payroll = eligible.reduce((sum, person) => sum + person.base, 0);
    const allocated = (payroll * 4) / 100;
    const plan: Record<string, number> = Object.fromEntries(eligible.map((person) => [person.key, guideline(person).target]));
    const used = () => eligible.reduce((sum, person) => sum + (person.base * (plan[person.key] ?? 0)) / 100, 0);
    // The hand-worked figures: $420,000 eligible payroll, $16,800 at 4%; the targets pre-filled as the plan.
    expect({ payroll, allocated, targets: plan, used: used() }).toEqual({ payroll: 420_000, allocated: 16_800, targets: { ada: 4, ben: 4, cai: 2, dee: 0.5 }, used: 10_550 });

    // ── the admin sets the cycle up ────────────────────────────────────────────────────────
    const owner = await signedIn(browser, admin, PASSWORD);
    const page = owner.page;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Planning' }).click();
    await page.getByRole('heading', { name: 'No merit cycles yet' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create a cycle' }).click();
    const create = page.getByRole('dialog', { name: 'Create a merit cycle' });
    await create.getByLabel('Name', { exact: true }).fill('Merit 2026');
    await create.getByLabel('Performance period from').fill(DATES.periodStart);
    await create.getByLabel('to', { exact: true }).fill(DATES.periodEnd);
    await create.getByLabel('Effective date (new pay starts)').fill(DATES.effectiveDate);
    await create.getByLabel('Band set').selectOption(bandSetId);
    await create.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL('**/settings');
    const cycleUrl = page.url().replace(/\/settings$/, '');
    const sections = page.getByRole('navigation', { name: 'Cycle sections' });

    // Eligibility: hired before the period, full time; the preview counts and says why.
    await sections.getByRole('link', { name: 'Eligibility' }).click();
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Rule 1: hired before').fill(DATES.periodStart);
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Rule 2', { exact: true }).selectOption('employmentType');
    await page.getByLabel('Full time').check();
    // Hana has no pay, Eli joined in the period and Fox is a contractor: the unsaved rules would make
    // 5 eligible (Marco too) and 3 not, counted live while the saved rules (none) still let 7 in.
    await expect.poll(() => page.getByTestId('live-eligible-count').textContent()).toBe('5');
    expect(await page.getByTestId('live-ineligible-count').textContent()).toBe('3');
    expect(await page.getByRole('list', { name: 'The first people these rules leave out' }).locator(`li[data-employee-id="${ids.fox}"]`).textContent()).toContain('contractor');
    await expect.poll(() => page.getByTestId('eligible-count').textContent()).toBe('7');
    await page.getByRole('button', { name: 'Save eligibility rules' }).click();
    await expect.poll(() => page.getByTestId('eligible-count').textContent()).toBe('5');
    expect(await page.getByTestId('ineligible-count').textContent()).toBe('3');
    await expect.poll(() => page.getByTestId('live-eligible-count').count()).toBe(0);
    expect(await page.locator(`tr[data-employee-id="${ids.fox}"]`).getAttribute('data-status')).toBe('ineligible');
    expect(await page.locator(`tr[data-employee-id="${ids.fox}"] td[data-label="Why"]`).textContent()).toContain('contractor');
    expect(await page.locator(`tr[data-employee-id="${ids.eli}"]`).getAttribute('data-status')).toBe('ineligible');
    // Marco is excluded by hand, with the reason.
    await page.getByRole('button', { name: 'Exclude Marco Manager' }).click();
    const exclude = page.getByRole('dialog', { name: 'Exclude Marco Manager?' });
    await exclude.getByLabel('Reason (required)').fill('New in the role');
    await exclude.getByRole('button', { name: 'Exclude' }).click();
    await expect.poll(() => page.getByTestId('eligible-count').textContent()).toBe('4');
    expect(await page.getByTestId('excluded-count').textContent()).toBe('1');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `planning-eligibility-${engine}-1280`);

    // Recommendations: the merit matrix, a fallback, advisory guidelines that need a comment outside them.
    await sections.getByRole('link', { name: 'Recommendations' }).click();
    await page.getByLabel('A merit matrix (rating × position in the band)').check();
    for (const row of Object.values(MATRIX)) {
      for (const [index, [min, target, max]] of row.cells.entries()) {
        const where = `${row.label}, compa-ratio ${COLUMN_LABELS[index]}`;
        await page.getByLabel(`${where}: min %`, { exact: true }).fill(String(min));
        await page.getByLabel(`${where}: target %`, { exact: true }).fill(String(target));
        await page.getByLabel(`${where}: max %`, { exact: true }).fill(String(max));
      }
    }
    await page.getByLabel('A fallback for people without a rating or a band').check();
    await page.getByLabel('Needs a comment saying why').check();
    await page.getByRole('button', { name: 'Save recommendation logic' }).click();
    await toast(page, 'The recommendation logic is saved.');
    expect(await seriousViolations(page)).toEqual([]);

    // Budget: 4% of eligible payroll.
    await sections.getByRole('link', { name: 'Budget' }).click();
    await page.getByLabel('Budget, % of eligible payroll').fill('4');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await toast(page, 'The budget is saved.');

    // The planning window opens now; the company-wide approval chain is the admin.
    await sections.getByRole('link', { name: 'Planning windows' }).click();
    await page.getByRole('group', { name: 'Planning (managers plan)' }).getByRole('button', { name: 'Open from now for two weeks' }).click();
    await page.getByRole('button', { name: 'Save windows' }).click();
    await toast(page, 'The planning windows are saved.');
    await sections.getByRole('link', { name: 'Approval chains' }).click();
    await page.getByRole('button', { name: 'Add the company-wide chain' }).click();
    await page.getByLabel('Add a reviewer').selectOption(admin.id);
    await page.getByRole('button', { name: 'Save approval chains' }).click();
    await toast(page, 'The approval chains are saved.');
    await page.getByText('1. Olga Owner').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Start planning.
    await sections.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Start planning' }).click();
    await page.getByRole('dialog', { name: 'Start planning?' }).getByRole('button', { name: 'Start planning' }).click();
    await toast(page, 'Planning has started.');
    expect(await page.getByTestId('cycle-eligible').textContent()).toBe('4');

    // ── two planners open Marco's worksheet at once ────────────────────────────────────────
    const marco = await signedIn(browser, manager, PASSWORD);
    await marco.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Planning' }).click();
    await marco.page.getByRole('link', { name: 'Merit 2026' }).click();
    await marco.page.getByRole('navigation', { name: 'Cycle sections' }).getByRole('link', { name: 'Worksheets' }).click();
    await marco.page.getByRole('link', { name: 'Open my worksheet' }).click();
    await marco.page.getByRole('heading', { name: 'Marco Manager’s worksheet' }).waitFor();
    const worksheetUrl = marco.page.url();

    const priya = await signedIn(browser, planner, PASSWORD);
    await priya.page.goto(`${cycleUrl}/worksheets`);
    await priya.page.getByRole('link', { name: 'Marco Manager' }).click();
    await priya.page.getByRole('heading', { name: 'Marco Manager’s worksheet' }).waitFor();
    expect(priya.page.url()).toBe(worksheetUrl);

    for (const { page: view } of [marco, priya]) {
      expect(await view.getByTestId('budget-allocated').textContent()).toBe(dollars(allocated));
      expect(await view.getByTestId('budget-used').textContent()).toBe(dollars(used()));
      expect(await view.getByTestId('budget-remaining').textContent()).toBe(dollars(allocated - used()));
      for (const person of eligible) expect(await cell(view, ids[person.key] as string, 'meritPercent').textContent()).toBe(percent(guideline(person).target));
    }
    // Only the eligible are listed by default; the others are a filter away.
    expect(await marco.page.locator('[role="row"][data-employee-id]').count()).toBe(eligible.length);
    expect(await seriousViolations(marco.page)).toEqual([]);
    await screenshot(marco.page, `planning-worksheet-${engine}-1280`);

    // Marco raises Ada to 5% (inside her 3–5% guideline): Priya sees it without reloading.
    await typeInto(marco.page, ids.ada as string, 'meritPercent', '5');
    plan.ada = 5;
    await expect.poll(() => cell(marco.page, ids.ada as string, 'meritAmount').textContent()).toBe(dollars(5_000));
    await expect.poll(() => cell(priya.page, ids.ada as string, 'meritPercent').textContent()).toBe('5%');
    expect(await marco.page.getByTestId('budget-used').textContent()).toBe(dollars(used()));

    // Priya starts typing 4.5% for Ben; meanwhile Marco gives Ben $3,800 (the % follows: 4.22%).
    const benRow = (view: Page) => view.locator(`[role="row"][data-employee-id="${ids.ben}"]`);
    const readVersion = Number(await benRow(priya.page).getAttribute('data-version'));
    await cell(priya.page, ids.ben as string, 'meritPercent').click();
    await priya.page.keyboard.type('4.5');
    await typeInto(marco.page, ids.ben as string, 'meritAmount', '3800');
    await expect.poll(() => cell(marco.page, ids.ben as string, 'meritPercent').textContent()).toBe('4.22%');
    // Marco's change reaches Priya's open worksheet while her input stays as she typed it.
    await expect.poll(() => benRow(priya.page).getAttribute('data-version')).toBe(String(readVersion + 1));
    expect(await priya.page.getByLabel('Merit % for Ben Baker').inputValue()).toBe('4.5');
    await priya.page.keyboard.press('Enter');
    // Her save was at the version she read: refused, with what changed and who; her 4.5 kept.
    const conflict = priya.page.getByRole('region', { name: 'Changes not saved' }).getByRole('alert');
    await conflict.waitFor();
    expect(await conflict.textContent()).toMatch(/Someone else changed Ben Baker’s merit \(by Marco Manager\) first.*Your entry “4\.5” is kept\./);
    expect(await cell(priya.page, ids.ben as string, 'meritPercent').textContent()).toBe('4.5');
    expect(await cell(priya.page, ids.ben as string, 'meritAmount').textContent()).toBe(dollars(3_800));
    expect(await seriousViolations(priya.page)).toEqual([]);
    await screenshot(priya.page, `planning-conflict-${engine}-1280`);
    // She saves hers again, knowingly, over Marco's: 4.5% of $90,000 = $4,050, and Marco sees it.
    await conflict.getByRole('button', { name: 'Save mine again' }).click();
    plan.ben = 4.5;
    await expect.poll(() => cell(priya.page, ids.ben as string, 'meritAmount').textContent()).toBe(dollars(4_050));
    await expect.poll(() => cell(marco.page, ids.ben as string, 'meritPercent').textContent()).toBe('4.5%');

    // Cai at 5% is outside her 1–3% guideline: the cycle asks why, in the server's words.
    await typeInto(marco.page, ids.cai as string, 'meritPercent', '5');
    const why = marco.page.getByRole('dialog', { name: 'Why is Cai Chen outside the guideline?' });
    await why.getByRole('alert').filter({ hasText: 'outside the guideline 1.00%–3.00%' }).waitFor();
    await why.getByLabel('Comment').fill('Retention: an outside offer');
    await why.getByRole('button', { name: 'Save with the comment' }).click();
    plan.cai = 5;
    await expect.poll(() => cell(marco.page, ids.cai as string, 'meritAmount').textContent()).toBe(dollars(6_000));
    expect(await cell(marco.page, ids.cai as string, 'flags').textContent()).toContain('outside the guideline');
    await expect.poll(() => marco.page.getByTestId('budget-used').textContent()).toBe(dollars(used()));
    expect(used()).toBe(15_600);
    expect(await marco.page.getByTestId('budget-remaining').textContent()).toBe(dollars(1_200));

    // Spreadsheet habits: a column of comments pasted from a spreadsheet, filled down, the arrow keys.
    await cell(marco.page, ids.ada as string, 'comment').click();
    await marco.page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'Steady\nStrong year\nRetention: an outside offer\n');
      document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => cell(marco.page, ids.ben as string, 'comment').textContent()).toBe('Strong year');
    await expect.poll(() => cell(marco.page, ids.ada as string, 'comment').textContent()).toBe('Steady');
    await marco.page.keyboard.press('Shift+ArrowDown');
    await marco.page.keyboard.press('Control+d');
    await expect.poll(() => cell(marco.page, ids.ben as string, 'comment').textContent()).toBe('Steady');
    expect(await cell(marco.page, ids.cai as string, 'comment').textContent()).toBe('Retention: an outside offer');
    // From Ben's comment: down twice to Dee, left four columns to her merit %, type 1 and Enter.
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft']) await marco.page.keyboard.press(key);
    await marco.page.keyboard.type('1');
    await marco.page.keyboard.press('Enter');
    plan.dee = 1;
    await expect.poll(() => cell(marco.page, ids.dee as string, 'meritAmount').textContent()).toBe(dollars(1_100));
    await expect.poll(() => marco.page.getByTestId('budget-used').textContent()).toBe(dollars(used()));
    expect(used()).toBe(16_150);

    // Marco submits; the rows are read-only while the worksheet is reviewed.
    await marco.page.getByRole('button', { name: 'Submit for approval' }).click();
    await marco.page.getByRole('dialog', { name: 'Submit the worksheet?' }).getByRole('button', { name: 'Submit for approval' }).click();
    await toast(marco.page, 'Submitted for approval.');
    await expect.poll(() => marco.page.getByTestId('read-only').textContent()).toMatch(/Read-only: The worksheet is in review\.$/);

    // ── the admin sends it back from a phone, with what to change ─────────────────────────
    const phone = await signedIn(browser, admin, PASSWORD, 375);
    await phone.page.goto(`${inject('baseUrl')}/compensationplanning/approvals`);
    const card = phone.page.locator(`li.planning-approval`).filter({ hasText: 'Marco Manager’s worksheet' });
    await card.waitFor();
    expect(await seriousViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, `planning-approvals-${engine}-375`);
    await card.getByRole('button', { name: 'Send back Marco Manager’s worksheet' }).click();
    const sendBack = phone.page.getByRole('dialog', { name: 'Send Marco Manager’s worksheet back?' });
    await sendBack.getByLabel('Comment (required)').fill('Bring Cai back inside the guideline, please.');
    await sendBack.getByRole('button', { name: 'Send back' }).click();
    await toast(phone.page, 'Marco Manager’s worksheet is sent back.');

    // Marco hears of it live: the worksheet is his to change again.
    await marco.page.getByTestId('read-only').waitFor({ state: 'detached' });
    await marco.page.getByRole('button', { name: 'History and comments' }).click();
    await marco.page.getByRole('dialog').getByText('Bring Cai back inside the guideline, please.').waitFor();
    await marco.page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await typeInto(marco.page, ids.cai as string, 'meritPercent', '3');
    plan.cai = 3;
    await expect.poll(() => cell(marco.page, ids.cai as string, 'meritAmount').textContent()).toBe(dollars(3_600));
    await marco.page.getByRole('button', { name: 'Submit for approval' }).click();
    await marco.page.getByRole('dialog', { name: 'Submit the worksheet?' }).getByRole('button', { name: 'Submit for approval' }).click();
    await toast(marco.page, 'Submitted for approval.');

    // The resubmitted worksheet arrives in the admin's inbox on the phone. On the desktop, closing
    // waits for it, says so and links to it; the bulk bar approves the one selected.
    await card.getByRole('button', { name: 'Approve Marco Manager’s worksheet' }).waitFor();
    await page.goto(`${cycleUrl}/close`);
    const closeButton = page.getByRole('button', { name: 'Close the cycle' });
    await closeButton.waitFor();
    expect(await closeButton.isDisabled()).toBe(true);
    expect(await page.locator('#close-blocked').textContent()).toBe('1 is not approved. See it');
    await page.getByRole('link', { name: 'See it' }).click();
    await page.getByText('Showing the 1 not yet approved.').waitFor();
    await page.getByRole('checkbox', { name: 'Select Marco Manager’s worksheet' }).check();
    await page.getByRole('region', { name: 'Selected worksheets' }).getByRole('button', { name: 'Approve 1 selected' }).click();
    await page.getByRole('dialog', { name: 'Approve the 1 worksheet selected?' }).getByRole('button', { name: 'Approve' }).click();
    await toast(page, '1 worksheet approved.');

    // ── the dashboard, then closing and the payroll file ──────────────────────────────────
    expect(used()).toBe(13_750);

    // On a phone, the worksheet is cards to read.
    await marco.page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => marco.page.locator('.planning-card').count()).toBe(eligible.length);
    expect(await seriousViolations(marco.page)).toEqual([]);
    await screenshot(marco.page, `planning-worksheet-${engine}-375`);
    await page.goto(`${cycleUrl}/dashboard`);
    await expect.poll(() => page.getByTestId('dashboard-allocated').textContent()).toBe(dollars(allocated));
    expect(await page.getByTestId('dashboard-used').textContent()).toBe(dollars(used()));
    expect(await page.getByTestId('dashboard-remaining').textContent()).toBe(dollars(allocated - used()));
    await page.locator('figure[aria-label^="Allocated and used by branch"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `planning-dashboard-${engine}-1280`);

    await sections.getByRole('link', { name: 'Close and export' }).click();
    await page.getByText('1 of 1 worksheets with people to plan are approved.').waitFor();
    await page.getByRole('button', { name: 'Close the cycle' }).click();
    await page.getByRole('dialog', { name: 'Close the cycle?' }).getByRole('button', { name: 'Close the cycle' }).click();
    await toast(page, 'The cycle is closed.');
    expect(await page.getByTestId('pay-records-written').textContent()).toBe(String(eligible.length));
    // The new base salaries are in people data, effective on the cycle's date.
    const written = (await db('compensation_records')
      .where({ company_id: company.id, type: 'base_salary', effective_date: DATES.effectiveDate })
      .select('employee_id', 'amount')) as { employee_id: string; amount: number | string }[];
    const expectedBases = Object.fromEntries(eligible.map((person) => [ids[person.key], Math.round(person.base * (100 + (plan[person.key] ?? 0)))]));
    expect(Object.fromEntries(written.map((row) => [row.employee_id, Number(row.amount)]))).toEqual(expectedBases);
    expect(expectedBases[ids.ada as string]).toBe(10_500_000);

    await page.getByRole('button', { name: 'Export the payroll file (CSV)' }).click();
    await page.getByRole('link', { name: 'Open the download' }).click();
    await page.getByRole('heading', { name: 'Your download' }).waitFor();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^Download / }).click()]);
    expect(file.suggestedFilename()).toBe('merit-cycle-Merit-2026-2026-01-01.csv');
    const rows = parse(await readFile((await file.path()) as string, 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
    expect(rows.map((row) => `${row['First name']} ${row['Last name']}`).sort()).toEqual(eligible.map((person) => `${person.first} ${person.last}`).sort());
    for (const person of eligible) {
      const row = rows.find((entry) => entry['First name'] === person.first);
      expect(Number(row?.['Current base'])).toBe(person.base);
      expect(Number(row?.['New base'])).toBe(person.base + (person.base * (plan[person.key] ?? 0)) / 100);
      expect(row?.['Effective date']).toBe(DATES.effectiveDate);
    }

    for (const context of [owner.context, marco.context, priya.context, phone.context]) await context.close();
  });
});
