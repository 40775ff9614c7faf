import { parse } from 'csv-parse/sync';
import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { launchChromium, screenshot, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type Schemas = components['schemas'];

/*
 * A job posting by clicking: a recruiter posts a software engineer (P3) in New York City, Denver and
 * Berlin, sees each range from the live bands, narrows Denver's, saves and exports; a later band set
 * flags the posting; a range beyond its band waits for the approver, who approves it on screen. The bands, set by hand through the API (no demo zone covers Berlin):
 * - New York City $150,000 – $200,000 (already whole thousands);
 * - Denver $120,500.50 – $160,499.99, rounded inwards to $1,000: $121,000 – $160,000;
 * - Germany (EUR) €70,000 – €90,000.
 * The recruiter narrows Denver to $125,000 – $150,000; the next set moves Denver to $130,000 – $170,000,
 * which no longer holds the posted $125,000 minimum.
 */

const PASSWORD = 'postings by hand 2026';
const USD = (major: number) => ({ amount: Math.round(major * 100), currency: 'USD' });
const EUR = (major: number) => ({ amount: Math.round(major * 100), currency: 'EUR' });

describe('a job posting in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let recruiter: TestUser;
  const ids = { job: '', set: '', nyc: '', denver: '', germany: '' };
  const base = () => inject('baseUrl');

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<{ data: T }>(url, { method: init.method ?? 'GET', headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });

  async function signedIn(user: TestUser, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce', locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), user.email, PASSWORD);
    return { context, page };
  }

  const setBand = async (setId: string, zoneId: string, figures: { min: Schemas['Money']; mid: Schemas['Money']; max: Schemas['Money'] }) => {
    const set = await call<Schemas['BandSetDetail']>(admin, `/api/bands/band-sets/${setId}`);
    const band = set.body.data.bands.find((candidate) => candidate.payZoneId === zoneId && candidate.companyJobId === ids.job);
    if (!band) throw new Error(`no band in zone ${zoneId}`);
    expect((await call(admin, `/api/bands/band-sets/${setId}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: figures })).status).toBe(200);
  };
  const publish = async (setId: string) => {
    const current = await call<Schemas['BandSetDetail']>(admin, `/api/bands/band-sets/${setId}`);
    expect((await call(admin, `/api/bands/band-sets/${setId}/publish`, { method: 'POST', ifMatch: current.body.data.version, json: {} })).status).toBe(200);
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Postings Browser Co');
    admin = company.users.admin as TestUser;
    recruiter = company.users.compensation_planner as TestUser;
    await db('users').where({ id: recruiter.id }).update({ password_hash: await hashPassword(PASSWORD), first_name: 'Rita', last_name: 'Recruiter' });
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(PASSWORD) });
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    for (const flag of ['offer_letters', 'bands']) expect((await request(`/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    expect((await call(admin, '/api/bands/pay-zones')).status).toBe(200);
    const zone = async (json: unknown) => {
      const reply = await call<Schemas['PayZone']>(admin, '/api/bands/pay-zones', { method: 'POST', json });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return reply.body.data.id;
    };
    ids.nyc = await zone({ name: 'New York City', rules: [{ country: 'US', metros: ['us_new_york'] }] });
    ids.denver = await zone({ name: 'Denver', rules: [{ country: 'US', metros: ['us_denver'] }] });
    ids.germany = await zone({ name: 'Germany', rules: [{ country: 'DE' }], currency: 'EUR' });
    const job = await call<Schemas['CompanyJob']>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', title: 'Software Engineer' } });
    ids.job = job.body.data.id;
    const set = await call<Schemas['BandSetDetail']>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Bands 2026', currency: 'USD' } });
    ids.set = set.body.data.id;
    expect((await call(admin, `/api/bands/band-sets/${ids.set}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } })).status).toBe(200);
    await setBand(ids.set, ids.nyc, { min: USD(150_000), mid: USD(175_000), max: USD(200_000) });
    await setBand(ids.set, ids.denver, { min: USD(120_500.5), mid: USD(140_000), max: USD(160_499.99) });
    await setBand(ids.set, ids.germany, { min: EUR(70_000), mid: EUR(80_000), max: EUR(90_000) });
    await publish(ids.set);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('posts a job in New York City, Denver and Berlin with the bands’ ranges, narrows one, exports, and a band change flags it', { timeout: 600_000 }, async () => {
    const { context, page } = await signedIn(recruiter);
    await page.goto(`${base()}/postings`);
    await page.getByRole('heading', { name: 'No job postings yet' }).waitFor();
    expect(await seriousViolations(page), '/postings empty').toEqual([]);
    await page.getByRole('link', { name: 'New posting' }).click();
    await page.getByRole('heading', { name: 'New job posting' }).waitFor();
    await page.getByLabel('Company job').selectOption(ids.job);
    await page.getByLabel('Benefits and other compensation').fill('Medical, dental and vision cover; 401(k) with a 4% match.');
    await page.getByLabel(/^Employees/).fill('120');
    await page.getByLabel('Location 1').selectOption('us_new_york');
    await page.getByRole('button', { name: 'Add a place' }).click();
    await page.getByLabel('Location 2').selectOption('us_denver');
    await page.getByRole('button', { name: 'Add a place' }).click();
    await page.getByLabel('Location 3').selectOption('de_berlin');

    const preview = page.getByRole('region', { name: 'Ranges and checks' });
    const posted = (place: string) => preview.locator(`article[data-place="${place}"]`).getByTestId('posted-range');
    await expect.poll(() => posted('Berlin, BE, DE').textContent().catch(() => null)).toBe('€70,000 – €90,000');
    expect(await posted('New York City, NY').textContent()).toBe('$150,000 – $200,000');
    expect(await posted('Denver, CO').textContent()).toBe('$121,000 – $160,000');

    // Denver narrowed within its band.
    await page.getByLabel('Minimum 2').fill('125000');
    await page.getByLabel('Maximum 2').fill('150000');
    await expect.poll(() => posted('Denver, CO').textContent()).toBe('$125,000 – $150,000');
    await preview.getByText('Meets every rule in force').waitFor();
    await preview.getByText(/Denver, CO: \$125,000 to \$150,000 a year \(base salary\)/).waitFor();
    await preview.getByText('New York City').first().waitFor();
    expect(await seriousViolations(page), 'the editor').toEqual([]);
    await screenshotsAtBothWidths(page, 'posting-editor');

    await page.getByRole('button', { name: 'Create posting' }).click();
    await page.waitForURL((url) => /^\/postings\/[^/]+$/.test(url.pathname) && url.pathname !== '/postings/new');
    const postingId = page.url().split('/').pop() ?? '';
    await page.getByText('Ranges from the band set Bands 2026').waitFor();
    const saved = await call<Schemas['JobPosting']>(admin, `/api/postings/${postingId}`);
    expect(saved.body.data.locations.map((location) => [location.name, location.range?.min.amount, location.range?.max.amount])).toEqual([
      ['New York City, NY', 15_000_000, 20_000_000],
      ['Denver, CO', 12_500_000, 15_000_000],
      ['Berlin, BE, DE', 7_000_000, 9_000_000],
    ]);

    await page.getByRole('link', { name: 'All postings' }).click();
    await page.waitForURL((url) => url.pathname === '/postings');
    await page.getByRole('link', { name: 'Software Engineer' }).waitFor({ timeout: 15_000 }).catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await page.evaluate(() => document.body.innerText)}`);
    });
    await page.getByRole('button', { name: 'Export for the ATS' }).click();
    await page.getByText('The export has started.').waitFor();
    // The file the recruiter downloads: one row per place, Denver as narrowed.
    let exported: Schemas['BackgroundJob'] | undefined;
    await expect
      .poll(async () => {
        exported = (await call<Schemas['BackgroundJob'][]>(recruiter, '/api/me/background-jobs', { method: 'POST', json: {} })).body.data.find((job) => job.type === 'postingsExport');
        return exported?.status;
      }, { timeout: 60_000 })
      .toBe('succeeded');
    const file = await (await fetch(`${base()}/api/downloads/${exported?.downloadId ?? ''}`, { headers: bearer(recruiter) })).text();
    const rows = parse(file, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.Location, row.Currency, row.Minimum, row.Maximum])).toEqual([
      ['New York City, NY', 'USD', '150000.00', '200000.00'],
      ['Denver, CO', 'USD', '125000.00', '150000.00'],
      ['Berlin, BE, DE', 'EUR', '70000.00', '90000.00'],
    ]);

    // A later band set moves Denver to $130,000 – $170,000: the posting is flagged.
    const copy = await call<Schemas['BandSetDetail']>(admin, `/api/bands/band-sets/${ids.set}/duplicate`, { method: 'POST', json: { name: 'Bands 2027' } });
    await setBand(copy.body.data.id, ids.denver, { min: USD(130_000), mid: USD(150_000), max: USD(170_000) });
    await publish(copy.body.data.id);
    await expect
      .poll(async () => (await call<Schemas['JobPosting'][]>(admin, '/api/postings?stale=true')).body.data.length, { timeout: 60_000 })
      .toBe(1);
    await page.goto(`${base()}/postings?stale=true`);
    await page.getByText('Bands changed').waitFor();
    await page.getByRole('link', { name: 'Software Engineer' }).click();
    await page.getByText('The live band set “Bands 2027” no longer holds: Denver, CO: $125,000 – $150,000 is outside the new band $130,000 – $170,000.', { exact: false }).waitFor();
    // The editor's own checks say it for the place, with the live band.
    await page.getByText('The live band set “Bands 2027” no longer holds the range $125,000 – $150,000: the live band is $130,000 – $170,000.', { exact: false }).waitFor();
    await screenshot(page, 'posting-stale-1280');
    await context.close();

    // On a phone: the list reads without sideways scrolling.
    const phone = await signedIn(recruiter, 375);
    await phone.page.goto(`${base()}/postings`);
    await phone.page.getByText('Bands changed').waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await seriousViolations(phone.page), '/postings at 375 px').toEqual([]);
    await screenshot(phone.page, 'postings-list-375');

    // On a phone: a remote posting's hiring region, with the checks following it live.
    await phone.page.goto(`${base()}/postings/new`);
    await phone.page.getByLabel('Company job').selectOption(ids.job);
    await phone.page.getByLabel(/^Employees/).fill('120');
    await phone.page.getByLabel('Location 1').selectOption('us_denver');
    await phone.page.getByLabel('Remote: the role may be filled from the hiring regions below').check();
    await phone.page.getByLabel('Hiring region 1 country').fill('US');
    await phone.page.getByLabel('Hiring region 1 state').fill('CA');
    // California (15 employees or more) covers remote roles that could be filled there: 120 ≥ 15.
    await phone.page.getByText('California applies to employers with 15 or more employees; this employer has 120; it covers remote roles that could be filled there.').waitFor();
    await phone.page.getByLabel('Hiring region 1 state').fill('WA');
    await phone.page.getByText('Washington applies to employers with 15 or more employees; this employer has 120; it covers remote roles that could be filled there.').waitFor();
    expect(await phone.page.getByText(/^California applies to employers/).count()).toBe(0);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await seriousViolations(phone.page), 'the editor with hiring regions at 375 px').toEqual([]);
    await screenshot(phone.page, 'posting-remote-375');
    await phone.context.close();

    // A range beyond its band waits for the offer approval rule's approver, who approves it in the editor.
    expect((await call(admin, '/api/offers/approval-settings', { method: 'PUT', ifMatch: 0, json: { rules: [{ mode: 'ordered', approverUserIds: [admin.id] }] } })).status).toBe(200);
    // $110,000 is below Denver's live band minimum of $130,000.
    const beyond = await call<Schemas['JobPosting']>(recruiter, '/api/postings', { method: 'POST', json: { companyJobId: ids.job, title: 'Engineer beyond the band', locations: [{ locationId: 'us_denver', min: 11_000_000, max: 15_000_000 }], employerHeadcount: 120 } });
    expect(beyond.status).toBe(201);
    expect((await call<Schemas['JobPosting']>(recruiter, `/api/postings/${beyond.body.data.id}/transitions`, { method: 'POST', ifMatch: 1, json: { action: 'open' } })).body.data.state).toBe('pendingApproval');
    const approver = await signedIn(admin);
    await approver.page.goto(`${base()}/postings/${beyond.body.data.id}`);
    await approver.page.getByText('A range goes beyond its band: the posting opens once an approver of the offer approval rule approves it (0 of 1 so far).').waitFor();
    expect(await seriousViolations(approver.page), 'a posting waiting for approval').toEqual([]);
    await approver.page.getByRole('button', { name: 'Approve the range' }).click();
    await approver.page.getByText('The posting is open.').waitFor();
    expect((await call<Schemas['JobPosting']>(admin, `/api/postings/${beyond.body.data.id}`)).body.data.state).toBe('open');
    await approver.context.close();
  });
});
