import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { request } from '../../api/test/http.js';
import { until } from '../../api/test/waiting.js';
import { apiTokenOf, demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type InsightList = components['schemas']['DataLabInsightList'];

const ADMIN = 'admin@acme.test';

/*
 * The demo admin opens the data lab, reads the insights the server computed for Acme Robotics (the
 * same ones the API lists for them), bookmarks one and dismisses another, and sees both results;
 * on a phone (375 px) the screen does not scroll sideways, and axe finds nothing serious.
 */
describe('the data lab in a real browser', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('the demo admin bookmarks an insight and dismisses another, and sees both', async () => {
    const token = await apiTokenOf(ADMIN);
    const read = async (include: 'open' | 'all' = 'open') => (await request<{ data: InsightList }>(`/api/data-lab/insights?include=${include}`, { headers: { Authorization: `Bearer ${token}` } })).body.data;
    // The demo's first computation was queued when it was seeded; it runs in the background.
    await until(async () => (await read()).computedAt !== null, 120_000, 500);
    // A clean start for the demo admin: nothing dismissed or snoozed, no bookmarks of their own.
    const auth = { Authorization: `Bearer ${token}` };
    for (const insight of (await read('all')).insights.filter((item) => item.state !== 'open')) {
      await request(`/api/data-lab/insights/${insight.key}/state`, { method: 'PUT', headers: auth, json: { state: 'open' } });
    }
    const own = (await request<{ data: components['schemas']['DataLabBookmark'][] }>('/api/data-lab/bookmarks', { headers: auth })).body.data.filter((item) => item.ownedByMe);
    for (const item of own) await request(`/api/data-lab/bookmarks/${item.id}`, { method: 'DELETE', headers: auth });
    const open = (await read()).insights;
    expect(open.length).toBeGreaterThanOrEqual(2);
    const [kept, dismissed] = open as [InsightList['insights'][number], InsightList['insights'][number]];

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), ADMIN, demoPassword(inject('serverEnv')));
    // The side menu leads there for someone with the dataLab permission.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data lab' }).click();
    await page.getByRole('heading', { level: 1, name: 'Paybench data lab' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/paybench-data-lab');
    const list = page.getByRole('list', { name: 'Insights' });
    await list.waitFor();
    // What the screen lists is what the API answers, in the same order, with each number and severity.
    const titles = await list.locator(':scope > li h3').allTextContents();
    expect(titles).toEqual(open.map((insight) => insight.title));
    const first = list.locator(':scope > li').first();
    expect(await first.locator('.insight-number .value').textContent()).toBe(kept.valueLabel);
    await expect.poll(() => first.getByText({ high: 'High', medium: 'Medium', low: 'Low' }[kept.severity], { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await first.getByRole('link', { name: kept.linkLabel }).getAttribute('href')).toBe(kept.link);
    await first.getByText('How this was computed').click();
    await expect.poll(() => first.getByText(kept.method).isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.getByRole('link', { name: 'Ask the insights agent' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.getByRole('link', { name: 'Pulse surveys' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // Bookmark the first: it is listed under Bookmarks, opening the insight in the data lab.
    await page.getByRole('button', { name: `Bookmark “${kept.title}”` }).click();
    const bookmarks = page.getByRole('list', { name: 'Bookmarks' });
    const saved = bookmarks.getByRole('link', { name: kept.title });
    await saved.waitFor();
    expect(await saved.getAttribute('href')).toBe(`/paybench-data-lab?insight=${kept.key}`);

    // Dismiss the second: it leaves the list, and the API says so too.
    await page.getByRole('button', { name: `Dismiss “${dismissed.title}”` }).click();
    await expect.poll(() => list.getByRole('heading', { name: dismissed.title, exact: true }).count(), { timeout: 30_000 }).toBe(0);
    expect((await read()).insights.map((insight) => insight.key)).not.toContain(dismissed.key);
    const showHidden = page.getByLabel(/^Show dismissed and snoozed \(\d+\)$/);
    await showHidden.check();
    const back = list.locator(':scope > li', { has: page.getByRole('heading', { name: dismissed.title, exact: true }) });
    await expect.poll(() => back.getByText('Dismissed', { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);

    // On a phone: one column, no sideways scroll, still accessible.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 30_000 }).toBeLessThanOrEqual(375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, 'data-lab');

    // Leave the demo as it was for whoever opens it next.
    await back.getByRole('button', { name: `Reopen “${dismissed.title}”` }).click();
    await until(async () => (await read()).insights.some((insight) => insight.key === dismissed.key), 30_000, 250);
    await bookmarks.getByRole('button', { name: `Delete “${kept.title}”` }).click();
    await expect.poll(() => bookmarks.getByRole('link', { name: kept.title }).count(), { timeout: 30_000 }).toBe(0);
    await context.close();

    // An employee, without the dataLab permission, has Home in the menu and no Data lab.
    const employeeContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', locale: 'en-US' });
    const employee = await employeeContext.newPage();
    employee.setDefaultTimeout(60_000);
    await signInThroughProvider(employee, base(), 'employee@acme.test', demoPassword(inject('serverEnv')));
    const menu = employee.getByRole('navigation', { name: 'Main' });
    await menu.getByRole('link', { name: 'Home' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Data lab' }).count()).toBe(0);
    await employeeContext.close();
  }, 240_000);
});
