import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type CompareResult = components['schemas']['CompareResult'];

const ADMIN = 'admin@acme.test';
const P50 = 'tr[data-row^="software_engineering|p3|base|0|"] td[data-percentile="50"]';

/** Runs the explorer's current choice and returns the median of Software Engineering P3 base salary. */
async function run(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  await page.locator(P50).waitFor({ timeout: 30_000 });
  return (await page.locator(P50).getAttribute('data-value')) ?? '';
}

async function saveAs(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Save as report' }).click();
  await page.getByLabel('Report name').fill(name);
  await page.getByRole('button', { name: 'Save report' }).click();
  await page.getByText(`Saved as “${name}”`).waitFor();
}

describe('saved reports, shared slices and compare in a real browser', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('an admin saves two queries, shares one, runs them as reports and compares them side by side', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), ADMIN, demoPassword(inject('serverEnv')));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Market data' }).click();
    await page.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('link', { name: 'Search job families' }).click();
    const found = page.getByRole('list', { name: 'Job families found' });
    await page.getByLabel('Search by family or job title').fill('software engineering');
    await expect.poll(() => found.getAttribute('data-search'), { timeout: 30_000 }).toBe('software engineering');
    await page.getByRole('button', { name: 'Software Engineering', exact: true }).click();
    await page.getByRole('link', { name: /^Done \(1 chosen\)/ }).click();
    await page.getByLabel('P3', { exact: true }).check();
    // Base salary starts at P25 only (cash's default percentile code); the median is asked for too.
    await page.getByLabel('P50', { exact: true }).check();

    const us = await run(page);
    await saveAs(page, `SE P3 US ${tag}`);
    await page.getByRole('link', { name: 'Change filters' }).click();
    await page.getByLabel('United States', { exact: true }).uncheck();
    await page.getByLabel('Germany').check();
    const germany = await run(page);
    expect(germany).not.toBe(us);
    await saveAs(page, `SE P3 Germany ${tag}`);

    // Share what this answers now: the slice shows the same figure, with the release it came from.
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByLabel('Title of the shared slice').fill(`Germany for the board ${tag}`);
    await page.getByRole('button', { name: 'Share slice' }).click();
    await page.waitForURL('**/shares/**');
    await page.getByRole('heading', { name: `Germany for the board ${tag}` }).waitFor();
    expect(await page.locator(P50).getAttribute('data-value')).toBe(germany);

    // Reports: both saved queries, each run again on the served release.
    await page.goto(`${base()}/market-data-reports`);
    const report = page.locator('li.report', { hasText: `SE P3 US ${tag}` });
    await report.getByRole('button', { name: `Run SE P3 US ${tag}` }).click();
    await report.locator(P50).waitFor();
    expect(await report.locator(P50).getAttribute('data-value')).toBe(us);
    // Each summary names its market, so the two reports read apart.
    expect(await report.getByRole('list', { name: `Markets of SE P3 US ${tag}` }).textContent()).toBe('United States');
    expect(await page.locator('li.report', { hasText: `SE P3 Germany ${tag}` }).getByRole('list', { name: `Markets of SE P3 Germany ${tag}` }).textContent()).toBe('Germany');
    expect(await report.locator('td.col-market').first().textContent()).toBe('United States');
    expect(await page.getByRole('link', { name: `Germany for the board ${tag}` }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `reports-${engine}`);

    // Compare, in local currency so each column keeps the figure the explorer showed.
    await page.getByRole('link', { name: 'Compare' }).click();
    await page.getByLabel('Local currency').check();
    await page.getByLabel(`SE P3 US ${tag}`).check();
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/benchmarking/compare') && response.status() === 200);
    await page.getByLabel(`SE P3 Germany ${tag}`).check();
    const result = ((await (await answered).json()) as { data: CompareResult }).data;
    expect(result.columns.map((column) => column.label)).toEqual([`SE P3 US ${tag}`, `SE P3 Germany ${tag}`]);
    const row = page.locator('table.compare-table tbody tr[data-percentile="50"]', { hasText: 'Software Engineering' }).filter({ hasText: 'Base salary' });
    const values = await row.locator('td[data-value]').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-value')));
    expect(values).toEqual([us, germany]);
    // Both columns come from the generated demo market, and say so.
    expect(await row.locator('td[data-value] .demo-data').allTextContents()).toEqual(['Demo data', 'Demo data']);
    // Several percentiles at once: P25 and P50, each a row.
    expect(await page.locator('table.compare-table tbody tr[data-row="software_engineering|p3|base"]').evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-percentile')))).toEqual(['25', '50']);
    // Dollars against euros have no difference.
    expect(await row.locator('td.difference').textContent()).toBe('Different currencies');

    // In US dollars both columns are in one currency: the difference is Germany − US, and a chart draws them.
    const inDollars = page.waitForResponse((response) => response.url().endsWith('/api/benchmarking/compare') && response.status() === 200);
    await page.getByLabel('US dollars').check();
    const dollars = ((await (await inDollars).json()) as { data: CompareResult }).data;
    const cells = dollars.rows.find((r) => r.jobFamilyId === 'software_engineering' && r.levelId === 'p3' && r.compensationTypeId === 'base')?.cells ?? [];
    const median = (index: number) => cells[index]?.percentiles?.find((entry) => entry.percentile === 50)?.value ?? NaN;
    const difference = median(1) - median(0);
    expect(Number.isFinite(difference)).toBe(true);
    const shown = row.locator('td.difference');
    await expect.poll(() => shown.getAttribute('data-difference')).toBe(String(difference));
    const dollarsText = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(Math.abs(difference));
    const percentText = `${Math.abs((difference / median(0)) * 100).toFixed(1)}%`;
    expect(await shown.textContent()).toBe(difference < 0 ? `−${dollarsText}−${percentText}` : `+${dollarsText}+${percentText}`);
    await page.locator('figure.chart .recharts-bar-rectangle').first().waitFor();
    expect(await page.getByRole('figure').getAttribute('aria-label')).toBe(`Comparison of SE P3 US ${tag}, SE P3 Germany ${tag} at P25, P50`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `compare-${engine}`);

    // A report can be deleted.
    await page.goto(`${base()}/market-data-reports`);
    await page.locator('li.report', { hasText: `SE P3 Germany ${tag}` }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('li.report', { hasText: `SE P3 Germany ${tag}` }).count()).toBe(0);
    await context.close();
  }, 180_000);
});
