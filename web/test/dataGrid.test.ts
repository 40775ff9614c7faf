import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoPassword, launchChromium, seriousViolations, signInThroughProvider } from './browser.js';

const SUPPORT = 'support@paybench.test';
const ROWS = 10_000;

/*
 * The data grid at the size it is built for: the UI kit's 10,000 generated rows (the same every
 * time), measured in a real browser — how long until they show, how few rows are drawn, how long a
 * sort, a filter and a jump to the last row take — and the keyboard, the selection, resize, reorder
 * and density, saved per person across a reload. At 375 px the rows are cards. The timings are
 * printed, with a generous ceiling: a loaded two-core machine is no place for tight limits.
 */
describe('the data grid with 10,000 rows in a real browser', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const grid = (page: Page) => page.getByRole('grid', { name: 'Example: 10,000 people' });
  const drawnRows = (page: Page) => grid(page).locator('.dgrid-body [role="row"]').count();
  const firstName = (page: Page) => grid(page).locator('.dgrid-body [role="row"]').first().locator('[data-col="name"]').textContent();
  const activePosition = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-pos') ?? null);
  const headerWidth = (page: Page, key: string) => grid(page).locator(`[role="columnheader"][data-col="${key}"]`).evaluate((element) => Math.round(element.getBoundingClientRect().width));
  const headerOrder = (page: Page) => grid(page).locator('[role="columnheader"][data-col]').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-col')));

  async function timed(what: string, work: () => Promise<unknown>): Promise<number> {
    const start = performance.now();
    await work();
    const took = Math.round(performance.now() - start);
    process.stdout.write(`data grid, ${ROWS.toLocaleString('en-US')} rows: ${what} in ${took} ms\n`);
    return took;
  }

  it('shows 10,000 rows drawing only those in view, sorts, filters, jumps, selects, and keeps widths, order and density per person', { timeout: 300_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), SUPPORT, demoPassword(inject('serverEnv')));
    await page.goto(`${base()}/internal/ui#data-grid`);
    const shown = await timed('first rows shown', () => grid(page).locator('[data-row-id="row-1"]').waitFor());
    expect(shown).toBeLessThan(30_000);
    await grid(page).scrollIntoViewIfNeeded();
    expect(await grid(page).getAttribute('aria-rowcount')).toBe(String(ROWS + 1));
    // Virtualised: a screenful and the overscan are drawn, not ten thousand.
    expect(await drawnRows(page)).toBeLessThan(80);

    // Sort by a column: base, highest first (two clicks), the header saying so.
    const baseHeader = grid(page).getByRole('columnheader', { name: /Base/ });
    await timed('sorted by base', async () => {
      await baseHeader.getByRole('button').click();
      await baseHeader.getByRole('button').click();
      await expect.poll(() => baseHeader.getAttribute('aria-sort')).toBe('descending');
    });
    const top = await grid(page).locator('.dgrid-body [role="row"]').first().locator('[data-col="base"]').textContent();
    // The rows' bases are 60,000 + (i × 7,919 mod 140,000): the highest, worked out the same way.
    const highest = Math.max(...Array.from({ length: ROWS }, (_, index) => 60_000 + ((index * 7919) % 140_000)));
    expect(top).toBe(`$${highest.toLocaleString('en-US')}`);

    // Filter a column: 10,000 → the Design department only (every sixth).
    await page.getByRole('region', { name: 'Data grid', exact: true }).getByRole('button', { name: 'Filter columns' }).click();
    await timed('filtered by department', async () => {
      await grid(page).getByLabel('Filter Department').fill('Design');
      await expect.poll(() => grid(page).locator('.dgrid-body [role="row"]').evaluateAll((rows) => rows.every((row) => row.querySelector('[data-col="department"]')?.textContent === 'Design'))).toBe(true);
    });
    // Sort and filters are the moment's, not saved: a reload shows the rows as they come.
    await page.reload();
    await grid(page).locator('[data-row-id="row-1"]').waitFor();
    await grid(page).scrollIntoViewIfNeeded();

    // The keyboard: into the grid, End/Home, Ctrl+End to the 10,000th row, Page Up, Ctrl+Home.
    await grid(page).locator('[data-row-id="row-1"] [data-col="department"]').click();
    expect(await activePosition(page)).toBe('1:2');
    await page.keyboard.press('End');
    expect(await activePosition(page)).toBe('1:4');
    await page.keyboard.press('Home');
    expect(await activePosition(page)).toBe('1:0');
    await timed('Ctrl+End to the last row', async () => {
      await page.keyboard.press('Control+End');
      await expect.poll(() => activePosition(page)).toBe(`${ROWS}:4`);
    });
    expect(await drawnRows(page)).toBeLessThan(80);
    await page.keyboard.press('PageUp');
    await expect.poll(async () => Number((await activePosition(page))?.split(':')[0])).toBeLessThan(ROWS);
    await page.keyboard.press('Control+Home');
    await expect.poll(() => activePosition(page)).toBe('0:0');

    // Selection: Space on a row, Shift+Down twice extends it; Ctrl+click adds one further down; Escape clears.
    await grid(page).locator('[data-row-id="row-1"] [data-col="level"]').click();
    await page.keyboard.press(' ');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.getByText('3 selected').waitFor();
    await grid(page).locator('[data-row-id="row-6"] [data-col="level"]').click({ modifiers: ['Control'] });
    await page.getByText('4 selected').waitFor();
    expect(await grid(page).locator('[role="row"][aria-selected="true"]').count()).toBe(4);
    await page.keyboard.press('Escape');
    await expect.poll(() => grid(page).locator('[role="row"][aria-selected="true"]').count()).toBe(0);

    // Resize (Alt+→ on a header), reorder (Alt+Shift+→) and density; all kept for this person.
    const before = await headerWidth(page, 'department');
    await grid(page).locator('[role="columnheader"][data-col="department"]').click({ position: { x: 4, y: 4 } });
    await page.keyboard.press('Alt+ArrowRight');
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => headerWidth(page, 'department')).toBe(before + 32);
    await page.keyboard.press('Alt+Shift+ArrowRight');
    await expect.poll(() => headerOrder(page)).toEqual(['name', 'level', 'department', 'base']);
    const compactHeight = await grid(page).locator('[data-row-id="row-1"]').evaluate((row) => row.getBoundingClientRect().height);
    expect(compactHeight).toBe(32);
    await page.getByRole('region', { name: 'Data grid', exact: true }).getByRole('combobox', { name: /^Rows/ }).selectOption('comfortable');
    await expect.poll(() => grid(page).locator('[data-row-id="row-1"]').evaluate((row) => row.getBoundingClientRect().height)).toBe(44);
    expect(await seriousViolations(page)).toEqual([]);
    // A little later (the saves are in flight), a reload keeps all three.
    await expect
      .poll(async () => {
        await page.reload();
        await grid(page).locator('[data-row-id="row-1"]').waitFor();
        return [await headerWidth(page, 'department'), (await headerOrder(page)).join(), await grid(page).locator('[data-row-id="row-1"]').evaluate((row) => row.getBoundingClientRect().height)];
      }, { timeout: 60_000 })
      .toEqual([before + 32, 'name,level,department,base', 44]);
    expect(await firstName(page)).toBe('Person 00001');
    await page.getByRole('region', { name: 'Data grid', exact: true }).getByRole('combobox', { name: /^Rows/ }).selectOption('compact');
    await context.close();

    // A phone: cards, drawn only in view too.
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' });
    const small = await phone.newPage();
    small.setDefaultTimeout(60_000);
    await signInThroughProvider(small, base(), SUPPORT, demoPassword(inject('serverEnv')));
    await small.goto(`${base()}/internal/ui#data-grid`);
    const cards = small.getByRole('region', { name: 'Example: 10,000 people cards' });
    await cards.locator('[data-row-id="row-1"]').waitFor();
    expect(await cards.locator('[data-row-id]').count()).toBeLessThan(40);
    await phone.close();
  });
});
