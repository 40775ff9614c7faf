import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { apiTokenOf, demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider, expectNoSidewaysScroll } from './browser.js';

type ExecutiveRequest = components['schemas']['ExecutiveCompRequest'];
type ExecutiveResult = components['schemas']['ExecutiveCompResult'];

const ANALYST = 'analyst@acme.test';

const usd = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);

describe('executive compensation in a real browser', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('an analyst finds a title by what they typed, keeps the defaults, and reads priced rows equal to the API’s', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signInThroughProvider(page, base(), ANALYST, demoPassword(inject('serverEnv')));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Market data' }).click();
    await page.getByRole('link', { name: 'Executive compensation' }).click();
    await page.getByRole('heading', { name: 'Executive compensation', level: 1 }).waitFor();

    // The metadata's defaults: the CEO, hired (not a founder), technology, Series B, the United States.
    const chosen = page.getByRole('list', { name: 'Chosen titles' });
    await chosen.waitFor();
    expect(await chosen.locator('li').allTextContents()).toEqual(['Chief Executive Officer×']);
    expect(await page.getByRole('group', { name: 'Founder type' }).locator('input:checked').count()).toBe(1);
    expect(await page.getByLabel('United States', { exact: true }).isChecked()).toBe(true);
    // Cash types start at P25 and total equity at P50 (the spec's default percentile codes).
    expect(await page.getByLabel('P25', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('P50', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('P75', { exact: true }).isChecked()).toBe(false);

    // A misspelt title still finds the catalog's.
    await page.getByLabel('Search executive titles').fill('Chief Tehcnology Oficer');
    const found = page.getByRole('list', { name: 'Executive titles found' });
    await expect.poll(() => found.getAttribute('data-search')).toBe('Chief Tehcnology Oficer');
    await found.getByRole('button', { name: 'Chief Technology Officer' }).click();
    expect(await chosen.locator('li').allTextContents()).toEqual(['Chief Executive Officer×', 'Chief Technology Officer×']);
    // Nothing like a title: said so.
    await page.getByLabel('Search executive titles').fill('zzzzqqqq');
    await page.getByText('No executive title matches “zzzzqqqq”.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The spec's defaults (Series B technology companies) are too narrow for the demo market: said so, no figure.
    await page.getByRole('button', { name: 'Price these titles' }).click();
    await page.getByTestId('all-withheld').waitFor();
    expect(await page.locator('table.executive-table td[data-percentile]').count()).toBe(0);
    expect(await page.locator('table.executive-table td.insufficient').first().textContent()).toMatch(/^Insufficient data/);

    // Every stage of technology companies.
    await page.getByRole('button', { name: 'Every stage' }).click();
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/benchmarking/executive-comp/market-data'));
    await page.getByRole('button', { name: 'Price these titles' }).click();
    const body = (await sent).postDataJSON() as ExecutiveRequest;
    expect(body).toMatchObject({ founderTypes: ['non_founder'], jobTitles: ['ceo', 'cto'], compensationTypes: ['base', 'annual_bonus', 'total_cash', 'total_equity'], percentiles: [25, 50], currency: 'local' });
    expect(body.marketFilters).toEqual([{ locations: ['840'], industries: ['ind_technology'], companyStages: ['seed', 'series_a', 'series_b', 'series_c', 'series_d_plus', 'private_established', 'public'] }]);

    // The same request asked of the API directly: the screen shows its figures.
    const reply = await fetch(`${base()}/api/benchmarking/executive-comp/market-data`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await apiTokenOf(ANALYST)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(reply.status).toBe(200);
    const api = ((await reply.json()) as { data: ExecutiveResult }).data;
    const ctoBase = api.rows.find((row) => row.titleId === 'cto')?.cells.find((cell) => cell.compensationTypeId === 'base');
    const p25 = ctoBase?.percentiles?.find((entry) => entry.percentile === 25)?.value;
    expect(ctoBase?.status).toBe('published');
    expect(p25).toBeTypeOf('number');
    const row = page.locator('tr[data-row="cto|base"]');
    await row.locator('td[data-percentile="25"]').waitFor();
    expect(await row.locator('td[data-percentile="25"]').getAttribute('data-value')).toBe(String(p25));
    expect(await row.locator('td[data-percentile="25"]').textContent()).toBe(usd(p25 ?? NaN));
    // Every published cell is a priced row; the rest say "Insufficient data".
    const published = api.rows.flatMap((r) => r.cells).filter((cell) => cell.status === 'published').length;
    expect(published).toBeGreaterThan(0);
    expect(await page.locator('tr[data-status="published"] td[data-percentile][data-value]').count()).toBe(published * 2);
    expect(await page.locator('table.executive-table tbody tr').count()).toBe(8); // 2 titles × 4 compensation types
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `executive-comp-${engine}`);

    // Without a founder type the spec's message, before the server is asked.
    const founder = page.getByRole('group', { name: 'Founder type' }).locator('input:checked');
    await founder.uncheck();
    await page.getByRole('button', { name: 'Price these titles' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Please select at least one founder type');
    await context.close();
  }, 180_000);

  it('fits a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signInThroughProvider(page, base(), ANALYST, demoPassword(inject('serverEnv')));
    await page.goto(`${base()}/benchmarkingsurvey/executive-compensation`);
    await page.getByRole('button', { name: 'Every stage' }).click();
    await page.getByLabel('Search executive titles').fill('CTO');
    await page.getByRole('list', { name: 'Executive titles found' }).getByRole('button', { name: 'Chief Technology Officer' }).click();
    await page.getByRole('button', { name: 'Price these titles' }).click();
    await page.locator('tr[data-row="cto|base"] td[data-percentile="25"]').waitFor();
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);
});
