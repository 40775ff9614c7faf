import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../api/src/contract-types.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { expectNoSidewaysScroll, launchChromium, seriousViolations } from './browser.js';
import { signedIn, switchOn } from './companySetup.js';

type Schemas = components['schemas'];

/*
 * A block pasted from a spreadsheet into a draft's band list (one row per band, its minimum,
 * midpoint and maximum). Three software engineering jobs, P2, P3 and P4, in one pay zone, start at
 *   P2  $60,000 /  $70,000 /  $80,000
 *   P3  $80,000 / $100,000 / $120,000
 *   P4 $100,000 / $125,000 / $150,000.
 * The block pasted at P2's minimum raises each figure by $1,000, with P3's midpoint typed "1OO000"
 * (letters O): it is refused in place and the other eight figures are saved, each band once. Undo
 * puts the three bands back; Redo saves the eight again. Someone then moves P4's midpoint to
 * $130,000 through the API while the page holds the version before: the next paste (each figure
 * $2,000 over the start) saves P2 and P3 and refuses P4 as a conflict, whose figures stay theirs.
 */

const PASSWORD = 'band list pasted 2026';
// Catalogue jobs taken for the density check: the market release prices 226 or so of the first 306.
const JOBS = 306;
const LEVELS = ['p2', 'p3', 'p4'] as const;
const START: Record<(typeof LEVELS)[number], [number, number, number]> = { p2: [60_000, 70_000, 80_000], p3: [80_000, 100_000, 120_000], p4: [100_000, 125_000, 150_000] };
const cents = (dollars: readonly number[]) => dollars.map((value) => value * 100);
const raised = (by: number) => Object.fromEntries(LEVELS.map((level) => [level, cents(START[level].map((value) => value + by))]));

