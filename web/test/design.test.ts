import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { demoPassword, launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

const ADMIN = 'admin@acme.test';
const MANAGER = 'manager@acme.test';
const EMPLOYEE = 'employee@acme.test';
const SUPPORT = 'support@paybench.test';

const WIDTHS = [375, 1280] as const;
const SCHEMES = ['light', 'dark'] as const;

/** Waits until the screen has drawn: a heading, and no skeleton or spinner left (the UI kit's specimens stay). */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor({ timeout: 30_000 });
  await expect.poll(() => page.locator('[aria-busy="true"]:not(.specimen *), .spinner-arc').count(), { timeout: 30_000 }).toBe(0);
  await page.waitForLoadState('networkidle');
}

/** Controls on a phone smaller than a 44 × 44 px tap target, as "what: width × height" lines. */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'button, select, input[type="search"], input[type="text"], input[type="email"], input[type="number"], a.button, .nav-link, [role="tab"], summary';
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => element.offsetParent !== null && !element.closest('table, [role="table"], .recharts-wrapper'))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.height < 43.5 || box.width < 43.5))
      .map(({ element, box }) => `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}": ${Math.round(box.width)} × ${Math.round(box.height)}`);
  });
}

/**
 * The screen as it is now, at 375 and 1280 px, light and dark: nothing scrolls sideways, axe finds
 * nothing serious or critical, on phones every control is a full tap target; a screenshot of each.
 */
