import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../api/src/contract-types.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { launchChromium } from './browser.js';
import { engineeringBandSet, signedIn, switchOn } from './companySetup.js';

type Schemas = components['schemas'];

/*
 * A row of band figures pasted from a spreadsheet into a draft band set: the one band (software
 * engineering P3) starts at $80,000 / $100,000 / $120,000. Pasted "81000 ⇥ 1OO000 ⇥ 121,000" (the
 * midpoint typed with letters O): the midpoint is refused in place, the minimum and maximum are
 * saved ($81,000 / $100,000 / $121,000 → 8,100,000 / 10,000,000 / 12,100,000 cents). Undo puts the
 * band back. Someone then changes the band through the API (mid $105,000) while the page holds the
 * version before: the next paste is refused as a conflict and their band stays.
 */

const PASSWORD = 'band figures pasted 2026';

describe('spreadsheet editing of band figures, in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let bandSetId = '';

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Band Paste Co');
    admin = company.users.admin as TestUser;
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(PASSWORD), first_name: 'Olga', last_name: 'Owner' });
    await switchOn(db, company.id, ['bands']);
    bandSetId = await engineeringBandSet(admin, { min: 80_000, mid: 100_000, max: 120_000 });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('pastes a band’s three figures with a bad one refused in place, undoes it, and refuses a paste over someone else’s change', { timeout: 300_000 }, async () => {
    const band = async () => ((await request<{ data: Schemas['BandSetDetail'] }>(`/api/bands/band-sets/${bandSetId}`, { headers: bearer(admin) })).body.data.bands[0] as Schemas['Band']);
    const figures = async () => {
      const read = await band();
      return [read.min.amount, read.mid.amount, read.max.amount];
    };
    const { context, page } = await signedIn(browser, admin, PASSWORD);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`${inject('baseUrl')}/bands/sets/${bandSetId}`);
    const grid = page.getByRole('grid', { name: 'Bands of Engineering bands' });
    await grid.waitFor();
    const min = grid.locator('td[data-figure="min"]').first();
    const mid = grid.locator('td[data-figure="mid"]').first();
    const notice = page.getByTestId('band-sheet-notice');
    const paste = async (text: string) => {
      await page.evaluate((value) => navigator.clipboard.writeText(value), text);
      await min.click();
      await page.keyboard.press('Control+V');
    };

    await paste('81000\t1OO000\t121,000\n');
    await notice.getByText('Paste: 2 figures changed. 1 not taken (shown in red): Type the midpoint as an amount in USD, e.g. 95000.').waitFor();
    expect(await mid.getAttribute('aria-invalid')).toBe('true');
    expect(await mid.textContent()).toBe('1OO000');
    await expect.poll(figures).toEqual([8_100_000, 10_000_000, 12_100_000]);

    // Copy out the three figures as a spreadsheet row (the refused midpoint as typed).
    await min.click();
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Control+C');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('81000\t1OO000\t121000');

    await page.keyboard.press('Control+Z');
    await notice.getByText('Undone: Paste of 2 figures.').waitFor();
    await expect.poll(figures).toEqual([8_000_000, 10_000_000, 12_000_000]);
    await expect.poll(() => mid.getAttribute('aria-invalid')).toBe(null);

    // Someone else moves the midpoint to $105,000 through the API; the page still holds the version before.
    await expect.poll(async () => (await min.textContent())?.replace(/\D/g, '')).toBe('80000');
    const read = await band();
    const money = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });
    const changed = await request(`/api/bands/band-sets/${bandSetId}/bands/${read.id}`, { method: 'PATCH', headers: { ...bearer(admin), 'If-Match': `"${read.version}"` }, json: { min: money(80_000), mid: money(105_000), max: money(120_000) } });
    expect(changed.status).toBe(200);
    await paste('82000\t101000\t122000');
    await expect.poll(() => min.getAttribute('aria-invalid')).toBe('true');
    expect(await min.getAttribute('title')).toMatch(/changed/i);
    // Theirs stays: 8,000,000 / 10,500,000 / 12,000,000 cents.
    expect(await figures()).toEqual([8_000_000, 10_500_000, 12_000_000]);
    await context.close();
  });
});
