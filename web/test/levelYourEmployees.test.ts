import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { apiTokenOf, launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

type Levelled = components['schemas']['LevelledEmployee'];

const PEOPLE = 60;
const nameOf = (index: number) => `Person ${String(index).padStart(2, '0')}`;
/** Waits for what the page shows; a loaded two-core machine can be slow. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000 });

/*
 * Level your employees as an analyst who lives in a spreadsheet uses it, in a company of its own:
 * sixty software engineers recorded at P3 whose titles say "Senior" (so the suggestion differs from
 * the record), read in a dense grid, moved through from the keyboard, three taken into their records
 * in one go — one of them changed by someone else meanwhile, so refused and named — and one placed by
 * hand from its row's sheet. At 375 px the rows are cards.
 */
describe('level your employees in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  let token: string;
  const ids: string[] = [];
  const base = () => inject('baseUrl');

  const levelled = async (): Promise<Map<string, Levelled>> => {
    const reply = await request<{ data: components['schemas']['LevelYourEmployees'] }>('/api/benchmarking/level-your-employees?limit=500', { headers: { Authorization: `Bearer ${token}` } });
    expect(reply.status).toBe(200);
    return new Map(reply.body.data.employees.map((entry) => [entry.employeeId, entry]));
  };
  const stored = async (id: string) => (await db('employees').where({ id }).first('job_family_id', 'level_id', 'title')) as { job_family_id: string; level_id: string; title: string };

  beforeAll(async () => {
    db = await testDb();
    person = await createAdmin(db);
    token = await apiTokenOf(person.email);
    for (let index = 1; index <= PEOPLE; index += 1) {
      const [firstName, lastName] = nameOf(index).split(' ') as [string, string];
      const id = await insertEmployee(db, person.companyId, { firstName, lastName, title: 'Senior Software Engineer', jobFamilyId: 'software_engineering', levelId: 'p3' });
      await insertPay(db, person.companyId, id, [{ type: 'base_salary', amount: 18_000_000, effectiveDate: '2024-01-01' }]);
      ids.push(id);
    }
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  async function axeClean(page: Page, where: string) {
    expect(await seriousViolations(page), where).toEqual([]);
  }

  /** Rows wholly inside the grid's scrolling region: what fits on one screen. */
  const rowsInView = (page: Page) =>
    page.evaluate(() => {
      const region = document.querySelector('.dgrid-scroll') as HTMLElement;
      const box = region.getBoundingClientRect();
      const head = region.querySelector('.dgrid-head')?.getBoundingClientRect().height ?? 0;
      return [...region.querySelectorAll('.dgrid-body [role="row"]')].filter((row) => {
        const rect = row.getBoundingClientRect();
        return rect.top >= box.top + head - 1 && rect.bottom <= box.bottom + 1;
      }).length;
    });

  const activeRow = (page: Page) => page.evaluate(() => document.activeElement?.closest('[role="row"]')?.getAttribute('data-employee') ?? null);
  const activeColumn = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-col') ?? null);
  const activePosition = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-pos') ?? null);

  it('reads sixty people densely, moves by keyboard, takes suggestions into records at the version read and places one by hand', { timeout: 300_000 }, async () => {
    const before = await levelled();
    const suggestion = before.get(ids[0] as string)?.suggestion;
    expect(suggestion).toMatchObject({ jobFamilyId: 'software_engineering', matchesCurrent: false });
    const suggestedLevel = suggestion?.levelId ?? '';

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/benchmarkingsurvey/level-your-employees`);
    const grid = page.getByRole('grid', { name: 'Employees and their suggested levels' });
    const row = (index: number) => grid.locator(`[role="row"][data-employee="${ids[index - 1]}"]`);
    await row(1).waitFor();
    // Cards showed three people per screen; compact rows show many more at 1280 × 900.
    const fit = await rowsInView(page);
    expect(fit).toBeGreaterThanOrEqual(15);
    process.stdout.write(`level your employees: ${fit} rows in view at 1280 × 900\n`);
    await axeClean(page, '/benchmarkingsurvey/level-your-employees');
    await screenshot(page, 'level-your-employees-1280');

    // The keyboard: End and Home along a row, Page Down a screen down, Ctrl+End to the last person.
    await row(1).locator('[data-col="title"]').click();
    await page.keyboard.press('End');
    await poll(() => activeColumn(page)).toBe('why');
    await page.keyboard.press('Home');
    await poll(() => activePosition(page)).toBe('1:0');
    await page.keyboard.press('PageDown');
    await poll(async () => ids.indexOf((await activeRow(page)) ?? '')).toBeGreaterThan(5);
    await page.keyboard.press('Control+End');
    await poll(() => activeRow(page)).toBe(ids[PEOPLE - 1]);
    await page.keyboard.press('Control+Home');
    await poll(() => activePosition(page)).toBe('0:0');

    // Someone else edits Person 02's record after the grid was read.
    const second = before.get(ids[1] as string) as Levelled;
    const edit = await request(`/api/employees/${second.employeeId}`, { method: 'PATCH', headers: { Authorization: `Bearer ${token}`, 'If-Match': `"${second.version}"` }, json: { title: 'Senior Software Engineer II' } });
    expect(edit.status).toBe(200);
    // Click, Shift+click: three people; their suggestions go into the records in one go.
    await grid.getByRole('checkbox', { name: `Select ${nameOf(1)}` }).click();
    await grid.getByRole('checkbox', { name: `Select ${nameOf(3)}` }).click({ modifiers: ['Shift'] });
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Use the suggested level for 3 employees' }).click();
    const outcome = page.locator('.levelling-outcome');
    await poll(() => outcome.textContent()).toContain('2 records updated. 1 refused, unchanged:');
    expect(await outcome.getByRole('listitem').textContent()).toBe(`${nameOf(2)}: Someone else changed this record first; reload to see it.`);
    expect(await stored(ids[0] as string)).toMatchObject({ job_family_id: 'software_engineering', level_id: suggestedLevel });
    expect(await stored(ids[1] as string)).toMatchObject({ level_id: 'p3', title: 'Senior Software Engineer II' });
    expect(await stored(ids[2] as string)).toMatchObject({ level_id: suggestedLevel });
    await poll(() => row(1).getAttribute('data-matches')).toBe('true');

    // Enter on Person 04's row opens its reasons and a family and level to keep.
    await row(4).locator('[data-col="title"]').click();
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog', { name: nameOf(4) });
    await sheet.getByRole('heading', { name: 'Why' }).waitFor();
    await sheet.getByLabel('Level in the record').selectOption('p5');
    await axeClean(page, 'an employee’s levelling sheet');
    await sheet.getByRole('button', { name: 'Save to the record' }).click();
    await sheet.waitFor({ state: 'detached' });
    expect(await stored(ids[3] as string)).toMatchObject({ job_family_id: 'software_engineering', level_id: 'p5' });
    await context.close();

    // A phone: one card per person, nothing wider than the screen.
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' });
    const small = await phone.newPage();
    small.setDefaultTimeout(60_000);
    await signInThroughProvider(small, base(), person.email, person.password);
    await small.goto(`${base()}/benchmarkingsurvey/level-your-employees`);
    await small.getByRole('button', { name: `Open ${nameOf(1)}` }).waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await axeClean(small, '/benchmarkingsurvey/level-your-employees at 375 px');
    await screenshot(small, 'level-your-employees-375');
    await phone.close();
  });
});