async function checkEverywhere(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      // The frame follows the width through a media query: wait until it has (phone: tab bar; desktop: side menu).
      await page.waitForFunction((phone) => {
        const frame = document.querySelector('.frame');
        return !frame || frame.classList.contains(phone ? 'phone' : 'open');
      }, width < 768);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await settled(page);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      if (scrollWidth > width) problems.push(`${name} ${scheme} ${width}: ${scrollWidth} px wide`);
      problems.push(...(await seriousViolations(page)).map((violation) => `${name} ${scheme} ${width}: ${violation}`));
      if (width === 375) problems.push(...(await smallTapTargets(page)).map((target) => `${name} ${scheme} 375: small tap target ${target}`));
      await screenshot(page, `design-${name}-${scheme}-${width}-${inject('engine')}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return problems;
}

/** Follows a link of the main navigation: in the side menu, or on a phone in the tab bar or behind Menu. */
async function openFromMenu(page: Page, label: string): Promise<void> {
  const main = page.getByRole('navigation', { name: 'Main' });
  const link = main.getByRole('link', { name: label, exact: true });
  if (await link.isVisible()) {
    await link.click();
    return;
  }
  await main.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: label, exact: true }).click();
}

describe('one visual system: every main screen at 375 and 1280 px, light and dark', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');
  const password = () => demoPassword(inject('serverEnv'));

  beforeAll(async () => {
    // The team view is a release flag: switched on for the demo company, as an internal admin would.
    const db = await testDb();
    const admin = await db('users').where({ email: ADMIN }).first<{ company_id: string }>();
    const support = await createTestUser(db, { companyId: admin.company_id, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${admin.company_id}/release-flags/team_view`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('shows the admin the company dashboard, and the explorer, the team and the settings through the menu', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), ADMIN, password());

    // Home: headcount, payroll in the company currency, compa-ratio and its chart; every figure links to its screen.
    await page.getByRole('heading', { name: /at a glance$/ }).waitFor();
    const figures = page.getByRole('list', { name: 'Company figures' });
    await expect.poll(() => page.getByTestId('dashboard-headcount').textContent()).toMatch(/^\d[\d,]*$/);
    expect(await page.getByTestId('dashboard-payroll').textContent()).toMatch(/^\$[\d.]+[KMB]?$/);
    expect(await figures.getByRole('link', { name: 'Headcount' }).getAttribute('href')).toBe('/team/employees');
    expect(await figures.getByRole('link', { name: 'Average compa-ratio' }).getAttribute('href')).toBe('/team/analytics');
    // The distribution is drawn in the base-salary colour group, its numbers in a table.
    const chart = page.getByRole('figure', { name: 'People by compa-ratio' });
    await chart.locator('.bar-fill').first().waitFor();
    expect(await chart.getByRole('columnheader').allTextContents()).toEqual(['Compa-ratio', 'People']);
    expect(await chart.locator('.bar-fill').first().evaluate((element) => element.style.background)).toBe('var(--comp-base)');
    // Modules say their real state (every one is built and on in the demo) and link to their screens.
    expect(await page.locator('[data-module="bands"]').textContent()).toContain('Available');
    expect(await page.locator('[data-module="rewardLetters"]').textContent()).toContain('Available');
    expect(await page.locator('[data-module="teamview"]').getByRole('link', { name: 'Team' }).getAttribute('href')).toBe('/team');
    const problems = await checkEverywhere(page, 'home-admin');

    await openFromMenu(page, 'Market data');
    await page.getByRole('heading', { name: 'Data explorer' }).waitFor();
    problems.push(...(await checkEverywhere(page, 'explorer')));

    await openFromMenu(page, 'Team');
    await page.getByTestId('headcount').waitFor();
    problems.push(...(await checkEverywhere(page, 'team')));

    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Employees' }).click();
    await page.locator('.team-count').waitFor();
    problems.push(...(await checkEverywhere(page, 'team-employees')));

    await openFromMenu(page, 'Settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    problems.push(...(await checkEverywhere(page, 'settings')));
    expect(problems).toEqual([]);
    await context.close();
  }, 480_000);

  it('shows a manager the people they lead, and an employee their own pay and what is waiting', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), MANAGER, password());
    await page.getByRole('heading', { name: 'The people you lead' }).waitFor();
    await expect.poll(() => page.getByTestId('dashboard-headcount').textContent()).toMatch(/^\d+$/);
    expect(await page.getByRole('list', { name: 'Figures of the people you lead' }).getByRole('link', { name: 'People you lead' }).getAttribute('href')).toBe('/team/employees');
    const problems = await checkEverywhere(page, 'home-manager');
    await context.close();

    const employee = await browser.newContext({ viewport: { width: 375, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const phone = await employee.newPage();
    phone.setDefaultTimeout(60_000);
    await signInThroughProvider(phone, base(), EMPLOYEE, password());
    await phone.getByRole('heading', { name: 'Your pay', exact: true }).waitFor();
    const glance = phone.getByRole('list', { name: 'Your pay at a glance' });
    expect(await glance.getByText('Base salary').count()).toBe(1);
    // The cash mix is drawn in the compensation colour groups; the lines of pay under it are its legend and its words.
    const mix = phone.getByRole('figure', { name: /^Your cash pay mix/ });
    const parts = await mix.locator('.stacked-bar span').evaluateAll((elements) => elements.map((element) => (element as HTMLElement).style.background));
    expect(parts[0]).toBe('var(--comp-base)');
    expect(parts.length).toBeGreaterThan(1);
    expect(await mix.getAttribute('aria-describedby')).toBe(await phone.getByTestId('own-pay').getAttribute('id'));
    await phone.getByRole('heading', { name: 'Letters and offers' }).waitFor();
    problems.push(...(await checkEverywhere(phone, 'home-employee')));
    expect(problems).toEqual([]);
    await employee.close();
  }, 240_000);

  it('fits the navigation in 375 px with Sign out one tap away, and keeps the team’s filters in a sheet with chips', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), ADMIN, password());
    const main = page.getByRole('navigation', { name: 'Main' });
    const box = await main.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(375);
    const menu = main.getByRole('button', { name: 'Menu' });
    await menu.click();
    const sheet = page.getByRole('dialog', { name: 'Menu' });
    expect(await sheet.getByRole('link', { name: 'Sign out' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `design-menu-sheet-${inject('engine')}-375`);
    await page.keyboard.press('Escape');
    await expect.poll(() => sheet.count()).toBe(0);

    await openFromMenu(page, 'Team');
    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Employees' }).click();
    await page.locator('.team-card').first().waitFor();
    // On a phone the filters wait behind one button; the search stays in view.
    expect(await page.getByLabel('Department').count()).toBe(0);
    await page.getByRole('button', { name: 'Filters' }).click();
    const filters = page.getByRole('dialog', { name: 'Filters' });
    const department = filters.getByRole('combobox', { name: /^Department/ });
    const chosen = (await department.locator('option').nth(1).textContent())?.replace(/ \(\d+\)$/, '') ?? '';
    await department.selectOption({ index: 1 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `design-filters-sheet-${inject('engine')}-375`);
    await filters.getByRole('button', { name: 'Show people' }).click();
    const chips = page.getByRole('list', { name: 'Active filters' });
    await expect.poll(() => chips.textContent()).toBe(`Department: ${chosen}`);
    expect(new URL(page.url()).searchParams.get('department')).not.toBeNull();
    await screenshot(page, `design-filter-chips-${inject('engine')}-375`);
    await chips.getByRole('button', { name: `Remove Department: ${chosen}` }).click();
    await expect.poll(() => chips.count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('department')).toBeNull();
    await context.close();
  }, 180_000);

  it('documents every component on the living UI kit page, for internal admins', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), SUPPORT, password());
    await openFromMenu(page, 'Internal');
    await page.getByRole('heading', { name: 'Internal tools' }).waitFor();
    await page.getByRole('link', { name: 'UI kit' }).click();
    await page.getByRole('heading', { name: 'UI kit', level: 1 }).waitFor();
    for (const component of ['Brand', 'Colour', 'Compensation colour groups', 'Icons', 'Buttons', 'Page header and toolbar', 'Filter bar', 'Stat cards', 'Empty state', 'Skeletons', 'Badges', 'Tabs', 'Drawer, sheet and modal', 'Menu and tooltip', 'Table', 'Charts', 'Light charts']) {
      await page.getByRole('heading', { name: component, exact: true }).waitFor();
    }
    // Keyboard: the menu opens on its first item and arrows move; Escape gives focus back.
    const actions = page.getByRole('button', { name: 'Actions' });
    await actions.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Duplicate');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
    await page.keyboard.press('Escape');
    await expect.poll(() => actions.evaluate((element) => element === document.activeElement)).toBe(true);
    // A drawer keeps focus inside and gives it back.
    const opener = page.getByRole('button', { name: 'Open a drawer' });
    await opener.click();
    const drawer = page.getByRole('dialog', { name: 'A drawer' });
    await drawer.waitFor();
    for (let step = 0; step < 4; step += 1) await page.keyboard.press('Tab');
    expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => opener.evaluate((element) => element === document.activeElement)).toBe(true);
    // Tabs within a screen: arrows select.
    await page.getByRole('tab', { name: 'Cash' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Equity' }).getAttribute('aria-selected')).toBe('true');
    expect(await checkEverywhere(page, 'ui-kit')).toEqual([]);
    await context.close();

    // Not for everyone: a company admin is told so.
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const denied = await other.newPage();
    await signInThroughProvider(denied, base(), ADMIN, password());
    await denied.goto(`${base()}/internal/ui`);
    await denied.getByRole('heading', { name: 'Permission denied' }).waitFor();
    await other.close();
  }, 240_000);
});
