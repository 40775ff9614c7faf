import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { launchChromium, seriousViolations, signInThroughProvider } from './browser.js';

type Schemas = components['schemas'];

/*
 * Workflow settings by clicking: the admin names the analyst as the approver of band sets on
 * /settings/workflows; publishing a draft then waits for the analyst, who approves it on the band
 * set's page, and only then is it live. The admin checks a chains file with two chains for the whole
 * company, the second naming a stranger (each problem's line and column are shown, nothing imported), and lists the company on Bolsa de Madrid (XMAD)
 * with the searchable stock-exchange picker.
 */

const PASSWORD = 'workflows by hand 2026';

describe('workflow settings in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let analyst: TestUser;
  let bandSetId = '';
  const base = () => inject('baseUrl');

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<{ data: T }>(url, { method: init.method ?? 'GET', headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });

  async function signedIn(user: TestUser): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', locale: 'en-US' });
    const page = await context.newPage();
    // A loaded two-core machine can be slow to answer; nothing here is a timing assertion.
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), user.email, PASSWORD);
    return { context, page };
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Workflows Browser Co');
    admin = company.users.admin as TestUser;
    analyst = company.users.analyst as TestUser;
    const password = await hashPassword(PASSWORD);
    for (const [user, first, last] of [
      [admin, 'Ada', 'Admin'],
      [analyst, 'Ana', 'Analyst'],
    ] as const) {
      await db('users').where({ id: user.id }).update({ password_hash: password, first_name: first, last_name: last });
    }
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    // A draft band set with a band for Software Engineering P3, ready to publish.
    expect((await call(admin, '/api/bands/pay-zones')).status).toBe(200);
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    const set = await call<Schemas['BandSetDetail']>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: '2027 bands', currency: 'USD' } });
    const built = await call<Schemas['BandBuildResult']>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status).toBe(200);
    bandSetId = set.body.data.id;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('names a band-set approver; publishing then waits for them, and their approval makes the set live', { timeout: 600_000 }, async () => {
    const { context, page } = await signedIn(admin);
    await page.goto(`${base()}/settings/workflows`);
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    const bands = page.getByRole('region', { name: 'Band set publication' });
    await bands.getByText('No approvers: publishing a band set makes it live at once.').waitFor();
    expect(await seriousViolations(page), '/settings/workflows').toEqual([]);
    // The people load after the settings: ask until Ana is among the choices.
    const picker = bands.getByLabel('Add an approver to band set approvers');
    await expect.poll(() => picker.locator('option').allTextContents()).toContain(`Ana Analyst (${analyst.email})`);
    await picker.selectOption({ label: `Ana Analyst (${analyst.email})` });
    await bands.getByRole('button', { name: 'Add' }).click();
    await bands.getByRole('button', { name: 'Save band set approvers' }).click();
    await page.getByText('Band sets now need approval before they go live.').waitFor();
    expect(await bands.getByRole('list', { name: 'Band set approvers' }).textContent()).toContain('Ana Analyst');

    // Publishing now submits the set to Ana.
    await page.goto(`${base()}/bands/sets/${bandSetId}`);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish “2027 bands”' }).getByRole('button', { name: 'Publish' }).click();
    await page.getByText('“2027 bands” waits for approval before it goes live.').waitFor();
    const waiting = page.getByRole('region', { name: 'Waiting for approval' });
    await waiting.getByText('Waiting for Ana Analyst.').waitFor();
    // Not the admin's decision to make.
    expect(await waiting.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    const pending = await call<Schemas['BandSetDetail']>(admin, `/api/bands/band-sets/${bandSetId}`);
    expect(pending.body.data.status).toBe('pendingApproval');
    await context.close();

    // Ana approves on the band set's page; it is live.
    const second = await signedIn(analyst);
    await second.page.goto(`${base()}/bands/sets/${bandSetId}`);
    const asked = second.page.getByRole('region', { name: 'Waiting for approval' });
    await asked.getByText('Ana Analyst — to decide now').waitFor();
    expect(await seriousViolations(second.page), 'a band set waiting for approval').toEqual([]);
    await asked.getByRole('button', { name: 'Approve' }).click();
    await second.page.getByText('“2027 bands” is live.').waitFor();
    await expect.poll(async () => (await call<Schemas['BandSetDetail']>(admin, `/api/bands/band-sets/${bandSetId}`)).body.data.status).toBe('live');
    const history = await call<Schemas['BandSetHistoryEntry'][]>(admin, `/api/bands/band-sets/${bandSetId}/history`);
    expect(history.body.data.map((entry) => [entry.action, entry.actor?.userId ?? null])).toEqual([
      ['submit', admin.id],
      ['approve', analyst.id],
    ]);
    await second.context.close();
  });

  it('shows the line and column of every problem in a chains file, and imports nothing', { timeout: 300_000 }, async () => {
    const { context, page } = await signedIn(admin);
    await page.goto(`${base()}/settings/workflows`);
    const file = page.getByRole('region', { name: 'Approval chains from a CSV file' });
    await file.getByText('Choose a CSV file').waitFor();
    const csv = ['Manager email,Approver 1 email', `,${analyst.email}`, ',stranger@elsewhere.test'].join('\n');
    await file.locator('input[type="file"]').setInputFiles({ name: 'chains.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await file.getByRole('button', { name: 'Check the file' }).click();
    const outcome = file.getByRole('status');
    await outcome.getByText('2 problems in 2 lines; nothing was imported.').waitFor();
    const rows = outcome.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual(['3', 'Manager email', 'The whole company already has a chain on line 2.']);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['3', 'Approver 1 email', 'No user of the company has the e-mail stranger@elsewhere.test.']);
    const stored = await call<Schemas['WorkflowSettings']>(admin, '/api/workflow-settings');
    expect(stored.body.data.meritChains).toEqual([]);
    await context.close();
  });

  it('lists the company on a stock exchange found by searching', { timeout: 300_000 }, async () => {
    const { context, page } = await signedIn(admin);
    await page.goto(`${base()}/settings/company-info`);
    const picker = page.getByRole('group', { name: 'Stock exchange' });
    await picker.getByText('Not listed on a stock exchange.').waitFor();
    await picker.getByLabel('Search stock exchanges').fill('madrid');
    await expect.poll(() => picker.getByLabel('Listed on').locator('option').allTextContents()).toEqual(['Not listed', 'Bolsa de Madrid — XMAD (part of BMEX) · ES']);
    await picker.getByLabel('Listed on').selectOption('XMAD');
    await picker.getByText('Listed on Bolsa de Madrid (MIC XMAD, ES).').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Company settings saved.').waitFor();
    const settings = await call<Schemas['CompanySettings']>(admin, '/api/company/settings');
    expect(settings.body.data.stockExchange).toBe('XMAD');
    await page.reload();
    await page.getByRole('group', { name: 'Stock exchange' }).getByText('Listed on Bolsa de Madrid (MIC XMAD, ES).').waitFor();
    expect(await seriousViolations(page), '/settings/company-info').toEqual([]);
    await context.close();
  });
});
