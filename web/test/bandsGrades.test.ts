import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type BandsAdmin, bandsAdmin } from './bandsSetup.js';
import { launchChromium, seriousViolations, expectNoSidewaysScroll } from './browser.js';
import { signedIn } from './companySetup.js';

type Schemas = components['schemas'];

/*
 * Comp grades in the browser: add G5 on the job architecture screen, give Software Engineering P3 that
 * grade, add G5's band in the US zone from a midpoint of 120,000 and a 40% spread (100,000 – 140,000),
 * and see Ada (P3, US, 108,000) priced by it: compa-ratio 0.90, range penetration 20%.
 */
describe('comp grades and grade bands, in a real browser', () => {
  let browser: Browser;
  let admin: BandsAdmin['admin'];
  let api: BandsAdmin['api'];
  let setId = '';
  let jobId = '';
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    const bands = await bandsAdmin();
    ({ admin, api } = bands);
    const { db } = bands;
    expect((await api('/api/bands/pay-zones', { method: 'POST', json: { name: 'US', rules: [{ country: 'US' }] } })).status).toBe(201);
    const job = await api<Schemas['CompanyJob']>('/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', title: 'Software Engineer II' } });
    expect(job.status).toBe(201);
    jobId = job.body.data.id;
    const ada = await insertEmployee(db, admin.companyId, { firstName: 'Ada', lastName: 'Graded', levelId: 'p3', locationId: 'us_new_york' });
    await insertPay(db, admin.companyId, ada, [{ type: 'base_salary', amount: 10_800_000, effectiveDate: '2024-01-01' }]);
    const set = await api<Schemas['BandSetDetail']>('/api/bands/band-sets', { method: 'POST', json: { name: 'Graded bands', currency: 'USD' } });
    setId = set.body.data.id;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('adds a grade, grades a job, adds the grade’s band from a midpoint and a spread, and evaluates the job’s people against it', async () => {
    const { context, page } = await signedIn(browser, admin, admin.password);

    await page.goto(`${base()}/bands/jobs`);
    const addGrade = page.getByRole('form', { name: 'Add a grade' });
    await addGrade.getByLabel('Grade key').fill('G5');
    await addGrade.getByLabel('Grade name (optional)').fill('Grade 5');
    await addGrade.getByRole('button', { name: 'Add grade' }).click();
    await page.getByText('Added grade G5.').waitFor();
    await page.getByRole('list', { name: 'Comp grades' }).getByText('Grade 5').waitFor();
    // Renamed at the version read (PATCH with If-Match); the list and the job's grade picker follow.
    await page.getByRole('button', { name: 'Rename grade G5' }).click();
    const rename = page.getByRole('form', { name: 'Rename grade G5' });
    await rename.getByLabel('Name of G5').fill('Grade five');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Renamed grade G5 to Grade five.').waitFor();
    await page.getByRole('list', { name: 'Comp grades' }).getByText('Grade five').waitFor();

    await page.getByRole('button', { name: 'Edit Software Engineer II' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Comp grade').selectOption({ label: 'G5 · Grade five' });
    await dialog.getByRole('button', { name: 'Save job' }).click();
    await page.getByText('Saved “Software Engineer II”.').waitFor();
    await expect.poll(() => page.locator(`tr[data-company-job-id="${jobId}"]`).innerText()).toContain('G5');

    await page.goto(`${base()}/bands/sets/${setId}`);
    await page.getByRole('tab', { name: 'Grades' }).click();
    const form = page.getByRole('form', { name: 'Add a grade band' });
    await form.getByLabel('Pay zone').selectOption({ label: 'US' });
    await form.getByLabel('Midpoint (USD)').fill('120000');
    await form.getByRole('combobox', { name: /^Width/ }).selectOption('spread');
    await form.getByLabel('Width %').fill('40');
    await form.getByRole('button', { name: 'Add grade band' }).click();
    await page.getByText('Added the grade band.').waitFor();
    const grid = page.getByRole('region', { name: 'Bands by comp grade and pay zone' });
    // 2 × 120,000 ÷ 2.4 = 100,000; 100,000 × 1.4 = 140,000.
    await expect.poll(() => grid.locator('tr[data-grade-id] td').filter({ hasText: '$' }).innerText()).toMatch(/\$100,000 – \$140,000\s+mid \$120,000/);
    expect(await seriousViolations(page)).toEqual([]);

    // Its ranges: a 10% bonus target (8–12%) and an equity grant of 800 to 1,200 shares around 1,000.
    await grid.getByRole('button', { name: 'Ranges of the band of grade G5 in US' }).click();
    const ranges = page.getByRole('dialog', { name: 'Ranges of grade G5' });
    await ranges.getByLabel('Target %').fill('10');
    await ranges.getByLabel('Min %').fill('8');
    await ranges.getByLabel('Max %').fill('12');
    await ranges.getByLabel('Unit').selectOption('shares');
    await ranges.getByLabel('Equity min').fill('800');
    await ranges.getByLabel('Equity mid').fill('1000');
    await ranges.getByLabel('Equity max').fill('1200');
    await ranges.getByRole('button', { name: 'Save ranges' }).click();
    await page.getByText('Saved the ranges of grade G5.').waitFor();
    await expect.poll(() => grid.locator('.bands-ranges').innerText()).toBe('Bonus 10% (8–12%) · Equity 800–1,200 shares');

    await page.getByRole('tab', { name: 'Evaluation' }).click();
    const priced = page.getByRole('region', { name: 'Priced by a grade band' });
    await expect.poll(() => priced.locator('tr[data-employee-id]').innerText()).toMatch(/Ada Graded\s+G5 · US · \$100,000 – \$140,000\s+\$108,000\s+0\.90\s+20%\s+Inside/);

    // The stored band, as the API reads it.
    const set = await api<Schemas['BandSetDetail']>(`/api/bands/band-sets/${setId}`);
    expect(set.body.data.gradeBands.map((band) => [band.gradeKey, band.min.amount, band.mid.amount, band.max.amount])).toEqual([['G5', 10_000_000, 12_000_000, 14_000_000]]);
    expect(set.body.data.gradeBands[0]?.ranges).toEqual({ bonusTargetPercent: { target: 10, min: 8, max: 12 }, equity: { unit: 'shares', min: 800, mid: 1000, max: 1200, percentile: null } });

    // At phone width the grades view stays within the screen (the table scrolls in its own region).
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('tab', { name: 'Grades' }).click();
    await grid.waitFor();
    await expectNoSidewaysScroll(page, 375);
    await context.close();
  }, 300_000);
});
