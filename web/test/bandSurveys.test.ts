import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

type Schemas = components['schemas'];

/** The survey file a comp lead exports from their provider: headers the suggestion reads (job code, title, median) and one it leaves. */
const SURVEY_CSV = ['Benchmark Code,Benchmark Title,Base Median,Notes', 'S1,Senior Analyst,"100,000",lead', 'S2,Analyst,90000,'].join('\n');
/** Waits for what the page shows; a loaded two-core machine can take a while to run an import job. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000 });

/** The same columns with a figure that is no amount, on the file's second line. */
const BAD_CSV = ['Benchmark Code,Benchmark Title,Base Median,Notes', 'S1,Senior Analyst,lots,lead'].join('\n');

describe('surveys, market-data associations and composites in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  let token: string;
  let jobId = '';
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  async function api<T>(path: string, init: { method?: string; json?: unknown } = {}) {
    return request<{ data: T } & Partial<Schemas['Error']>>(path, { method: init.method ?? 'GET', headers: { Authorization: `Bearer ${token}` }, json: init.json });
  }

  beforeAll(async () => {
    db = await testDb();
    // A company of its own, with bands switched on (other browser tests expect the demo company's off).
    person = await createAdmin(db);
    token = await apiTokenOf(person.email);
    const support = await createTestUser(db, { companyId: person.companyId, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${person.companyId}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    const job = await api<Schemas['CompanyJob']>('/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'data_analytics', levelId: 'p3' } });
    expect(job.status).toBe(201);
    jobId = job.body.data.id;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  async function axeClean(page: Page, where: string) {
    expect(await seriousViolations(page), where).toEqual([]);
  }

  const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  it('uploads a survey file, confirms its mapping, associates a job with weights and reads the composite', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    // A loaded two-core machine can be slow to answer; nothing here is a timing assertion.
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Salary bands' }).click();
    const bandsNav = page.getByRole('navigation', { name: 'Salary bands' });
    await bandsNav.getByRole('link', { name: 'Surveys' }).click();

    // Only the market release is a source so far; the BLS survey is one click away.
    await poll(() => page.locator('[role="row"][data-survey-id="market"]').textContent()).toContain('Market release');
    await axeClean(page, '/bands/surveys');
    await page.getByRole('button', { name: 'Import a survey file' }).click();
    const importer = page.getByRole('region', { name: 'Import a survey file' });

    // A file with a bad line: the check names the line and the column, and nothing is written.
    await importer.getByLabel('Survey file (CSV or XLSX)').setInputFiles({ name: 'acme-bad.csv', mimeType: 'text/csv', buffer: Buffer.from(BAD_CSV) });
    await poll(() => importer.getByTestId('survey-file').textContent()).toBe('acme-bad.csv: 1 row, 4 columns');
    await importer.getByLabel('Survey name').fill('Acme Pay 2025');
    await importer.getByLabel('Provider').fill('Acme Surveys');
    await importer.getByLabel('Effective date').fill('2025-06-30');
    await importer.getByLabel('Currency').fill('USD');
    await importer.getByRole('button', { name: 'Check the file' }).click();
    await poll(() => importer.getByRole('alert').first().textContent()).toContain('line 2: Base Median: "lots" is not an amount');
    expect((await api<Schemas['Survey'][]>('/api/bands/surveys')).body.data).toEqual([]);

    // The good file: the suggested mapping shows, the person confirms it (the notes stay out), checks, imports.
    await importer.getByLabel('Upload another file').setInputFiles({ name: 'acme-2025.csv', mimeType: 'text/csv', buffer: Buffer.from(SURVEY_CSV) });
    await poll(() => importer.getByTestId('survey-file').textContent()).toBe('acme-2025.csv: 2 rows, 4 columns');
    expect(await importer.getByLabel('Survey job code').inputValue()).toBe('Benchmark Code');
    expect(await importer.getByLabel('Survey job title').inputValue()).toBe('Benchmark Title');
    expect(await importer.getByLabel('50th percentile').inputValue()).toBe('Base Median');
    await importer.getByLabel('Job family').selectOption('');
    await importer.getByRole('button', { name: 'Check the file' }).click();
    await poll(() => importer.getByRole('status').last().textContent()).toContain('Every row is fine: 2 survey jobs to import');
    await axeClean(page, 'the survey mapping');
    await importer.getByRole('button', { name: 'Import survey' }).click();
    await poll(() => importer.getByRole('status').last().textContent()).toContain('Imported: 2 survey jobs imported');
    const surveys = (await api<Schemas['Survey'][]>('/api/bands/surveys')).body.data;
    expect(surveys.map((survey) => [survey.name, survey.provider, survey.effectiveDate, survey.jobCount])).toEqual([['Acme Pay 2025', 'Acme Surveys', '2025-06-30', 2]]);
    const surveyId = surveys[0]?.id ?? '';
    await poll(() => page.locator(`[role="row"][data-survey-id="${surveyId}"]`).textContent()).toContain('Imported file');
    // The survey opens its jobs in the grid: by code, the median in whole dollars, filtered by a column.
    await page.getByRole('grid', { name: 'Surveys, newest effective date first' }).getByRole('button', { name: /^Acme Pay 2025/ }).click();
    const jobs = page.getByRole('grid', { name: 'Jobs of Acme Pay 2025, by code' });
    await poll(() => jobs.locator('[data-job-code="S1"] [data-col="p50"]').textContent()).toBe('$100,000');
    expect(await jobs.locator('[data-job-code="S2"] [data-col="title"]').textContent()).toBe('Analyst');
    expect(await jobs.getAttribute('aria-rowcount')).toBe('3');
    await page.getByRole('region', { name: 'Jobs of “Acme Pay 2025”' }).getByRole('button', { name: 'Filter columns' }).click();
    await jobs.getByLabel('Filter Title').fill('senior');
    await poll(() => jobs.locator('[role="row"][data-job-code]').count()).toBe(1);
    await axeClean(page, 'a survey’s jobs');
    await page.getByRole('button', { name: 'Close the jobs' }).click();
    // The confirmed mapping is remembered for the provider…
    const saved = (await api<Schemas['SavedSurveyMapping'][]>('/api/bands/survey-mappings')).body.data;
    expect(saved.map((entry) => [entry.provider, entry.mapping])).toEqual([['Acme Surveys', { jobCode: 'Benchmark Code', title: 'Benchmark Title', p50: 'Base Median' }]]);
    // …and offered first on the next file with its columns.
    await importer.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Import a survey file' }).click();
    await page.getByRole('region', { name: 'Import a survey file' }).getByLabel('Survey file (CSV or XLSX)').setInputFiles({ name: 'acme-2026.csv', mimeType: 'text/csv', buffer: Buffer.from(SURVEY_CSV) });
    const next = page.getByRole('region', { name: 'Import a survey file' });
    await poll(() => next.getByTestId('saved-mapping-used').textContent()).toBe('Using the mapping saved for Acme Surveys’s files.');
    expect(await next.getByLabel('Provider').inputValue()).toBe('Acme Surveys');
    expect(await next.getByLabel('Job family').inputValue()).toBe('');
    await screenshot(page, `band-surveys-${engine}-1280`);

    // Market data: the job's sources, S1 at weight 2 and S2 at weight 3, then changed to 1.
    await bandsNav.getByRole('link', { name: 'Market data' }).click();
    await poll(() => page.getByLabel('Company job').inputValue()).toBe(jobId);
    const adding = page.getByRole('region', { name: 'Add a source' });
    await adding.getByRole('combobox', { name: /^Survey/ }).selectOption(surveyId);
    await adding.getByLabel('Weight of the new source').fill('2');
    await adding.getByLabel('Search survey jobs').fill('s1');
    await adding.getByRole('button', { name: 'Associate S1 Senior Analyst' }).click();
    const sources = page.getByRole('region', { name: 'Data Analytics P3’s sources' });
    await poll(() => sources.locator('tbody tr').count()).toBe(1);
    await adding.getByLabel('Weight of the new source').fill('3');
    await adding.getByLabel('Search survey jobs').fill('S2');
    await adding.getByRole('button', { name: 'Associate S2 Analyst' }).click();
    await poll(() => sources.locator('tbody tr').count()).toBe(2);
    const s2Weight = sources.getByLabel('Weight of Acme Pay 2025: S2 Analyst');
    await poll(() => s2Weight.inputValue()).toBe('3');
    await s2Weight.fill('1');
    await sources.getByRole('button', { name: 'Save weight' }).nth(1).click();
    await poll(async () => (await api<Schemas['MarketAssociation'][]>(`/api/bands/jobs/${jobId}/associations`)).body.data.map((row) => [row.survey?.surveyJobCode, row.weight])).toEqual([
      ['S1', 2],
      ['S2', 1],
    ]);

    // A market cell the market withholds (a small metro, seed stage only) is listed but counts for nothing.
    const thin = await api<Schemas['MarketAssociation']>(`/api/bands/jobs/${jobId}/associations`, {
      method: 'POST',
      json: { market: { jobFamilyId: 'design', levelId: 'p2', locationId: 'us_kansas_city', industryId: 'ind_all', companyStageIds: ['seed'] } },
    });
    expect(thin.status).toBe(201);

    // The composite on the survey's date: (2 × 100,000 + 1 × 90,000) ÷ 3 = 96,666.666… → $96,666.67.
    const composite = page.getByRole('region', { name: 'Composite benchmark' });
    await composite.getByLabel('Aged to').fill('2025-06-30');
    await poll(() => composite.getByTestId('composite-anchor').textContent()).toContain('Composite at p50: $96,666.67, blended from 2 sources, aged to');
    expect(await composite.getByTestId('composite-anchor').textContent()).toContain('at 3% a year');
    const withheld = composite.locator(`tr[data-association-id="${thin.body.data.id}"]`);
    await poll(() => withheld.textContent()).toContain('Insufficient data');
    expect(await withheld.textContent()).toContain('Not counted');
    const included = composite.locator('tr[data-included="true"]');
    expect(await included.count()).toBe(2);
    // Each source's aged value, weight and share: 100,000 at 2 (66.7%), 90,000 at 1 (33.3%).
    expect(await included.nth(0).textContent()).toContain('$100,000.00');
    expect(await included.nth(0).textContent()).toContain('66.7%');
    expect(await included.nth(1).textContent()).toContain('$90,000.00');
    expect(await included.nth(1).textContent()).toContain('33.3%');
    // The anchor zone's benchmark is the blend.
    await poll(() => page.getByRole('table', { name: 'Data Analytics P3’s benchmark in each pay zone' }).textContent()).toContain('$96,666.67');
    // Aged a year at the stated 3%: 100,000 × 1.03 = 103,000 and 90,000 × 1.03 = 92,700 → (206,000 + 92,700) ÷ 3 = 99,566.67.
    await composite.getByLabel('Aged to').fill('2026-06-30');
    await poll(() => composite.getByTestId('composite-anchor').textContent()).toContain('$99,566.67');
    await axeClean(page, '/bands/market-data');
    await screenshot(page, `band-market-data-${engine}-1280`);
    await context.close();
  }, 300_000);

  it('shows surveys and a job’s composite as read-only cards on a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/bands/surveys`);
    await poll(() => page.getByText('Acme Pay 2025').first().isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Import a survey file' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: /^Delete / }).first().isVisible()).toBe(false);
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(375);
    await axeClean(page, '/bands/surveys at 375 px');
    await screenshot(page, `band-surveys-${engine}-375`);
    // A survey's jobs are cards too.
    await page.getByRole('button', { name: 'Open Acme Pay 2025' }).click();
    const jobCards = page.getByRole('region', { name: 'Jobs of Acme Pay 2025, by code cards' });
    await poll(() => jobCards.locator('[data-job-code="S1"]').textContent()).toContain('$100,000');
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(375);
    await axeClean(page, 'a survey’s jobs at 375 px');

    await page.goto(`${base()}/bands/market-data?job=${jobId}`);
    await poll(() => page.getByTestId('composite-anchor').textContent()).toContain('blended from 2 sources');
    expect(await page.getByRole('region', { name: 'Add a source' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Save weight' }).first().isVisible()).toBe(false);
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(375);
    await axeClean(page, '/bands/market-data at 375 px');
    await screenshot(page, `band-market-data-${engine}-375`);
    await context.close();
  }, 300_000);
});
