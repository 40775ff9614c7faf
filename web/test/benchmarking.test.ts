import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { apiTokenOf, demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type BenchmarkResult = components['schemas']['BenchmarkResult'];

const ANALYST = 'analyst@acme.test';

/** An API token for the demo analyst, so the test can ask the API the same question the screen asked. */
const analystToken = () => apiTokenOf(ANALYST);

const WITHHELD = 'Fewer than 5 companies or 10 employees, or one company above 25%';

const usd = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);

describe('benchmarking in a real browser', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('the demo analyst picks filters, reads percentiles equal to the API’s, and exports a file that arrives live and downloads', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    // What reaches the page through the realtime socket.
    const socketFrames: string[] = [];
    page.on('websocket', (socket) => {
      if (socket.url().includes('/engine.io/')) socket.on('framereceived', (frame) => socketFrames.push(String(frame.payload)));
    });
    await signInThroughProvider(page, base(), ANALYST, demoPassword(inject('serverEnv')));

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Market data' }).click();
    await page.getByRole('heading', { name: 'Data explorer' }).waitFor();
    // A fresh tab starts from the defaults: the whole US market, base salary at P25 (the default percentile code of cash).
    await page.getByRole('button', { name: 'Start over' }).click();

    // Job families by fuzzy search, chosen from the keyboard on clickable boxes (Enter, then Space).
    await page.getByRole('link', { name: 'Search job families' }).click();
    const found = page.getByRole('list', { name: 'Job families found' });
    await page.getByLabel('Search by family or job title').fill('frontend developer');
    await expect.poll(() => found.getAttribute('data-search'), { timeout: 30_000 }).toBe('frontend developer');
    const software = page.getByRole('button', { name: 'Software Engineering', exact: true });
    await software.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => software.getAttribute('aria-pressed')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Search by family or job title').fill('technical writer');
    await expect.poll(() => found.getAttribute('data-search'), { timeout: 30_000 }).toBe('technical writer');
    const writing = page.getByRole('button', { name: 'Technical Writing', exact: true });
    await writing.focus();
    await page.keyboard.press(' ');
    await expect.poll(() => writing.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('link', { name: /^Done \(2 chosen\)/ }).click();

    // Levels, two markets (US tier 1 and Germany), base salary and total equity, local currency.
    await page.getByRole('button', { name: 'Run benchmark' }).waitFor();
    await page.getByLabel('P3', { exact: true }).check();
    await page.getByLabel('P6', { exact: true }).check();
    const first = page.getByRole('region', { name: 'Market', exact: true });
    await first.getByLabel('United States', { exact: true }).uncheck();
    await first.getByLabel('US Tier 1').check();
    await page.getByRole('button', { name: 'Add a market' }).click();
    const second = page.getByRole('region', { name: 'Market 2' });
    await second.getByLabel('United States', { exact: true }).uncheck();
    await second.getByLabel('Germany').check();
    await page.getByLabel('Total equity').check();
    // Total equity brings the default percentile code of equity, P50; the quartile above is chosen by hand.
    await expect.poll(() => page.getByLabel('P50', { exact: true }).isChecked()).toBe(true);
    await page.getByLabel('P75', { exact: true }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `benchmark-filters-${engine}`);

    const sent = page.waitForRequest((request) => request.url().endsWith('/api/benchmarking/market-data') && request.method() === 'POST');
    await page.getByRole('button', { name: 'Run benchmark' }).click();
    const body = (await sent).postDataJSON() as components['schemas']['BenchmarkRequest'];
    expect(body).toMatchObject({
      jobFamilies: ['software_engineering', 'technical_writing'],
      compensationTypes: ['base', 'total_equity'],
      percentiles: [25, 50, 75],
      currency: 'local',
    });
    expect(body.marketFilters?.map((market) => market.locations)).toEqual([['840_1'], ['276']]);

    // The same request, asked of the API directly.
    const reply = await fetch(`${base()}/api/benchmarking/market-data`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await analystToken()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(reply.status).toBe(200);
    const api = ((await reply.json()) as { data: BenchmarkResult }).data;
    const expected = api.cells.find((cell) => cell.jobFamilyId === 'software_engineering' && cell.levelId === 'p3' && cell.compensationTypeId === 'base' && cell.marketFilterIndex === 0);
    const median = expected?.percentiles?.find((entry) => entry.percentile === 50)?.value;
    expect(median).toBeTypeOf('number');

    const row = page.locator('tr[data-row^="software_engineering|p3|base|0|"]');
    const p50 = row.locator('td[data-percentile="50"]');
    await p50.waitFor({ timeout: 30_000 });
    expect(await p50.getAttribute('data-value')).toBe(String(median));
    expect(await p50.textContent()).toBe(usd(median ?? NaN));
    expect(await row.textContent()).toContain(expected?.consistency?.consistencyLabel ?? 'no label');
    expect(await row.textContent()).toContain(`${expected?.sample.companyBucket.label} companies`);
    // The demo market is generated: every published cell says so, none passes for real pay.
    expect(expected?.syntheticShare).toBe(1);
    expect(await row.locator('td.sample-cell .demo-data').textContent()).toBe('Demo data');
    const published = api.cells.filter((cell) => cell.status === 'published').length;
    expect(await page.locator('table.results-table .demo-data').count()).toBe(published);

    // Every withheld cell says so and states the rule, the same words for each, and shows no number or size.
    const withheld = api.cells.filter((cell) => cell.status === 'insufficient_data');
    expect(withheld.length).toBeGreaterThan(0);
    for (const cell of withheld) {
      const shown = page.locator(`tr[data-row^="${cell.jobFamilyId}|${cell.levelId}|${cell.compensationTypeId}|${cell.marketFilterIndex}|"]`);
      expect(await shown.locator('td.insufficient').textContent()).toBe(`Insufficient data${WITHHELD}`);
      expect(await shown.locator('td.sample-cell').textContent()).toBe('Below the threshold');
      expect(await shown.locator('td[data-percentile]').count()).toBe(0);
    }
    expect(await page.locator('table.results-table tbody tr[data-row]').count()).toBe(api.cells.length);
    // In local currency nothing is converted, so no rates are named.
    expect(await page.getByTestId('exchange-rates').count()).toBe(0);
    await page.locator('.chart .recharts-bar-rectangle').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `benchmark-results-${engine}`);

    // Export: the job shows in the list and finishes there live (the list's own poll is 5 minutes).
    await page.getByRole('link', { name: 'Export', exact: true }).click();
    await page.getByRole('heading', { name: 'Export the results' }).waitFor();
    await page.getByLabel('Excel workbook (.xlsx)').check();
    const started = page.waitForResponse((response) => response.url().endsWith('/api/benchmarking/market-data/exports') && response.status() === 202);
    await page.getByRole('button', { name: 'Start export' }).click();
    const job = ((await (await started).json()) as { data: { id: string } }).data;
    const listed = page.locator(`li.job[data-job-id="${job.id}"]`);
    await listed.waitFor({ timeout: 15_000 });
    await expect.poll(() => listed.getAttribute('data-status'), { timeout: 45_000 }).toBe('succeeded');
    // The news came through the socket: the job's own status events reached this page.
    const updates = socketFrames.filter((frame) => frame.includes('emitBackgroundJobStatusUpdate') && frame.includes(job.id));
    expect(updates.some((frame) => frame.includes('succeeded'))).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `benchmark-export-${engine}`);

    await listed.getByRole('link', { name: 'Download' }).click();
    await page.waitForURL('**/downloads/**');
    const filename = await page.getByTestId('download-filename').textContent();
    expect(filename).toMatch(/\.xlsx$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `benchmark-download-${engine}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download ${filename}` }).click()]);
    expect(download.suggestedFilename()).toBe(filename);
    const file = readFileSync((await download.path()) ?? '');
    expect(file.subarray(0, 2).toString()).toBe('PK'); // an .xlsx is a zip
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const values: unknown[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((sheetRow) => values.push(...(sheetRow.values as unknown[]))));
    expect(values).toContain(median);

    // The data composition says what it rounds and what it leaves out.
    await page.goto(`${base()}/datacomposition/companies`);
    await page.getByText('at least 750 participating companies, 150,000 employee records').waitFor();
    await page.getByText('Groups with fewer than 5 companies or 10 employees are below the threshold and shown without numbers').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // In US dollars the German market is converted: the rates and their date are named, and being
    // older than 30 days (the bundled ECB file ends on 9 May 2025), they are flagged. The explorer,
    // opened from the menu, comes back to this tab's last selection.
    await page.goto(`${base()}/benchmarkingsurvey/data-explorer`);
    await expect.poll(() => new URL(page.url()).searchParams.get('f')).toBe('software_engineering,technical_writing');
    await page.getByRole('button', { name: 'Run benchmark' }).waitFor();
    await page.getByLabel('US dollars').check();
    await page.getByRole('button', { name: 'Run benchmark' }).click();
    const rates = page.getByTestId('exchange-rates');
    await rates.waitFor({ timeout: 30_000 });
    expect(await rates.textContent()).toBe(
      'Converted through US dollars with the ECB euro reference rates of May 9, 2025: 1 USD = 0.8887 EUR. These rates are more than 30 days old; an internal admin can load newer ECB rates with paybench rates import.',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);
});
