import type { Knex } from 'knex';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { apiTokenOf, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider, expectNoSidewaysScroll } from './browser.js';

type BenchmarkRequest = components['schemas']['BenchmarkRequest'];
type BackgroundJob = components['schemas']['BackgroundJob'];

/** Where a header cell sits against the table's scroller, in CSS pixels. */
async function placeOf(page: Page, header: string) {
  return page.evaluate((text) => {
    const scroller = document.querySelector('.results-scroll');
    const cell = [...(scroller?.querySelectorAll('thead th') ?? [])].find((th) => th.textContent?.trim() === text);
    if (!scroller || !cell) return null;
    const box = scroller.getBoundingClientRect();
    const own = cell.getBoundingClientRect();
    return { left: own.left - box.left, right: own.right - box.left, visibleWidth: scroller.clientWidth, scrollLeft: scroller.scrollLeft };
  }, header);
}

/**
 * WCAG contrast of an element's text against the first opaque background behind it (1 to 21).
 * Computed in the page from what the browser paints, so white on white is 1.
 */
async function contrastOf(element: Locator): Promise<{ ratio: number; color: string; background: string }> {
  return element.evaluate((node) => {
    const parse = (value: string) => {
      const parts = (/rgba?\(([^)]+)\)/.exec(value)?.[1] ?? '0 0 0 0').split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r: parts[0] ?? 0, g: parts[1] ?? 0, b: parts[2] ?? 0, a: parts[3] ?? 1 };
    };
    const channel = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (c: { r: number; g: number; b: number }) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
    let background = 'rgb(255, 255, 255)';
    for (let at: Element | null = node; at; at = at.parentElement) {
      const value = getComputedStyle(at).backgroundColor;
      if (parse(value).a > 0) {
        background = value;
        break;
      }
    }
    const color = getComputedStyle(node).color;
    const [light, dark] = [luminance(parse(color)), luminance(parse(background))].sort((a, b) => b - a);
    return { ratio: ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05), color, background };
  });
}