describe('pasting a block into a draft’s band list, in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let bandSetId = '';
  const bandOf: Record<string, string> = {};

  const call = <T>(url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<{ data: T }>(url, { method: init.method ?? 'GET', headers: { ...bearer(admin), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });
  const bands = async () => (await call<Schemas['BandSetDetail']>(`/api/bands/band-sets/${bandSetId}`)).body.data.bands;
  /** Each level's three figures as stored, in cents. */
  const stored = async () => Object.fromEntries((await bands()).map((band) => [band.levelId, [band.min.amount, band.mid.amount, band.max.amount]]));
  const money = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Band List Paste Co');
    admin = company.users.admin as TestUser;
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(PASSWORD), first_name: 'Lena', last_name: 'List' });
    await switchOn(db, company.id, ['bands']);
    for (const levelId of LEVELS) expect((await call('/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId } })).status).toBe(201);
    const set = await call<{ id: string }>('/api/bands/band-sets', { method: 'POST', json: { name: 'Engineering bands', currency: 'USD' } });
    bandSetId = set.body.data.id;
    const built = await call<{ bandSet: Schemas['BandSetDetail'] }>(`/api/bands/band-sets/${bandSetId}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status).toBe(200);
    const made = built.body.data.bandSet.bands;
    // One pay zone: one band per job.
    expect(made.map((band) => band.levelId).sort()).toEqual([...LEVELS]);
    for (const band of made) {
      const [min, mid, max] = START[band.levelId as (typeof LEVELS)[number]];
      const patched = await call(`/api/bands/band-sets/${bandSetId}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: money(min), mid: money(mid), max: money(max) } });
      expect(patched.status).toBe(200);
      bandOf[band.levelId] = band.id;
    }
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const cell = (page: Page, level: string, figure: 'min' | 'mid' | 'max') => page.locator(`[role="row"][data-band-id="${bandOf[level]}"] [data-col="${figure}"]`);

  it('pastes a block with a bad figure refused in place, undoes and redoes it, and refuses a band changed by someone else', { timeout: 300_000 }, async () => {
    const { context, page } = await signedIn(browser, admin, PASSWORD);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${inject('baseUrl')}/bands/sets/${bandSetId}`);
    await page.getByRole('tab', { name: 'Band list' }).click();
    const grid = page.getByRole('grid', { name: 'Bands of Engineering bands' });
    await grid.waitFor();
    const notice = page.getByTestId('band-sheet-notice');
    const paste = async (text: string) => {
      await page.evaluate((value) => navigator.clipboard.writeText(value), text);
      // A click on the cell already active would open it for typing: the pay zone beside it first.
      await page.locator(`[role="row"][data-band-id="${bandOf.p2}"] [data-col="zone"]`).click();
      await cell(page, 'p2', 'min').click();
      await page.keyboard.press('Control+V');
    };
    const block = (by: number, bad = false) => LEVELS.map((level) => START[level].map((value, index) => (bad && level === 'p3' && index === 1 ? '1OO000' : String(value + by))).join('\t')).join('\r\n') + '\r\n';

    // ── the paste: eight figures saved, P3's midpoint refused in place ──────────────────────
    await paste(block(1_000, true));
    await notice.getByText('Paste: 8 figures changed. 1 not taken (shown in red): Type the midpoint as an amount in USD, e.g. 95000.').waitFor();
    const bad = cell(page, 'p3', 'mid');
    expect(await bad.getAttribute('aria-invalid')).toBe('true');
    expect(await bad.textContent()).toBe('1OO000');
    expect(await bad.getAttribute('title')).toBe('Type the midpoint as an amount in USD, e.g. 95000.');
    await expect.poll(stored, { timeout: 60_000 }).toEqual({ ...raised(1_000), p3: cents([81_000, 100_000, 121_000]) });
    expect(await seriousViolations(page)).toEqual([]);

    // ── undo: the three bands as they were, the refused figure gone; redo: the eight again ──
    await page.keyboard.press('Control+Z');
    await notice.getByText('Undone: Paste of 8 figures.').waitFor();
    await expect.poll(stored, { timeout: 60_000 }).toEqual(raised(0));
    await expect.poll(() => bad.getAttribute('aria-invalid')).toBe(null);
    // The set is read again once the redo's saves are done: the change below comes after that read.
    const reread = page.waitForResponse((response) => response.url().endsWith(`/api/bands/band-sets/${bandSetId}`) && response.request().method() === 'GET');
    await page.getByRole('button', { name: 'Redo', exact: true }).click();
    await notice.getByText('Redone: Paste of 8 figures.').waitFor();
    await expect.poll(stored, { timeout: 60_000 }).toEqual({ ...raised(1_000), p3: cents([81_000, 100_000, 121_000]) });
    await reread;
    await expect.poll(() => bad.getAttribute('aria-invalid')).toBe('true');

    // ── someone moves P4's midpoint meanwhile; the next paste refuses P4 and saves the rest ──
    await expect.poll(async () => (await cell(page, 'p4', 'mid').textContent())?.replace(/\D/g, '')).toBe('126000');
    const p4 = (await bands()).find((band) => band.levelId === 'p4') as Schemas['Band'];
    const changed = await call(`/api/bands/band-sets/${bandSetId}/bands/${p4.id}`, { method: 'PATCH', ifMatch: p4.version, json: { min: money(101_000), mid: money(130_000), max: money(151_000) } });
    expect(changed.status).toBe(200);
    await paste(block(2_000));
    await notice.getByText('Paste: 9 figures changed.').waitFor();
    await expect.poll(() => cell(page, 'p4', 'min').getAttribute('aria-invalid'), { timeout: 60_000 }).toBe('true');
    expect(await cell(page, 'p4', 'min').getAttribute('title')).toMatch(/changed/i);
    await expect.poll(stored, { timeout: 60_000 }).toEqual({ ...raised(2_000), p4: cents([101_000, 130_000, 151_000]) });
    expect(await seriousViolations(page)).toEqual([]);

    // Phones: the list is cards to read, nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('region', { name: 'Bands of Engineering bands cards' }).waitFor();
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  /*
   * Density: a set of about 226 bands (the catalogue jobs the market release prices among the first
   * 306, family by family and level by level, in the one pay zone) read in the band list at
   * 1280 × 900 in compact rows, the desktop default. Each row is at most 36 px high, and at least 15
   * rows are wholly on screen as the page opens (building and smoothing folded away, the undo bar
   * beside the grid's tools): 900 px less the grid's top and its header leaves 15 or more rows of
   * 32 px. The rows on screen (as the page opens, and with the page scrolled to the grid) and their
   * height are written to the log.
   */
  it('shows a set of 226 bands in compact rows of at most 36 px, at least 15 of them as the page opens', { timeout: 300_000 }, async () => {
    const { JOB_FAMILIES, LEVELS: CATALOG_LEVELS } = await import('../../api/src/reference/catalog/index.js');
    const existing = new Set<string>(LEVELS.map((level) => `software_engineering|${level}`));
    const wanted = JOB_FAMILIES.flatMap((family) => CATALOG_LEVELS.map((level) => ({ jobFamilyId: family.id, levelId: level.id }))).slice(0, JOBS);
    for (const job of wanted) if (!existing.has(`${job.jobFamilyId}|${job.levelId}`)) expect((await call('/api/bands/jobs', { method: 'POST', json: job })).status).toBe(201);
    const set = await call<{ id: string }>('/api/bands/band-sets', { method: 'POST', json: { name: 'Every band', currency: 'USD' } });
    const built = await call<{ bandSet: Schemas['BandSetDetail'] }>(`/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status).toBe(200);
    const count = built.body.data.bandSet.bands.length;
    expect(count).toBeGreaterThanOrEqual(200);

    const { context, page } = await signedIn(browser, admin, PASSWORD);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${inject('baseUrl')}/bands/sets/${set.body.data.id}`);
    await page.getByRole('tab', { name: 'Band list' }).click();
    await page.getByRole('grid', { name: 'Bands of Every band' }).waitFor();
    expect(await page.locator('.dgrid-host').getAttribute('data-density')).toBe('compact');
    /** The band rows wholly on screen and inside the grid's scrolling region, and their heights. */
    const measure = () =>
      page.evaluate(() => {
        const rows = [...document.querySelectorAll<HTMLElement>('[role="row"][data-band-id]')].map((row) => row.getBoundingClientRect());
        const region = document.querySelector<HTMLElement>('.dgrid-scroll')?.getBoundingClientRect();
        const bottom = Math.min(window.innerHeight, region?.bottom ?? window.innerHeight);
        const top = Math.max(0, region?.top ?? 0);
        return { heights: [...new Set(rows.map((rect) => Math.round(rect.height)))], onScreen: rows.filter((rect) => rect.top >= top && rect.bottom <= bottom).length, gridTop: Math.round(region?.top ?? 0) };
      });
    const measured = await measure();
    // The page scrolled down to the grid: what a screen shows once the person is working in the list.
    await page.locator('.dgrid-scroll').evaluate((region) => region.scrollIntoView({ block: 'start' }));
    const scrolled = await measure();
    process.stdout.write(`band list density at 1280 × 900, compact: ${count} bands, row height ${measured.heights.join('/')} px; ${measured.onScreen} rows on screen as the page opens (the grid from y = ${measured.gridTop}), ${scrolled.onScreen} with the page scrolled to the grid\n`);
    for (const height of measured.heights) expect(height).toBeLessThanOrEqual(36);
    expect(measured.onScreen).toBeGreaterThanOrEqual(15);
    expect(scrolled.onScreen).toBeGreaterThan(measured.onScreen);
    await context.close();
  });
});
