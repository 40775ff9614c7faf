import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium, screenshot, seriousViolations, signInThroughProvider, expectNoSidewaysScroll } from './browser.js';

type Schemas = components['schemas'];
type Band = Schemas['Band'];

const FAMILY = 'software_engineering';
const LEVELS = ['p2', 'p3', 'p4', 'p5'] as const;
/** A level the market withholds for this family in the United States (the support track is not surveyed for it). */
const WITHHELD_LEVEL = 's3';
const CONFLICT = 'Someone else changed this band first. Reload and try again.';

/** Whole dollars as the screens show them (en-US, no cents). */
const dollars = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);
/** docs/bands.md: each figure rounded to the nearest rounding unit (1,000 by default), halves up. */
const nearest1000 = (value: number) => Math.round(value / 1000) * 1000;

describe('salary bands in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  let token: string;
  /** The market's p50 of base in USD for each level (all stages, ownership groups and industries, the United States). */
  const p50: Record<string, number> = {};
  const people: Record<string, string> = {};
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  /** The API as the signed-in admin, for what the page should show and for changes made "elsewhere". */
  async function api<T>(path: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) {
    return request<{ data: T } & Partial<Schemas['Error']>>(path, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${token}`, ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });
  }

  /** One market cell as the market API answers it: what a build starts from (docs/bands.md), read independently of the bands code. */
  async function marketCell(jobFamilyId: string, levelId: string) {
    const filters = (await api<Schemas['BenchmarkingFilters']>('/api/benchmarking/filters')).body.data;
    const reply = await api<Schemas['BenchmarkResult']>('/api/benchmarking/market-data', {
      method: 'POST',
      json: {
        compensationTypes: ['base'],
        marketFilters: [
          {
            companyStages: filters.companyStagesWithIds.map((stage) => stage.id),
            companyOwnershipGroups: filters.companyOwnershipGroupsWithIds.map((group) => group.id),
            industries: ['ind_all'],
            locations: ['840'],
          },
        ],
        jobFamilies: [jobFamilyId],
        levels: [{ type: 'level', id: levelId }],
        percentiles: [50],
        currency: 'USD',
      },
    });
    expect(reply.status, `market ${jobFamilyId} ${levelId}`).toBe(200);
    const cell = reply.body.data.cells[0];
    return { status: cell?.status, value: cell?.percentiles?.[0]?.value ?? null, label: cell?.label ?? null };
  }

  const jobsNow = async () => (await api<Schemas['CompanyJob'][]>('/api/bands/jobs')).body.data;
  const zonesNow = async () => (await api<Schemas['PayZone'][]>('/api/bands/pay-zones')).body.data;
  const setNow = async (id: string) => (await api<Schemas['BandSetDetail']>(`/api/bands/band-sets/${id}`)).body.data;

  async function hire(firstName: string, lastName: string, levelId: string | null, baseDollars: number | null, locationId = 'us_sf_bay_area') {
    const id = await insertEmployee(db, person.companyId, { firstName, lastName, levelId, locationId, title: 'Engineer' });
    if (baseDollars !== null) await insertPay(db, person.companyId, id, [{ type: 'base_salary', amount: Math.round(baseDollars) * 100, effectiveDate: '2024-01-01' }]);
    people[`${firstName} ${lastName}`] = id;
  }

  beforeAll(async () => {
    db = await testDb();
    // A company of its own: other browser tests on this server expect the demo company's bands off.
    person = await createAdmin(db);
    token = await apiTokenOf(person.email);
    const support = await createTestUser(db, { companyId: person.companyId, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${person.companyId}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);

    for (const level of LEVELS) {
      const cell = await marketCell(FAMILY, level);
      expect(cell.status).toBe('published');
      p50[level] = cell.value ?? 0;
    }
    const p3 = p50.p3 ?? 0;
    // Everyone at their level's market median is inside a ±20% band; Lou is far below P3's and Hal far above it.
    await hire('Pia', 'Two', 'p2', p50.p2 ?? 0);
    await hire('Ida', 'Inside', 'p3', p3);
    await hire('Lou', 'Low', 'p3', p3 * 0.5);
    await hire('Hal', 'High', 'p3', p3 * 1.6);
    await hire('Ava', 'Austin', 'p3', p3 * 0.9, 'us_austin');
    await hire('Fay', 'Four', 'p4', p50.p4 ?? 0);
    await hire('Fio', 'Five', 'p5', p50.p5 ?? 0);
    await hire('Sam', 'Support', WITHHELD_LEVEL, 60_000);
    await hire('Nia', 'Nolevel', null, 90_000);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  async function axeClean(page: Page, where: string) {
    expect(await seriousViolations(page), where).toEqual([]);
  }

  const bandCell = (page: Page, jobId: string, zoneId: string, figure: 'min' | 'mid' | 'max') =>
    page.locator(`table.bands-grid tr[data-company-job-id="${jobId}"] td[data-pay-zone-id="${zoneId}"][data-figure="${figure}"]`);

  let bandSetId = '';

  it('sets up jobs and a zone, builds a draft from the market, smooths, evaluates, edits, meets a conflict, publishes and exports', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    // A loaded two-core machine can be slow to answer; nothing here is a timing assertion.
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    const bandsNav = page.getByRole('navigation', { name: 'Salary bands' });

    // Band sets: none yet, and the way to start.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Salary bands' }).click();
    await page.getByRole('heading', { name: 'No band sets yet' }).waitFor();
    await axeClean(page, '/bands empty');

    // Job architecture: made from the employees' families and levels; the one without a level is listed with why.
    await bandsNav.getByRole('link', { name: 'Job architecture' }).click();
    await page.getByRole('heading', { name: 'No company jobs yet' }).waitFor();
    await axeClean(page, '/bands/jobs empty');
    await page.getByRole('button', { name: 'Create jobs from employees' }).first().click();
    await expect.poll(() => page.getByTestId('jobs-created').textContent()).toContain('Created 5 jobs');
    const jobs = await jobsNow();
    expect(jobs.map((job) => job.levelId).sort()).toEqual(['p2', 'p3', 'p4', 'p5', WITHHELD_LEVEL]);
    const jobOf = (level: string) => jobs.find((job) => job.levelId === level) as Schemas['CompanyJob'];
    const p3Row = page.locator(`tr[data-company-job-id="${jobOf('p3').id}"]`);
    // Ida, Lou, Hal and Ava are P3 software engineers.
    await expect.poll(() => p3Row.locator('td').nth(3).textContent()).toBe('4');
    const unmapped = page.locator(`tr[data-employee-id="${people['Nia Nolevel']}"]`);
    await expect.poll(() => unmapped.textContent()).toContain('No job family or level');
    // Matching by job code instead: no one here has a code yet, so everyone is listed as without one; then back.
    const matching = page.getByRole('form', { name: 'How employees map to jobs' });
    await matching.getByLabel('Match employees by').selectOption({ label: 'Job code' });
    await matching.getByRole('button', { name: 'Save matching' }).click();
    await page.getByText('Employees now map to company jobs by job code.').waitFor();
    await expect.poll(() => page.locator(`tr[data-employee-id="${people['Ida Inside']}"]`).textContent()).toContain('No job code');
    expect((await api<Schemas['BandSettings']>('/api/bands/settings')).body.data.jobMatching).toBe('jobCode');
    await matching.getByLabel('Match employees by').selectOption({ label: 'Job family and level' });
    await matching.getByRole('button', { name: 'Save matching' }).click();
    await page.getByText('Employees now map to company jobs by job family and level.').waitFor();
    await expect.poll(() => page.locator(`tr[data-employee-id="${people['Ida Inside']}"]`).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit Software Engineering P3' }).click();
    const editJob = page.getByRole('dialog', { name: 'Edit Software Engineering P3' });
    await editJob.getByLabel('Job title').fill('Software Engineer II');
    await editJob.getByLabel(/^Job code/).fill('ENG-3');
    await editJob.getByRole('button', { name: 'Save job' }).click();
    await expect.poll(() => p3Row.locator('th').textContent()).toBe('Software Engineer II');
    await axeClean(page, '/bands/jobs');
    await screenshot(page, `bands-jobs-${engine}-1280`);

    // Pay zones: the catch-all anchor the company starts with, then Austin 10% below it.
    await bandsNav.getByRole('link', { name: 'Pay zones' }).click();
    const everywhere = (await zonesNow())[0] as Schemas['PayZone'];
    const everywhereRow = page.locator(`tr[data-pay-zone-id="${everywhere.id}"]`);
    await expect.poll(() => everywhereRow.textContent()).toContain('Anchor');
    expect(await everywhereRow.textContent()).toContain('Catch-all');
    await page.getByRole('button', { name: 'Add a pay zone' }).click();
    const zoneForm = page.getByRole('dialog', { name: 'Add a pay zone' });
    await zoneForm.getByLabel('Name').fill('US tier 2');
    await zoneForm.getByLabel(/^Differential to the anchor/).fill('-10');
    await zoneForm.getByLabel(/^Country/).fill('us');
    await zoneForm.getByLabel(/^Metros or cities/).fill('Austin');
    await zoneForm.getByRole('button', { name: 'Add zone' }).click();
    await expect.poll(async () => (await zonesNow()).length).toBe(2);
    const austin = (await zonesNow()).find((zone) => zone.name === 'US tier 2') as Schemas['PayZone'];
    expect(austin).toMatchObject({ differentialBp: -1000, rules: [{ country: 'US', metros: ['Austin'] }] });
    await expect.poll(() => page.locator(`tr[data-pay-zone-id="${austin.id}"]`).textContent()).toContain('-10%');
    await axeClean(page, '/bands/zones');

    // P4 and P5 share comp grade G4 (given through the API; the grades screen has its own test).
    const g4 = await api<Schemas['CompGrade']>('/api/bands/grades', { method: 'POST', json: { key: 'G4' } });
    expect(g4.status).toBe(201);
    for (const level of ['p4', 'p5']) {
      const graded = await api(`/api/bands/jobs/${jobOf(level).id}`, { method: 'PATCH', ifMatch: (await jobsNow()).find((job) => job.levelId === level)?.version, json: { gradeId: g4.body.data.id } });
      expect(graded.status).toBe(200);
    }

    // A draft, opened in its editor.
    await bandsNav.getByRole('link', { name: 'Band sets' }).click();
    await page.getByRole('button', { name: 'Create a draft' }).click();
    const draftForm = page.getByRole('dialog', { name: 'Create a draft band set' });
    await draftForm.getByLabel('Name').fill('2027 bands');
    await draftForm.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL('**/bands/sets/**');
    bandSetId = page.url().split('/bands/sets/')[1] ?? '';
    await page.getByRole('heading', { name: '2027 bands', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No bands yet' }).waitFor();
    await axeClean(page, 'the empty draft');

    // Build at p50 ±20% (the form's defaults), nearest 1,000, priced in the anchor's country (the United States).
    expect(await page.getByLabel('Target percentile').inputValue()).toBe('50');
    expect(await page.getByLabel('Width in percent').inputValue()).toBe('20');
    expect(await page.getByLabel('± % around the midpoint').isChecked()).toBe(true);
    const buildAnswer = page.waitForResponse((response) => response.url().endsWith(`/api/bands/band-sets/${bandSetId}/build`));
    await page.getByRole('button', { name: 'Build bands' }).click();
    const built = ((await (await buildAnswer).json()) as { data: Schemas['BandBuildResult'] }).data;
    // Four priced jobs × two zones; the support-track job is withheld, as the market answers for it.
    expect(built.built).toBe(8);
    const withheldCell = await marketCell(FAMILY, WITHHELD_LEVEL);
    expect(withheldCell.status).toBe('insufficient_data');
    const outcome = page.getByTestId('build-outcome');
    await expect.poll(() => outcome.textContent()).toContain('Built 8 bands at p50.');
    const withheldList = page.getByRole('list', { name: 'Company jobs the market could not price' });
    const unitedStates = (await api<Schemas['LocationComposition']>('/api/benchmarking/data-composition/locations')).body.data.locations.find((location) => location.id === '840');
    expect(await withheldList.textContent()).toContain(`${jobOf(WITHHELD_LEVEL).title} in ${unitedStates?.name}: ${withheldCell.label}`);
    await expect.poll(() => page.locator(`table.bands-grid tr[data-company-job-id="${jobOf(WITHHELD_LEVEL).id}"]`).textContent()).toContain('No band');
    // P3 by hand from the market's median V: the anchor is V ±20%, Austin 0.9 V ±20%, each to the nearest 1,000.
    const V = p50.p3 ?? 0;
    const p3 = jobOf('p3').id;
    expect(await bandCell(page, p3, everywhere.id, 'min').textContent()).toBe(dollars(nearest1000(V * 0.8)));
    expect(await bandCell(page, p3, everywhere.id, 'mid').textContent()).toBe(dollars(nearest1000(V)));
    expect(await bandCell(page, p3, everywhere.id, 'max').textContent()).toBe(dollars(nearest1000(V * 1.2)));
    expect(await bandCell(page, p3, austin.id, 'min').textContent()).toBe(dollars(nearest1000(V * 0.9 * 0.8)));
    expect(await bandCell(page, p3, austin.id, 'mid').textContent()).toBe(dollars(nearest1000(V * 0.9)));
    expect(await bandCell(page, p3, austin.id, 'max').textContent()).toBe(dollars(nearest1000(V * 0.9 * 1.2)));
    // The editor fits the desktop: the grid scrolls inside its own region, never the page.
    await expectNoSidewaysScroll(page, 1280);
    await axeClean(page, 'the built draft');
    await screenshot(page, `bands-built-${engine}-1280`);
    // G4's band in each zone, built from the mean of P4's and P5's medians.
    await expect.poll(() => page.getByTestId('build-grades').textContent()).toContain('Built 2 grade bands from the mean of each grade’s priced jobs.');
    // The grade was made behind the page's back: a reload reads it.
    await page.reload();
    await page.getByRole('tab', { name: 'Grades' }).click();
    const g4Mid = ((p50.p4 ?? 0) + (p50.p5 ?? 0)) / 2;
    const gradeCell = page.locator(`tr[data-grade-id="${g4.body.data.id}"] td[data-pay-zone-id="${austin.id}"]`);
    await expect.poll(() => gradeCell.textContent()).toContain(`${dollars(nearest1000(g4Mid * 0.9 * 0.8))} – ${dollars(nearest1000(g4Mid * 0.9 * 1.2))} mid ${dollars(nearest1000(g4Mid * 0.9))}`);
    expect(await gradeCell.textContent()).toContain('Built: the mean of 2 jobs’ p50');
    await page.getByRole('tab', { name: 'Bands' }).click();
    // A set with bands opens with building and smoothing folded away; the header's switch shows them.
    const work = page.getByRole('button', { name: 'Build and smooth' });
    expect(await work.getAttribute('aria-expanded')).toBe('false');
    await work.click();

    // Smoothing: a preview (a chart of the ladder before and after, the changes) writes nothing; applying does.
    const before = await setNow(bandSetId);
    // The market's own average step from P2 to P5, so the smoothed bands stay around everyone paid the median.
    const progression = Math.max(1, Math.round((((p50.p5 ?? 1) / (p50.p2 ?? 1)) ** (1 / 3) - 1) * 100));
    // The fitted curve first: each ladder keeps the progression its own midpoints fit; discarded, it writes nothing.
    await page.getByRole('radio', { name: 'Each ladder’s fitted curve' }).check();
    expect(await page.getByLabel('Progression per level (%)').count()).toBe(0);
    await page.getByRole('button', { name: 'Preview smoothing' }).click();
    const fitted = page.getByTestId('smoothing-preview');
    await fitted.waitFor();
    // Whether the fitted curve moves a band depends on the market's figures, drawn under the server's own
    // disclosure key: ladders whose rounded midpoints already follow their curve have nothing to change.
    const fittedText = (await fitted.textContent()) ?? '';
    if (fittedText.startsWith('Nothing to change')) {
      expect(fittedText).toBe('Nothing to change: every ladder already follows its fitted curve.');
    } else {
      // The preview's message is its first status; the chart's skeleton is another until the chart has loaded.
      await expect.poll(() => fitted.getByRole('status').first().textContent()).toMatch(/^Smoothing to each ladder’s own fitted curve changes \d+ bands\. Nothing is saved until you apply it\.$/);
      expect(await page.getByTestId('smoothing-ladder').textContent()).toMatch(/^This ladder’s midpoints fit -?\d+(\.\d)?% a level(; it is smoothed to \d+(\.\d)?%)?\.$/);
      await screenshot(page, `bands-smoothing-fitted-${engine}-1280`);
      await page.getByRole('button', { name: 'Discard preview' }).click();
      await expect.poll(() => fitted.count()).toBe(0);
    }
    expect((await setNow(bandSetId)).bands).toEqual(before.bands);
    await page.getByRole('radio', { name: 'A progression I choose' }).check();

    await page.getByLabel('Progression per level (%)').fill(String(progression));
    await page.getByRole('button', { name: 'Preview smoothing' }).click();
    const preview = page.getByTestId('smoothing-preview');
    await preview.getByRole('figure', { name: /^Midpoints by level, before and after/ }).locator('svg').first().waitFor();
    const changes = await preview.getByRole('table', { name: /changes/ }).locator('tbody tr').count();
    expect(changes).toBeGreaterThan(0);
    expect((await setNow(bandSetId)).bands).toEqual(before.bands);
    await expectNoSidewaysScroll(page, 1280);
    await axeClean(page, 'the smoothing preview');
    await screenshot(page, `bands-smoothing-preview-${engine}-1280`);
    await page.getByRole('button', { name: 'Apply smoothing' }).click();
    await expect.poll(() => preview.count()).toBe(0);
    const smoothed = await setNow(bandSetId);
    const moved = smoothed.bands.filter((band) => {
      const old = before.bands.find((entry) => entry.id === band.id);
      return old?.min.amount !== band.min.amount || old.mid.amount !== band.mid.amount || old.max.amount !== band.max.amount;
    });
    expect(moved.length).toBe(changes);
    const p3Anchor = smoothed.bands.find((band) => band.companyJobId === p3 && band.payZoneId === everywhere.id) as Band;
    await expect.poll(() => bandCell(page, p3, everywhere.id, 'mid').textContent()).toBe(dollars(p3Anchor.mid.amount / 100));

    // Evaluation: Lou (half the median) is below P3's band and Hal (1.6 × it) above; Sam (withheld) and Nia (no level) are in no band.
    await page.getByRole('tab', { name: 'Evaluation' }).click();
    await expect.poll(() => page.getByTestId('out-of-band').textContent()).toBe('2');
    await expect.poll(() => page.getByTestId('unplaced').textContent()).toBe('2');
    const lou = page.locator(`tr[data-employee-id="${people['Lou Low']}"]`);
    expect(await lou.textContent()).toContain('Below');
    // Lou's compa-ratio: base ÷ the P3 midpoint the API now holds.
    expect(await lou.textContent()).toContain(((Math.round(V * 0.5) * 100) / p3Anchor.mid.amount).toFixed(2));
    expect(await page.locator(`tr[data-employee-id="${people['Hal High']}"]`).textContent()).toContain('Above');
    expect(await page.locator(`tr[data-employee-id="${people['Ida Inside']}"]`).count()).toBe(0);
    // The range bar's text alternative names the people on it.
    const p3Range = page.locator(`tr[data-band-id="${p3Anchor.id}"] .bands-range-host .visually-hidden`);
    expect(await p3Range.textContent()).toContain('Lou Low');
    expect(await p3Range.textContent()).toContain('below');
    await axeClean(page, 'the evaluation');
    await screenshot(page, `bands-evaluation-${engine}-1280`);

    // A hand edit of P4 in the anchor zone, at the version read.
    await page.getByRole('tab', { name: 'Bands' }).click();
    const p4 = jobOf('p4');
    const p4Band = smoothed.bands.find((band) => band.companyJobId === p4.id && band.payZoneId === everywhere.id) as Band;
    const V4 = p50.p4 ?? 0;
    await page.getByRole('button', { name: `Edit the band of ${p4.title} in Everywhere` }).click();
    await page.getByLabel(`Minimum of ${p4.title} in Everywhere (USD)`).fill(String(nearest1000(V4 * 0.85)));
    await page.getByLabel(`Midpoint of ${p4.title} in Everywhere (USD)`).fill(String(nearest1000(V4)));
    await page.getByLabel(`Maximum of ${p4.title} in Everywhere (USD)`).fill(String(nearest1000(V4 * 1.15)));
    const saved = page.waitForResponse((response) => response.url().endsWith(`/bands/${p4Band.id}`) && response.request().method() === 'PATCH');
    await page.getByRole('button', { name: `Save the band of ${p4.title} in Everywhere` }).click();
    const savedAnswer = await saved;
    expect(savedAnswer.request().headers()['if-match']).toBe(`"${p4Band.version}"`);
    expect(savedAnswer.status()).toBe(200);
    await expect.poll(() => bandCell(page, p4.id, everywhere.id, 'min').textContent()).toBe(dollars(nearest1000(V4 * 0.85)));
    await expect.poll(() => bandCell(page, p4.id, everywhere.id, 'mid').textContent()).toBe(dollars(nearest1000(V4)));
    await expect.poll(() => bandCell(page, p4.id, everywhere.id, 'max').textContent()).toBe(dollars(nearest1000(V4 * 1.15)));

    // A stale edit: someone changes P3's band through the API while it is open here; the save is refused and the input stays.
    await page.getByRole('button', { name: 'Edit the band of Software Engineer II in Everywhere' }).click();
    const read = (await setNow(bandSetId)).bands.find((band) => band.id === p3Anchor.id) as Band;
    const elsewhere = await api<Band>(`/api/bands/band-sets/${bandSetId}/bands/${read.id}`, {
      method: 'PATCH',
      ifMatch: read.version,
      json: { min: read.min, mid: { ...read.mid, amount: read.mid.amount + 100_000 }, max: { ...read.max, amount: read.max.amount + 100_000 } },
    });
    expect(elsewhere.status).toBe(200);
    const midInput = page.getByLabel('Midpoint of Software Engineer II in Everywhere (USD)');
    await midInput.fill('123456');
    const refused = page.waitForResponse((response) => response.url().endsWith(`/bands/${read.id}`) && response.request().method() === 'PATCH');
    await page.getByRole('button', { name: 'Save the band of Software Engineer II in Everywhere' }).click();
    expect((await refused).status()).toBe(409);
    const rowProblem = page.locator('.bands-problem-row [role="alert"]');
    await expect.poll(() => rowProblem.textContent()).toContain(CONFLICT);
    expect(await midInput.inputValue()).toBe('123456');
    expect((await setNow(bandSetId)).bands.find((band) => band.id === read.id)?.mid.amount).toBe(read.mid.amount + 100_000);
    await axeClean(page, 'the conflict');
    await screenshot(page, `bands-conflict-${engine}-1280`);
    await page.getByRole('button', { name: 'Discard my change and reload' }).click();
    await expect.poll(() => bandCell(page, p3, everywhere.id, 'mid').textContent()).toBe(dollars((read.mid.amount + 100_000) / 100));

    // Publish at the set's version, with a comment; it is live, and the history says so.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const publish = page.getByRole('dialog', { name: 'Publish “2027 bands”' });
    await publish.getByLabel('Comment (optional)').fill('First bands');
    await axeClean(page, 'the publish dialog');
    const published = page.waitForResponse((response) => response.url().endsWith(`/api/bands/band-sets/${bandSetId}/publish`));
    await publish.getByRole('button', { name: 'Publish' }).click();
    const publishedAnswer = await published;
    expect(publishedAnswer.status()).toBe(200);
    expect(publishedAnswer.request().headers()['if-match']).toBe(`"${(await setNow(bandSetId)).version - 1}"`);
    await page.getByText('This set is live and never changes.', { exact: false }).waitFor();
    expect(await page.locator('.page-header .badge').textContent()).toBe('Live');
    expect(await page.getByRole('button', { name: /^Edit the band of/ }).count()).toBe(0);
    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('table', { name: 'History of the band set' });
    await expect.poll(() => history.locator('tbody tr').first().textContent()).toContain('Published: draft → live');
    expect(await history.locator('tbody tr').first().textContent()).toContain('First bands');
    await axeClean(page, 'the history');

    // Export: a background job, then its download.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('link', { name: 'Open the download' }).click();
    await page.getByRole('heading', { name: 'Your download' }).waitFor();
    expect(await page.getByTestId('download-filename').textContent()).toMatch(/\.csv$/);

    // The list marks it live; a zone its bands use cannot be deleted, in the server's words.
    await page.goto(`${base()}/bands`);
    await expect.poll(() => page.locator(`[role="row"][data-band-set-id="${bandSetId}"]`).textContent()).toContain('Live');
    await axeClean(page, '/bands');
    await page.goto(`${base()}/bands/zones`);
    await page.getByRole('button', { name: 'Delete US tier 2' }).click();
    const deleteZone = page.getByRole('alertdialog', { name: 'Delete “US tier 2”?' });
    await deleteZone.getByRole('button', { name: 'Delete zone' }).click();
    const inUse = await api(`/api/bands/pay-zones/${austin.id}`, { method: 'DELETE' });
    expect(inUse.status).toBe(409);
    await expect.poll(() => deleteZone.getByRole('alert').textContent()).toBe(inUse.body.message);
    await axeClean(page, 'the refused zone delete');
    await context.close();
  }, 300_000);

  it('shows a phone the bands as read-only cards, and every bands screen without sideways scrolling', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    const live = await setNow(bandSetId);
    const pricedJobs = new Set(live.bands.map((band) => band.companyJobId));
    await page.goto(`${base()}/bands/sets/${bandSetId}`);
    const cards = page.locator('.bands-card');
    // The set loads first (the page's own timeout), then its cards are counted.
    await cards.first().waitFor();
    await expect.poll(() => cards.count()).toBe(pricedJobs.size);
    expect(await page.locator('table.bands-grid').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit the band of/ }).count()).toBe(0);
    const jobs = await jobsNow();
    const p3 = jobs.find((job) => job.levelId === 'p3') as Schemas['CompanyJob'];
    const zones = await zonesNow();
    const p3Band = live.bands.find((band) => band.companyJobId === p3.id && band.payZoneId === zones[0]?.id) as Band;
    expect(await page.locator(`.bands-card[data-company-job-id="${p3.id}"]`).textContent()).toContain(`Mid ${dollars(p3Band.mid.amount / 100)}`);
    await axeClean(page, 'the set on a phone');
    await screenshot(page, `bands-set-${engine}-375`);
    for (const route of ['/bands', '/bands/zones', '/bands/jobs', `/bands/sets/${bandSetId}`]) {
      await page.goto(`${base()}${route}`);
      await page.locator('h1').first().waitFor();
      await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), route).toBeLessThanOrEqual(375);
      await axeClean(page, `${route} at 375 px`);
    }
    await page.getByRole('tab', { name: 'Evaluation' }).click();
    await page.getByTestId('out-of-band').waitFor();
    await expectNoSidewaysScroll(page, 375);
    await axeClean(page, 'the evaluation at 375 px');

    // A draft on a phone is read too: no building, smoothing, publishing or inline editing.
    const copy = await api<Schemas['BandSetDetail']>(`/api/bands/band-sets/${bandSetId}/duplicate`, { method: 'POST', json: { name: 'Phone draft' } });
    expect(copy.status).toBe(201);
    await page.goto(`${base()}/bands/sets/${copy.body.data.id}`);
    await page.getByText('Drafts are built, edited and published on a wider screen; here they are read only.').waitFor();
    // A draft lists every company job, the one the market withholds with "No band".
    await expect.poll(() => cards.count()).toBe(jobs.length);
    expect(await page.getByRole('heading', { name: 'Build from market data' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit the band of/ }).count()).toBe(0);
    await axeClean(page, 'a draft on a phone');

    // Its changes since the live set: none yet, then the one band moved through the API.
    await page.getByRole('tab', { name: 'Changes' }).click();
    const summary = page.getByTestId('band-changes-summary');
    // Job bands and grade bands (G4 in both zones) alike.
    await expect.poll(() => summary.textContent()).toBe(`0 changed · 0 added · 0 removed · ${live.bands.length + live.gradeBands.length} unchanged`);
    await page.getByText('No band changed').waitFor();
    const moved = copy.body.data.bands.find((band) => band.companyJobId === p3.id && band.payZoneId === zones[0]?.id) as Band;
    const usd = (amount: number) => ({ amount: amount * 100, currency: 'USD' });
    expect((await api(`/api/bands/band-sets/${copy.body.data.id}/bands/${moved.id}`, { method: 'PATCH', ifMatch: moved.version, json: { min: usd(100_000), mid: usd(110_000), max: usd(120_000) } })).status).toBe(200);
    await page.reload();
    await page.getByRole('tab', { name: 'Changes' }).click();
    await expect.poll(() => summary.textContent()).toBe(`1 changed · 0 added · 0 removed · ${live.bands.length + live.gradeBands.length - 1} unchanged`);
    const changed = page.getByRole('table', { name: 'Bands that changed' }).locator('tbody tr');
    expect(await changed.count()).toBe(1);
    expect(await changed.first().textContent()).toContain(`${dollars(100_000)} – ${dollars(110_000)} – ${dollars(120_000)}`);
    await expectNoSidewaysScroll(page, 375);
    await axeClean(page, 'the changes on a phone');
    await context.close();
  }, 180_000);

  it('prices a zone paid in its own currency in pounds: chosen on the zone, built at the reference rate, edited in pounds', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/bands/zones`);
    await page.getByRole('button', { name: 'Add a pay zone' }).click();
    const zoneForm = page.getByRole('dialog', { name: 'Add a pay zone' });
    await zoneForm.getByLabel('Name').fill('United Kingdom');
    await zoneForm.getByLabel(/^Differential to the anchor/).fill('-25');
    await zoneForm.getByLabel('Pay currency').selectOption('GBP');
    await zoneForm.getByLabel(/^Country/).fill('gb');
    await zoneForm.getByRole('button', { name: 'Add zone' }).click();
    await expect.poll(async () => (await zonesNow()).find((zone) => zone.name === 'United Kingdom')?.currency).toBe('GBP');
    const uk = (await zonesNow()).find((zone) => zone.name === 'United Kingdom') as Schemas['PayZone'];
    await expect.poll(() => page.locator(`tr[data-pay-zone-id="${uk.id}"]`).textContent()).toContain('GBP');

    const draft = await api<Schemas['BandSetDetail']>('/api/bands/band-sets', { method: 'POST', json: { name: 'Local pay', effectiveDate: '2027-01-01' } });
    const built = await api<Schemas['BandBuildResult']>(`/api/bands/band-sets/${draft.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 }, rounding: 1000 } });
    expect(built.status).toBe(200);
    // The reference rate of the effective date, per dollar, from the forex service; the UK's P3 midpoint is V × rate × 0.75 to the nearest £1,000.
    const converted = await request<{ data: { to: { amount: number } } }>('/api/forex/convert', { method: 'POST', json: { amount: { amount: 1_000_000_000, currency: 'USD' }, to: 'GBP', date: '2027-01-01' } });
    const rate = converted.body.data.to.amount / 1_000_000_000;
    const pounds = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 }).format(value);
    const p3 = (await jobsNow()).find((job) => job.levelId === 'p3') as Schemas['CompanyJob'];
    await page.goto(`${base()}/bands/sets/${draft.body.data.id}`);
    await expect.poll(() => page.locator('th.bands-zone-head', { hasText: 'United Kingdom' }).textContent()).toBe('United Kingdom · GBP');
    await expect.poll(() => bandCell(page, p3.id, uk.id, 'mid').textContent()).toBe(pounds(nearest1000((p50.p3 ?? 0) * rate * 0.75)));

    await page.getByRole('button', { name: `Edit the band of ${p3.title} in United Kingdom` }).click();
    await page.getByLabel(`Minimum of ${p3.title} in United Kingdom (GBP)`).fill('56000');
    await page.getByLabel(`Midpoint of ${p3.title} in United Kingdom (GBP)`).fill('70000');
    await page.getByLabel(`Maximum of ${p3.title} in United Kingdom (GBP)`).fill('84000');
    await page.getByRole('button', { name: `Save the band of ${p3.title} in United Kingdom` }).click();
    await expect.poll(() => bandCell(page, p3.id, uk.id, 'mid').textContent()).toBe(pounds(70_000));
    const saved = (await setNow(draft.body.data.id)).bands.find((band) => band.companyJobId === p3.id && band.payZoneId === uk.id);
    expect(saved?.mid).toEqual({ amount: 7_000_000, currency: 'GBP' });
    await axeClean(page, 'a set with a zone in pounds');
    await context.close();
  }, 180_000);
});
