import path from 'node:path';
import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withinReach } from '../../api/src/people/visibility.js';
import { insertSmallTeam } from '../../api/src/team/test/fixtures.js';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { ARTIFACTS, demoPassword, expectNoSidewaysScroll, launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

const MANAGER = 'manager@acme.test';
const ADMIN = 'admin@acme.test';

/** What is on screen (the drawer is fixed to the viewport, so a full-page shot would cut it). */
async function viewportShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Through the built-in provider, with the demo password the shared test server printed. */
const signIn = (page: Page, email: string) => signInThroughProvider(page, inject('baseUrl'), email, demoPassword(inject('serverEnv')));

interface NamedEmployee {
  id: string;
  first_name: string;
  last_name: string;
}

const nameOf = (row: NamedEmployee): string => [row.first_name, row.last_name].filter(Boolean).join(' ');

/** The number in the table's "N people" status line. */
async function shownCount(page: Page): Promise<number> {
  const status = page.locator('.team-count');
  await status.waitFor({ timeout: 30_000 });
  return Number((await status.textContent())?.replace(/[^\d]/g, ''));
}

describe('the team view in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let companyId: string;
  let subtree: string[];
  let everyone: NamedEmployee[];
  let outsider: NamedEmployee;
  const engine = inject('engine');

  beforeAll(async () => {
    db = await testDb();
    const manager = await db('users').where({ email: MANAGER }).first<{ id: string; company_id: string }>();
    companyId = manager.company_id;
    // The team view is a release flag; the demo switches it on through the internal tools.
    const support = await createTestUser(db, { companyId, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${companyId}/release-flags/team_view`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    // The demo people, when the demo company has them; otherwise a small org around the demo manager.
    let own = await db('employees').where({ company_id: companyId, user_id: manager.id }).first<{ id: string } | undefined>('id');
    if (!own) own = { id: (await insertSmallTeam(db, companyId, manager.id)).managerEmployeeId };
    const scope = { companyId };
    const inSubtree = (await withinReach(db('employees').where({ 'employees.company_id': companyId, 'employees.status': 'active' }), scope, { kind: 'subtree', rootId: own.id }).select(
      'employees.id',
    )) as { id: string }[];
    subtree = inSubtree.map((row) => row.id);
    everyone = (await db('employees').where({ company_id: companyId, status: 'active' }).select('id', 'first_name', 'last_name')) as NamedEmployee[];
    const found = everyone.find((row) => !subtree.includes(row.id));
    if (!found) throw new Error('the demo company has nobody outside the manager’s subtree');
    outsider = found;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('shows the demo manager only their own subtree, as cards on a phone and as a table on a desktop', async () => {
    const expected = everyone.filter((row) => subtree.includes(row.id)).map(nameOf).sort();
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    // A loaded two-core machine can be slow to answer; nothing here is a timing assertion.
    page.setDefaultTimeout(60_000);
    await signIn(page, MANAGER);
    // On a phone the tab bar holds the first four screens; the team view is under "Menu".
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'All screens' }).getByRole('link', { name: 'Team' }).click();
    await expect.poll(() => page.getByTestId('headcount').textContent(), { timeout: 30_000 }).toBe(String(subtree.length));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `team-overview-manager-${engine}-375`);

    await page.getByRole('link', { name: 'Employees' }).click();
    expect(await shownCount(page)).toBe(subtree.length);
    const cards = page.locator('.team-card');
    await expect.poll(() => cards.count()).toBeGreaterThan(0);
    if (subtree.length <= 4) expect(await cards.count()).toBe(subtree.length);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `team-employees-manager-${engine}-375`);

    await page.setViewportSize({ width: 1280, height: 900 });
    const rows = page.locator('[role="row"][data-employee-id]');
    // A subtree that fits the screen is rendered whole; a longer one is virtualised.
    if (subtree.length <= 12) {
      await expect.poll(() => rows.count()).toBe(subtree.length);
      const names = (await page.locator('[role="row"][data-employee-id] [data-col="name"]').allTextContents()).sort();
      expect(names).toEqual(expected);
    } else {
      await expect.poll(() => rows.count()).toBeGreaterThan(10);
    }
    const ids = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-employee-id')));
    expect(ids.every((id) => id !== null && subtree.includes(id))).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `team-employees-manager-${engine}-1280`);

    // Sorting from the keyboard: the header's button, then the order flips.
    const nameHeader = page.getByRole('columnheader', { name: /Name/ });
    await nameHeader.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => nameHeader.getAttribute('aria-sort')).toBe('descending');

    // Someone outside the subtree cannot be found.
    await page.getByLabel('Search').fill(nameOf(outsider));
    await page.getByRole('heading', { name: 'No one matches' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Search').fill('');
    await expect.poll(() => shownCount(page)).toBe(subtree.length);

    // A report's drawer: record, pay history and the equity chart, loaded with the drawer.
    await rows.first().getByRole('button').click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('heading', { name: 'Compensation timeline' }).waitFor({ timeout: 30_000 });
    await drawer.getByRole('heading', { name: 'Equity details' }).waitFor();
    expect(page.url()).toContain('employee=');
    expect(await seriousViolations(page)).toEqual([]);
    await viewportShot(page, `team-employee-drawer-manager-${engine}-1280`);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);

    // Someone with grants: the equity chart (recharts, loaded with the drawer) draws.
    const granted = await db('equity_grants').where({ company_id: companyId }).whereIn('employee_id', subtree).first<{ employee_id: string } | undefined>('employee_id');
    if (granted) {
      await page.goto(`${inject('baseUrl')}/team/employees?employee=${granted.employee_id}`);
      const chart = page.getByRole('dialog').locator('figure[aria-label^="Vesting over time"] svg').first();
      await chart.waitFor({ timeout: 30_000 });
      await page.getByRole('dialog').locator('.timeline li').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await viewportShot(page, `team-equity-chart-manager-${engine}-1280`);
      await page.setViewportSize({ width: 375, height: 800 });
      await viewportShot(page, `team-equity-chart-manager-${engine}-375`);
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // A person outside the subtree, asked for by URL, is not found.
    await page.goto(`${inject('baseUrl')}/team/employees?employee=${outsider.id}`);
    await page.getByRole('dialog').getByRole('heading', { name: 'Not found' }).waitFor({ timeout: 30_000 });
    await context.close();
  }, 240_000);

  it('shows the demo admin everyone, with analytics, the playground and the settings screens', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true });
    const page = await context.newPage();
    // A loaded two-core machine can be slow to answer; nothing here is a timing assertion.
    page.setDefaultTimeout(60_000);
    await signIn(page, ADMIN);
    await page.goto(`${inject('baseUrl')}/team/employees`);
    expect(await shownCount(page)).toBe(everyone.length);
    await page.getByLabel('Search').fill(nameOf(outsider));
    const row = page.locator(`[role="row"][data-employee-id="${outsider.id}"]`);
    await row.waitFor({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `team-employees-admin-${engine}-1280`);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator('.team-card').first().waitFor();
    await screenshot(page, `team-employees-admin-${engine}-375`);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The column picker saves the admin's own columns and the table follows.
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Columns' }).click();
    const email = page.getByRole('checkbox', { name: 'E-mail' });
    const had = await email.isChecked();
    await email.click();
    await expect.poll(() => page.getByRole('columnheader', { name: /E-mail/ }).count(), { timeout: 30_000 }).toBe(had ? 0 : 1);

    // The bulk pay export: a background job, then its download page, then the file.
    await page.getByRole('button', { name: 'Export pay' }).click();
    await page.waitForURL('**/bulk-download-employee-comp/**', { timeout: 60_000 });
    await page.getByRole('heading', { name: 'Employee compensation download' }).waitFor({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `team-bulk-download-admin-${engine}-1280`);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^Download / }).click()]);
    expect(file.suggestedFilename()).toMatch(/^employee-compensation-\d{4}-\d{2}-\d{2}\.csv$/);
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, `team-bulk-download-admin-${engine}-375`);
    await page.setViewportSize({ width: 1280, height: 900 });

    for (const [route, heading] of [
      ['/team/analytics', 'Compa-ratio to market'],
      ['/team/analytics/playground', 'Playground'],
      ['/team/settings/columns', 'Shown, in this order'],
      ['/team/settings/comp-timeline', 'Comp timeline'],
      ['/team/settings/equity-details', 'Equity details'],
    ] as const) {
      await page.goto(`${inject('baseUrl')}${route}`);
      await page.getByRole('heading', { name: heading }).first().waitFor({ timeout: 30_000 });
      await expect.poll(() => page.locator('.spinner').count(), { timeout: 30_000 }).toBe(0);
      expect(await seriousViolations(page), route).toEqual([]);
      const name = route.slice(1).replace(/\//g, '-');
      await screenshot(page, `${name}-admin-${engine}-1280`);
      await page.setViewportSize({ width: 375, height: 800 });
      await screenshot(page, `${name}-admin-${engine}-375`);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await context.close();
  }, 240_000);
  it('shows base, compa-ratio and band position at 1280 px in a dense grid worked from the keyboard, its density kept', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signIn(page, ADMIN);
    await page.goto(`${inject('baseUrl')}/team/employees`);
    const grid = page.getByRole('grid', { name: 'Employees' });
    const rows = grid.locator('[role="row"][data-employee-id]');
    await rows.first().waitFor({ timeout: 30_000 });

    // The right columns first: base, compa-ratio and band position are in view without scrolling sideways.
    for (const name of ['Base salary', 'Compa-ratio', 'Band position']) {
      const box = await grid.getByRole('columnheader', { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(1280);
    }
    await expectNoSidewaysScroll(page, 1280);
    // Money is right-aligned in whole units: "$123,456", never cents.
    const base = grid.locator('[role="row"][data-employee-id] [data-col="baseSalary"]').first();
    expect(await base.evaluate((cell) => getComputedStyle(cell).justifyContent)).toBe('flex-end');
    expect(await base.textContent()).toMatch(/^(—|[^\d]*[\d,]+)$/);
    // A long title carries its full text on hover.
    const title = grid.locator('[role="row"][data-employee-id] [data-col="title"]').first();
    expect(await title.getAttribute('title')).toBe(await title.textContent());

    // Compact rows by default on a desktop: 32 px each.
    expect(Math.round((await rows.first().boundingBox())?.height ?? 0)).toBe(32);

    // The keyboard: a cell, then arrows, Home/End, Page Down and Space/Shift to select, Escape to clear.
    await grid.locator('[role="row"][aria-rowindex="2"] [data-col="department"]').click();
    // Focus follows a move in the grid's effect, after the key's event: wait for it, as a person sees it.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-pos'));
    // Row 1 (aria-rowindex 2), column 3: the checkbox column is 0, then name, title, department.
    await expect.poll(focused).toBe('1:3');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('2:3');
    await page.keyboard.press('ArrowRight');
    await expect.poll(focused).toBe('2:4');
    await page.keyboard.press('Home');
    await expect.poll(focused).toBe('2:0');
    await page.keyboard.press('End');
    const last = await grid.getByRole('row').first().getByRole('columnheader').count();
    await expect.poll(focused).toBe(`2:${last - 1}`);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect.poll(focused).toBe(`0:${last - 1}`);
    await page.keyboard.press('PageDown');
    await expect.poll(async () => Number((await focused())?.split(':')[0])).toBeGreaterThan(5);
    await page.keyboard.press('Control+Home');
    await expect.poll(focused).toBe('0:0');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    const status = page.locator('.dgrid-selection [role="status"]');
    await expect.poll(() => status.textContent()).toBe('3 selected');
    expect(await grid.locator('[role="row"][aria-selected="true"]').count()).toBe(3);
    await page.getByRole('button', { name: 'Export selection (CSV)' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await grid.locator('[data-pos="3:1"]').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => status.textContent()).toBe('');
    // Enter on a row opens the person's drawer.
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(page.url()).toContain('employee=');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Comfortable rows, kept for the person across a reload.
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/me/preferences') && response.request().method() === 'PUT');
    await page.locator('.dgrid-density select').selectOption('comfortable');
    expect((await saved).status()).toBe(200);
    await expect.poll(async () => Math.round((await rows.first().boundingBox())?.height ?? 0)).toBe(44);
    await page.reload();
    await rows.first().waitFor({ timeout: 30_000 });
    expect(await page.locator('.dgrid-density select').inputValue()).toBe('comfortable');
    await expect.poll(async () => Math.round((await rows.first().boundingBox())?.height ?? 0)).toBe(44);
    await screenshot(page, `team-employees-comfortable-${engine}-1280`);
    await page.locator('.dgrid-density select').selectOption('compact');
    await expect.poll(async () => Math.round((await rows.first().boundingBox())?.height ?? 0)).toBe(32);

    // A phone: the same people as cards, no grid.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator('.team-card').first().waitFor();
    expect(await page.getByRole('grid').count()).toBe(0);
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  }, 240_000);
});