describe('the data explorer in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  let token: string;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  async function api<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<{ status: number; body: { data: T } }> {
    const reply = await fetch(`${base()}${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${token}`, ...(init.json ? { 'Content-Type': 'application/json' } : {}) },
      body: init.json ? JSON.stringify(init.json) : undefined,
    });
    return { status: reply.status, body: (await reply.json()) as { data: T } };
  }

  beforeAll(async () => {
    db = await testDb();
    person = await createAdmin(db);
    token = await apiTokenOf(person.email);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('pre-selects the preferred location, keeps the selection in the link for a new tab, back, forward and reload, and fits the table at 1280 px', async () => {
    // The company prefers Canada: the explorer's first market starts there.
    const settings = await api('/api/benchmarking/settings', {
      method: 'PUT',
      json: { overrideBaseCompensationRequirement: false, overrideEquityRequirement: false, useSyntheticLocationInsightsData: false, location: 'Canada' },
    });
    expect(settings.status).toBe(200);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Market data' }).click();
    await page.getByRole('heading', { name: 'Data explorer' }).waitFor();
    const first = page.getByRole('region', { name: 'Market', exact: true });
    await expect.poll(() => first.getByLabel('Canada', { exact: true }).isChecked()).toBe(true);
    expect(await first.getByLabel('United States', { exact: true }).isChecked()).toBe(false);
    // The defaults are written into the link at once: no family yet, base salary, Canada.
    expect(new URL(page.url()).search).toBe('?f=&l=&m=124&c=base');
    // Base salary is cash: its default percentile code is P25 (spec), and only that.
    expect(await page.getByLabel('P25', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('P50', { exact: true }).isChecked()).toBe(false);

    await page.getByRole('link', { name: 'Search job families' }).click();
    const found = page.getByRole('list', { name: 'Job families found' });
    await page.getByLabel('Search by family or job title').fill('software engineering');
    await expect.poll(() => found.getAttribute('data-search'), { timeout: 30_000 }).toBe('software engineering');
    await page.getByRole('button', { name: 'Software Engineering', exact: true }).click();
    await page.getByRole('link', { name: /^Done \(1 chosen\)/ }).click();
    await page.getByLabel('P3', { exact: true }).check();
    await page.getByLabel('P4', { exact: true }).check();
    await page.getByRole('button', { name: 'Add a market' }).click();
    const second = page.getByRole('region', { name: 'Market 2' });
    await second.getByLabel('Canada', { exact: true }).uncheck();
    await second.getByLabel('Germany').check();
    // Adding an equity type adds its default percentile code, P50, beside cash's P25.
    await page.getByLabel('Total equity').check();
    await expect.poll(() => page.getByLabel('P50', { exact: true }).isChecked()).toBe(true);
    await page.getByLabel('P75', { exact: true }).check();

    const sent = page.waitForRequest((request) => request.url().endsWith('/api/benchmarking/market-data') && request.method() === 'POST');
    await page.getByRole('button', { name: 'Run benchmark' }).click();
    const body = (await sent).postDataJSON() as BenchmarkRequest;
    expect(body).toMatchObject({ jobFamilies: ['software_engineering'], compensationTypes: ['base', 'total_equity'], percentiles: [25, 50, 75], currency: 'local' });
    expect(body.marketFilters?.map((market) => market.locations)).toEqual([['124'], ['276']]);
    const resultsUrl = page.url();
    expect(new URL(resultsUrl).pathname).toBe('/benchmarkingsurvey/data-explorer/results');
    expect(new URL(resultsUrl).search).toBe('?f=software_engineering&l=p3,p4&m=124&m=276&c=base,total_equity&p=25,50,75');

    // Each market's location is named on its rows.
    const row = (market: number) => page.locator(`tr[data-row^="software_engineering|p3|base|${market}|"]`);
    await row(0).locator('td.col-market').waitFor();
    expect(await row(0).locator('td.col-market').textContent()).toBe('Market 1: Canada');
    expect(await row(1).locator('td.col-market').textContent()).toBe('Market 2: Germany');
    const rowsShown = await page.locator('table.results-table tbody tr[data-row]').count();
    expect(rowsShown).toBe(8); // 2 levels × 2 compensation types × 2 markets

    // At 1280 px, Sample and Consistency are in view without scrolling the table.
    for (const header of ['Job family', 'Level', 'Market', 'Compensation', 'P25', 'P50', 'P75', 'Sample', 'Consistency']) {
      const place = await placeOf(page, header);
      expect(place, header).not.toBeNull();
      expect(place?.scrollLeft).toBe(0);
      expect(place?.left, header).toBeGreaterThanOrEqual(0);
      expect(place?.right, `${header} ends inside the visible table`).toBeLessThanOrEqual((place?.visibleWidth ?? 0) + 1);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `explorer-results-${engine}`);

    // A new tab (nothing of this one's storage) opened on the link shows the same selection and asks the same question.
    const tab = await context.newPage();
    const again = tab.waitForRequest((request) => request.url().endsWith('/api/benchmarking/market-data') && request.method() === 'POST');
    await tab.goto(resultsUrl);
    expect((await again).postDataJSON()).toEqual(body);
    await tab.locator('tr[data-row^="software_engineering|p4|total_equity|1|"]').waitFor();
    expect(await tab.locator('table.results-table tbody tr[data-row]').count()).toBe(8);
    expect(await tab.getByRole('alert').count()).toBe(0);
    await tab.close();

    // Back and forward: changing the filters replaces the link; back returns to the results as they were.
    await page.getByRole('link', { name: 'Change filters' }).click();
    await page.getByRole('button', { name: 'Run benchmark' }).waitFor();
    expect(await page.getByRole('region', { name: 'Market 2' }).getByLabel('Germany').isChecked()).toBe(true);
    await page.getByLabel('P75', { exact: true }).uncheck();
    await expect.poll(() => new URL(page.url()).search).toBe('?f=software_engineering&l=p3,p4&m=124&m=276&c=base,total_equity');
    await page.goBack();
    await page.locator('.results-scroll thead th', { hasText: /^P75$/ }).waitFor();
    expect(page.url()).toBe(resultsUrl);
    await page.goForward();
    await page.getByRole('button', { name: 'Run benchmark' }).waitFor();
    expect(await page.getByLabel('P75', { exact: true }).isChecked()).toBe(false);
    await page.reload();
    await page.getByRole('button', { name: 'Run benchmark' }).waitFor();
    expect(await page.getByLabel('P75', { exact: true }).isChecked()).toBe(false);
    expect(await page.getByLabel('P50', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByRole('region', { name: 'Market 2' }).getByLabel('Germany').isChecked()).toBe(true);
    await context.close();
  }, 180_000);

  it('shows each result as a card on a phone, with its market', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/benchmarkingsurvey/data-explorer/results?f=software_engineering&l=p3&m=840_1&c=base`);
    const card = page.locator('tr[data-row^="software_engineering|p3|base|0|"]');
    await card.locator('td[data-percentile="25"]').waitFor();
    expect(await card.locator('td.col-market').textContent()).toBe('US Tier 1');
    // No sideways scrolling on a phone: the card fits the screen.
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it('the background-jobs panel shows a readable Download button at 1280 and 375 px', async () => {
    const filters = (await api<components['schemas']['BenchmarkingFilters']>('/api/benchmarking/filters')).body.data;
    const market = {
      locations: ['840'],
      industries: filters.industriesAndSubIndustriesWithIds.map((industry) => industry.upstreamId),
      companyStages: filters.companyStagesWithIds.map((stage) => stage.id),
      companyOwnershipGroups: filters.companyOwnershipGroupsWithIds.map((group) => group.id),
    };
    const started = await api<{ id: string }>('/api/benchmarking/market-data/exports', {
      method: 'POST',
      json: { format: 'csv', request: { compensationTypes: ['base'], jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }], marketFilters: [market], percentiles: [25] } },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await expect
      .poll(async () => (await api<BackgroundJob[]>('/api/me/background-jobs', { method: 'POST', json: { withinDays: 7 } })).body.data.find((job) => job.id === started.body.data.id)?.status, { timeout: 60_000 })
      .toBe('succeeded');

    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await signInThroughProvider(page, base(), person.email, person.password);
      await page.getByRole('button', { name: 'Background jobs' }).first().click();
      const panel = page.getByRole('region', { name: 'Background jobs' });
      const download = panel.locator(`li.job[data-job-id="${started.body.data.id}"]`).getByRole('link', { name: 'Download' });
      await download.waitFor();
      // Nothing of the page paints over it: the button itself is what is at its centre.
      const onTop = await download.evaluate((node) => {
        const box = node.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit !== null && (hit === node || node.contains(hit));
      });
      expect(onTop, `${width} px: the Download button is covered`).toBe(true);
      const contrast = await contrastOf(download);
      // WCAG AA for normal text: 4.5:1.
      expect(contrast.ratio, `${width} px: ${contrast.color} on ${contrast.background}`).toBeGreaterThanOrEqual(4.5);
      expect(await seriousViolations(page)).toEqual([]);
      await download.click();
      await page.waitForURL('**/downloads/**');
      expect(await page.getByTestId('download-filename').textContent()).toMatch(/\.csv$/);
      await context.close();
    }
  }, 180_000);
});
