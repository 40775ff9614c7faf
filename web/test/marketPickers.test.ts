import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { apiTokenOf, demoPassword, launchChromium, seriousViolations, signInThroughProvider } from './browser.js';

type BenchmarkRequest = components['schemas']['BenchmarkRequest'];
type LocationComposition = components['schemas']['LocationComposition'];

const ANALYST = 'analyst@acme.test';

/** Software engineers at P3, base salary, the whole US market: a selection in the explorer's link. */
const ENGINEERS_US = '/benchmarkingsurvey/data-explorer?f=software_engineering&l=p3&m=840&c=base';

describe('the market pickers in a real browser', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** Runs the benchmark and answers the request the page sent. */
  async function run(page: Page): Promise<BenchmarkRequest> {
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/benchmarking/market-data') && request.method() === 'POST');
    await page.getByRole('button', { name: 'Run benchmark' }).click();
    return (await sent).postDataJSON() as BenchmarkRequest;
  }

  it('offers only places the served release has records in, and asks for contractors when told, keeping it in the link', async () => {
    // What the pickers are built from, asked of the API: the places with records.
    const token = await apiTokenOf(ANALYST);
    const reply = await fetch(`${base()}/api/benchmarking/data-composition/locations`, { headers: { Authorization: `Bearer ${token}` } });
    const held = new Set(((await reply.json()) as { data: LocationComposition }).data.locations.map((location) => location.id));
    // The demo market: Boston and Europe hold records; Spain, Africa and Asia none.
    expect(['us_boston', '150', '019'].every((id) => held.has(id))).toBe(true);
    expect(['724', '002', '142'].some((id) => held.has(id))).toBe(false);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signInThroughProvider(page, base(), ANALYST, demoPassword(inject('serverEnv')));
    await page.goto(`${base()}${ENGINEERS_US}`);
    await page.getByRole('heading', { name: 'Data explorer' }).waitFor();
    const market = page.getByRole('region', { name: 'Market', exact: true });
    await market.getByLabel('United States', { exact: true }).waitFor();

    // A metro with records is offered; the regions holding records are, the empty ones and a country without records are not.
    await market.locator('summary', { hasText: /^Metro areas/ }).click();
    await market.getByLabel('Boston', { exact: true }).waitFor();
    await market.locator('summary', { hasText: /^Regions and other countries/ }).click();
    await market.getByLabel('Europe', { exact: true }).waitFor();
    expect(await market.getByLabel('Americas', { exact: true }).count()).toBe(1);
    for (const absent of ['Africa', 'Asia', 'Oceania', 'Spain', 'India']) expect(await market.getByLabel(absent, { exact: true }).count(), absent).toBe(0);
    await market.getByText('No other country holds data yet.').waitFor();
    // Every location checkbox of the market is one the release holds.
    const offered = await market.locator('fieldset[class="check-group"]', { has: page.locator('legend', { hasText: /^(Locations: |Metro areas|Regions|Countries)/ }) }).locator('input').count();
    expect(offered).toBe(held.size);

    // Employees only, as before: nothing about employment is sent.
    const contractors = market.getByLabel('Include contractors');
    expect(await contractors.isChecked()).toBe(false);
    const plain = await run(page);
    expect(plain.marketFilters?.[0]).not.toHaveProperty('employmentTypes');
    await page.getByText(/results from market release/).waitFor();
    // The positive control of the name below: the employees' market is named by its location alone.
    await page.locator('table.results-table').getByText('United States', { exact: true }).first().waitFor();
    expect(await page.getByText('United States · Employees and contractors').count()).toBe(0);

    // Contractors included: in the link's short form, through a reload, in the request and in the market's name.
    await page.goto(`${base()}${ENGINEERS_US}`);
    await market.getByLabel('Include contractors').check();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('m')).toEqual(['840;e:employee,contractor']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.reload();
    await market.getByLabel('Include contractors').waitFor();
    expect(await market.getByLabel('Include contractors').isChecked()).toBe(true);
    const withContractors = await run(page);
    expect(withContractors.marketFilters?.[0]?.employmentTypes).toEqual(['employee', 'contractor']);
    expect(withContractors.marketFilters?.[0]?.locations).toEqual(['840']);
    await page.getByText('United States · Employees and contractors').first().waitFor();

    // Unticked, the link and the request are the employees' again.
    await page.goto(`${base()}/benchmarkingsurvey/data-explorer?f=software_engineering&l=p3&m=840;e:employee,contractor&c=base`);
    await market.getByLabel('Include contractors').uncheck();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('m')).toEqual(['840']);
    await context.close();
  }, 180_000);
});
