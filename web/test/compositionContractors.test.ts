import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { newId } from '../../api/src/db/ids.js';
import { jobEnded } from '../../api/src/market/test/requests.js';
import { type TestUser, bearer, createTestCompany, createTestUser, makeVerifiedParticipant, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { startTestServer } from '../../api/test/server.js';
import { demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type Job = components['schemas']['BackgroundJob'];
type Release = components['schemas']['MarketRelease'];

const ANALYST = 'analyst@acme.test';

/** Half a year ago: pay set then is current for a release built today. */
const recently = new Date(Date.now() - 182 * 86_400_000).toISOString().slice(0, 10);

/**
 * Its own server, serving a release of six participating companies alone (the engine's hand-checked
 * market): five with two employees each in the Bay Area (software engineering P3, SaaS), the first
 * of them also with two data-science contractors there, and a fintech with only three contractors
 * in Boston. Employees alone: 5 companies, 10 records. With contractors: 6 companies, 15 records.
 * Counts under 100 are published rounded down to a multiple of five: 5 and 10, then 5 and 15.
 */
describe('data composition with contractors, in a real browser', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let db: Knex;
  let browser: Browser;

  async function hire(companyId: string, count: number, spec: { type: 'full_time' | 'contractor'; family?: string; location?: string }): Promise<void> {
    const now = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const id = newId();
      await db('employees').insert({
        id,
        company_id: companyId,
        employee_number: `P-${id.slice(-10)}`,
        title: 'Contributor',
        job_family_id: spec.family ?? 'software_engineering',
        level_id: 'p3',
        location_id: spec.location ?? 'us_sf_bay_area',
        country_code: 'US',
        currency: 'USD',
        employment_type: spec.type,
        status: 'active',
        created_at: now,
        updated_at: now,
      });
      await db('compensation_records').insert({ id: newId(), company_id: companyId, employee_id: id, type: 'base_salary', amount: (100_000 + 1_000 * i) * 100, currency: 'USD', effective_date: recently, reason: 'hire', source: 'manual', created_at: now });
    }
  }

  beforeAll(async () => {
    server = await startTestServer({}, { demoMarketRecords: 4_000 });
    db = await testDb(server.env);
    const call = <T>(path: string, user: TestUser, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url, headers: { ...bearer(user) } });

    const companies: string[] = [];
    // Support staff sit in a company of their own that takes no part.
    const staff = await createTestUser(db, { companyId: (await createTestCompany(db, 'Support desk')).id, internalAdmin: true });
    for (let index = 0; index < 6; index++) {
      const company = await createTestCompany(db, `Contributor ${index}`);
      companies.push(company.id);
      if (index < 5) await hire(company.id, 2, { type: 'full_time' });
      if (index === 0) await hire(company.id, 2, { type: 'contractor', family: 'data_science' });
      if (index === 5) await hire(company.id, 3, { type: 'contractor', location: 'us_boston' });
      await makeVerifiedParticipant(db, { base: server.url, companyId: company.id, staff, domain: `contributor-${index}.test`, profile: { industry: index === 5 ? 'ind_fin_fintech' : 'ind_tech_saas' } });
    }

    // A release of the participants alone (nothing generated), published and so served.
    const started = await call<{ data: Job }>('/api/internal/market/releases', staff, { method: 'POST', json: { seed: 11, records: 0 } });
    const job = await jobEnded(async () => (await call<{ data: Job }>(`/api/background-jobs/${started.body.data.id}`, staff)).body.data);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const draft = (await call<{ data: Release[] }>('/api/internal/market/releases', staff)).body.data.find((release) => release.status === 'draft');
    expect(draft?.source).toMatchObject({ kind: 'participants', contributedCompanies: 6, contributedRecords: 15 });
    const published = await call<{ data: Release }>(`/api/internal/market/releases/${draft?.id}/publish`, staff, { method: 'POST' });
    expect(published.body.data.serving).toBe(true);

    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await db?.destroy();
    await server?.stop();
  });

  it('counts employees by default, employees and contractors once the switch is on, and keeps the choice through a reload and the tabs', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, server.url, ANALYST, demoPassword(server.env));
    await page.goto(`${server.url}/datacomposition/companies`);

    const lede = page.locator('p.lede');
    const contractors = page.getByRole('checkbox', { name: 'Include contractors' });
    const population = page.getByTestId('composition-population');
    const industries = page.getByRole('table', { name: 'By industry' });

    // Before: employees alone, the market as every other screen shows it.
    await expect.poll(() => lede.textContent(), { timeout: 30_000 }).toMatch(/: at least 5 participating companies, 10 employee records\.$/);
    expect(await contractors.isChecked()).toBe(false);
    expect(await population.textContent()).toBe('Counting: Employees');
    expect(await industries.getByRole('columnheader').allTextContents()).toEqual(['Industry', 'Companies', 'Employees', 'Share of records']);
    // The five SaaS companies only: the fintech has contractors and nobody else.
    expect(await industries.getByRole('rowheader').allTextContents()).toEqual(['Enterprise software (SaaS)']);
    expect(new URL(page.url()).search).toBe('');
    expect(await seriousViolations(page)).toEqual([]);

    // From the keyboard: the switch is a labelled checkbox, toggled with Space.
    const asked = page.waitForRequest((sent) => sent.url().includes('/api/benchmarking/data-composition/companies?'));
    await contractors.focus();
    await page.keyboard.press(' ');
    expect(new URL((await asked).url()).searchParams.getAll('employmentTypes')).toEqual(['employee', 'contractor']);
    await expect.poll(() => lede.textContent(), { timeout: 30_000 }).toMatch(/: at least 5 participating companies, 15 employee and contractor records\.$/);
    expect(await contractors.isChecked()).toBe(true);
    expect(await population.textContent()).toBe('Counting: Employees and contractors');
    expect(await industries.getByRole('columnheader').allTextContents()).toEqual(['Industry', 'Companies', 'Employees and contractors', 'Share of records']);
    // The fintech's three contractors of one company: a group below the threshold, with no number.
    expect(await industries.getByRole('rowheader').allTextContents()).toEqual(['Enterprise software (SaaS)', 'Fintech']);
    expect(await industries.getByRole('row', { name: /Fintech/ }).getByRole('cell').allTextContents()).toEqual(['Below the threshold']);
    expect(new URL(page.url()).searchParams.get('employmentTypes')).toBe('employee,contractor');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `composition-contractors-${inject('engine')}`);

    // A reload keeps the choice, from the URL.
    await page.reload();
    await expect.poll(() => lede.textContent(), { timeout: 30_000 }).toMatch(/: at least 5 participating companies, 15 employee and contractor records\.$/);
    expect(await contractors.isChecked()).toBe(true);
    expect(await population.textContent()).toBe('Counting: Employees and contractors');

    // Another tab asks with contractors too: Boston (the fintech's contractors alone) is listed, below the threshold.
    await page.getByRole('navigation', { name: 'Data composition' }).getByRole('link', { name: 'Locations' }).click();
    const locations = page.getByRole('table', { name: 'By location' });
    await locations.getByRole('rowheader', { name: 'Boston' }).waitFor({ timeout: 30_000 });
    expect(await locations.getByRole('row', { name: /Boston/ }).getByRole('cell').allTextContents()).toEqual(['Below the threshold']);
    expect(new URL(page.url()).searchParams.get('employmentTypes')).toBe('employee,contractor');
    expect(await contractors.isChecked()).toBe(true);

    // Switched off again: employees alone, Boston gone, the URL back to the default.
    await contractors.uncheck();
    await expect.poll(() => population.textContent()).toBe('Counting: Employees');
    await expect.poll(() => locations.getByRole('rowheader', { name: 'Boston' }).count(), { timeout: 30_000 }).toBe(0);
    await locations.getByRole('rowheader', { name: 'San Francisco Bay Area' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await context.close();
  }, 180_000);
});
