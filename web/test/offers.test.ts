import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { pdfText } from '../../api/src/documents/test/pdfText.js';
import { insertEmployee } from '../../api/src/team/test/fixtures.js';
import { launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

type Schemas = components['schemas'];

/*
 * An offer by clicking, in a company of its own: a recruiter builds an offer above the band with an
 * alternative package, an approver approves it, the candidate opens the letter on a phone (375 px),
 * moves the valuation slider, compares the two packages and accepts one — and the recruiter's
 * screen shows it accepted without a reload. Every expected figure is worked out here by hand:
 *
 * - Band of Software Engineering P3 (the one catch-all zone): $100,000 / $120,000 / $140,000.
 *   A base of $150,000: compa-ratio 150 ÷ 120 = 1.25, range penetration (150 − 100) ÷ (140 − 100) = 125%, above the band.
 * - Share price $5, exercise price $1 (the options' default strike), valuation $50,000,000.
 * - The offer: 4,000 options, vesting over 48 months after a 12-month cliff, so all of them within four years.
 *   At 1× (a share $5): 4,000 × (5 − 1) = $16,000 over four years.
 *   At 2× (a share $10): 4,000 × (10 − 1) = $36,000; the company worth 2 × $50,000,000 = $100,000,000.
 *   At 0× (a share $0): worth $0 — the floor, which the letter says.
 * - The alternative "More equity": 8,000 options at the same strike; at 2×: 8,000 × 9 = $72,000.
 */

const PASSWORD = 'offers by hand 2026';
const START = '2031-03-03';
const EXPIRES = '2031-02-14';

const dollars = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);

describe('an offer in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let company: TestCompany;
  let recruiter: TestUser;
  let approver: TestUser;
  let candidateId = '';
  const candidateEmail = `ada-${Date.now()}@candidates.test`;
  const base = () => inject('baseUrl');

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<{ data: T }>(url, { method: init.method ?? 'GET', headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });

  async function signedIn(user: TestUser, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce', locale: 'en-US' });
    const page = await context.newPage();
    // A loaded two-core machine can be slow to answer; nothing here is a timing assertion.
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), user.email, PASSWORD);
    return { context, page };
  }

  async function axeClean(page: Page, where: string) {
    expect(await seriousViolations(page), where).toEqual([]);
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Offers Browser Co');
    const admin = company.users.admin as TestUser;
    recruiter = company.users.compensation_planner as TestUser;
    approver = admin;
    const password = await hashPassword(PASSWORD);
    for (const [user, first, last] of [
      [recruiter, 'Rita', 'Recruiter'],
      [approver, 'Abe', 'Approver'],
    ] as const) {
      await db('users').where({ id: user.id }).update({ password_hash: password, first_name: first, last_name: last });
    }
    // Offer letters, salary bands (the band the offer is checked against) and live updates, switched on by support.
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    for (const flag of ['offer_letters', 'bands', 'multiplayer', 'team_view']) {
      const reply = await request(`/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
      expect(reply.status, flag).toBe(200);
    }

    // The live band: SE P3, set by hand to $100k / $120k / $140k, published.
    const money = (value: number) => ({ amount: value * 100, currency: 'USD' });
    expect((await call(admin, '/api/bands/pay-zones')).status).toBe(200);
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    const set = await call<Schemas['BandSetDetail']>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Offer bands', currency: 'USD' } });
    const built = await call<Schemas['BandBuildResult']>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status).toBe(200);
    const band = built.body.data.bandSet.bands.find((entry) => entry.levelId === 'p3');
    if (!band) throw new Error('no P3 band built');
    expect((await call(admin, `/api/bands/band-sets/${set.body.data.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: money(100_000), mid: money(120_000), max: money(140_000) } })).status).toBe(200);
    const current = await call<Schemas['BandSetDetail']>(admin, `/api/bands/band-sets/${set.body.data.id}`);
    expect((await call(admin, `/api/bands/band-sets/${set.body.data.id}/publish`, { method: 'POST', ifMatch: current.body.data.version, json: {} })).status).toBe(200);

    // Today's share price, the options' exercise price and the valuation the letter's slider starts from.
    const settings = await call(admin, '/api/company/settings', { method: 'PATCH', ifMatch: 1, json: { sharePrice: 5, exercisePrice: 1, valuation: 50_000_000 } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);

    // Out-of-band offers go to the approver.
    const rules = await call(admin, '/api/offers/approval-settings', { method: 'PUT', ifMatch: 0, json: { rules: [{ mode: 'ordered', approverUserIds: [approver.id] }] } });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);

    const candidate = await call<{ id: string }>(admin, '/api/candidates', { method: 'POST', json: { email: candidateEmail, firstName: 'Ada', lastName: 'Lovelace', title: 'Software engineer' } });
    expect(candidate.status).toBe(201);
    candidateId = candidate.body.data.id;
    // The hiring manager the recruiter names: an employee of the company.
    await insertEmployee(db, company.id, { firstName: 'Maya', lastName: 'Manager', title: 'Engineering manager', department: 'Engineering', startDate: '2020-01-01' });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('builds an out-of-band offer, has it approved, and the candidate accepts it on a phone while the recruiter watches', { timeout: 600_000 }, async () => {
    // ── the recruiter builds the offer ──────────────────────────────────────────────────────
    const { context: recruiterContext, page } = await signedIn(recruiter);
    await page.goto(`${base()}/offers`);
    await page.getByRole('heading', { name: 'No offers yet' }).waitFor();
    await axeClean(page, '/offers empty');
    await page.getByRole('link', { name: 'New offer' }).click();
    await page.getByRole('heading', { name: 'New offer' }).waitFor();
    await page.getByLabel('Candidate').selectOption(candidateId);
    await page.getByLabel('Job family').selectOption('software_engineering');
    await page.getByLabel(/^Level/).selectOption('p3');
    await page.getByLabel('Location').selectOption('us_sf_bay_area');
    await page.getByLabel('Start date').fill(START);
    await page.getByLabel('Offer expires on').fill(EXPIRES);
    await page.getByLabel(/^Hiring manager/).fill('Maya');
    await page.getByRole('list', { name: 'Matching people' }).getByRole('button', { name: /Maya Manager/ }).click();
    await page.getByTestId('hiring-manager').getByText('Maya Manager').waitFor();
    const main = page.getByRole('group', { name: 'Package' });
    await main.getByLabel('Base salary (a year)').fill('150000');
    await main.getByLabel('Bonus target (% of base)').fill('10');
    await main.getByLabel('Sign-on bonus').fill('10000');
    await main.getByLabel('Equity').selectOption('option');
    await main.getByLabel('Shares').fill('4000');

    // The checks beside the form: above the band, so approval is required.
    const checks = page.getByRole('complementary', { name: 'Checks' });
    await checks.getByText('Approval required').waitFor();
    await expect.poll(() => checks.getByTestId('compa-ratio').textContent()).toBe('1.25');
    expect(await checks.getByTestId('penetration').textContent()).toBe('125.0%');
    expect(await checks.locator('[data-check="band"]').first().textContent()).toContain('Above the band');
    expect(await checks.locator('[data-check="band"]').first().textContent()).toContain(`${dollars(100_000)} – ${dollars(140_000)}`);
    await checks.locator('[data-check="market"]').getByText(/Sample:/).first().waitFor();

    // An alternative with more equity and less cash: $135,000 is inside the band.
    await page.getByRole('button', { name: 'Add an alternative package' }).click();
    const alternative = page.getByRole('group', { name: 'Alternative 1' });
    await alternative.getByLabel('Name of this package').fill('More equity');
    await alternative.getByLabel('Base salary (a year)').fill('135000');
    await alternative.getByLabel('Shares').fill('8000');
    await checks.getByRole('heading', { name: /Band position: More equity/ }).waitFor();
    await axeClean(page, 'the builder');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.waitForURL((url) => /^\/offers\/[^/]+$/.test(url.pathname) && url.pathname !== '/offers/new');
    const offerId = page.url().split('/').pop() ?? '';
    await page.getByTestId('offer-state').getByText('Draft').waitFor();
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    await page.getByTestId('offer-state').getByText('Pending approval').waitFor();
    await axeClean(page, 'the offer, pending approval');

    // ── the approver approves ───────────────────────────────────────────────────────────────
    const { context: approverContext, page: approverPage } = await signedIn(approver);
    await approverPage.goto(`${base()}/offers/${offerId}`);
    await approverPage.getByTestId('offer-state').getByText('Pending approval').waitFor();
    await approverPage.getByRole('button', { name: 'Approve' }).click();
    await approverPage.getByTestId('offer-state').getByText('Approved').waitFor();
    await approverContext.close();

    // The recruiter's screen hears of it and offers to send.
    await page.getByTestId('offer-state').getByText('Approved').waitFor();
    await page.getByRole('button', { name: 'Send to the candidate' }).click();
    const linkField = page.getByLabel('The candidate’s link');
    await linkField.waitFor();
    const link = new URL(await linkField.inputValue());
    expect(link.pathname).toMatch(/^\/offer-letter\/[A-Za-z0-9_-]+$/);
    await page.getByTestId('offer-state').getByText('Sent').waitFor();

    // ── the candidate, on a phone, with no sign-in ─────────────────────────────────────────
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, reducedMotion: 'reduce', locale: 'en-US', isMobile: true, hasTouch: true });
    const letter = await phone.newPage();
    letter.setDefaultTimeout(60_000);
    await letter.goto(`${base()}${link.pathname}`);
    await letter.getByRole('heading', { name: /^Welcome, Ada: your offer to join as / }).waitFor();
    await screenshot(letter, 'offer-letter-opened-375');
    // Nothing runs off the side of the phone's screen.
    expect(await letter.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await axeClean(letter, 'the letter at 375 px');

    // The recruiter sees the letter opened, live.
    await page.getByTestId('candidate-activity').getByText(/^Opened/).waitFor();

    // Opened once, the letter reads offline too: the device keeps that letter, and nothing else of the API.
    const welcome = letter.getByRole('heading', { name: /^Welcome, Ada: your offer to join as / });
    await letter.evaluate(() => navigator.serviceWorker.ready);
    await letter.reload();
    await expect.poll(() => letter.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await welcome.waitFor();
    await phone.setOffline(true);
    await letter.reload();
    await welcome.waitFor();
    await letter.getByText(/^Offline: this is the copy kept on this device/).waitFor();
    const kept = await letter.evaluate(async () => {
      const urls: string[] = [];
      for (const name of (await caches.keys()).filter((candidate) => !candidate.startsWith('workbox-precache'))) for (const entry of await (await caches.open(name)).keys()) urls.push(new URL(entry.url).pathname);
      return urls;
    });
    // The letter, and the currencies' reference table that amounts are written with; nothing else.
    expect(kept.sort()).toEqual(['/api/currencies', `/api/offer-letters/${link.pathname.split('/').pop() ?? ''}`]);
    await phone.setOffline(false);
    await letter.reload();
    await welcome.waitFor();

    // The slider: today 4,000 × ($5 − $1) = $16,000 over four years; at 2×, 4,000 × ($10 − $1) = $36,000.
    const fourYears = letter.getByTestId('equity-four-years');
    expect(await fourYears.textContent()).toBe(dollars(16_000));
    const slider = letter.getByRole('slider', { name: 'Company valuation' });
    await slider.focus();
    await letter.keyboard.press('Home');
    await expect.poll(() => fourYears.textContent()).toBe(dollars(0));
    await letter.getByText(/The value never goes below zero/).first().waitFor();
    for (let step = 0; step < 4; step += 1) await letter.keyboard.press('ArrowRight');
    await expect.poll(() => fourYears.textContent()).toBe(dollars(36_000));
    expect(await letter.getByTestId('slider-setting').textContent()).toContain(`company worth ${dollars(100_000_000)}`);

    // Comparing the packages at 2×: the alternative's 8,000 options are worth 8,000 × $9 = $72,000.
    const compare = letter.getByRole('table', { name: 'Packages compared' });
    const equityRow = compare.getByRole('row', { name: /Equity over four years at 2×/ });
    expect(await equityRow.locator('[data-package]').allTextContents()).toEqual([dollars(36_000), dollars(72_000)]);
    await compare.getByRole('button', { name: /Choose\s+More equity/ }).click();
    await letter.getByRole('heading', { name: 'Your package: More equity' }).waitFor();
    await axeClean(letter, 'the letter with the slider moved');
    await screenshot(letter, 'offer-letter-375');

    // Accepting: the typed name signs.
    await letter.getByLabel('Your full name').fill('Ada Lovelace');
    await letter.getByRole('button', { name: 'Accept and sign' }).click();
    await letter.getByRole('heading', { name: 'You accepted this offer' }).waitFor();
    expect(await letter.getByRole('status').filter({ hasText: 'You accepted this offer' }).textContent()).toContain('“Ada Lovelace”');

    // ── the recruiter's screen shows it accepted, without a reload ─────────────────────────
    await page.getByTestId('offer-state').getByText('Accepted').waitFor();
    await page.getByText(/Accepted by “Ada Lovelace”.*More equity/).waitFor();
    // The package accepted is the one the page shows: $135,000 and 8,000 options, not the offer's $150,000 and 4,000.
    const agreed = page.getByRole('region', { name: 'Package accepted: More equity' });
    await agreed.waitFor();
    expect(await agreed.locator('dt:has-text("Base salary") + dd').textContent()).toBe(dollars(135_000));
    expect(await agreed.locator('dt:has-text("Equity") + dd').textContent()).toBe('8,000 options');
    // Checks show the approval as recorded, not waiting.
    const accepted = page.getByRole('complementary', { name: 'Checks' });
    await accepted.getByText('Approved', { exact: true }).first().waitFor();
    expect(await accepted.getByTestId('approver-decision').allTextContents()).toEqual([expect.stringMatching(/^Approved · /)]);
    expect(await accepted.getByTestId('approval-status').textContent()).not.toContain('Waiting');
    // The hire starts on the start date, not today.
    expect(await page.getByTestId('hire-status').textContent()).toContain('Starting on Mar 3, 2031, reporting to Maya Manager');
    // The PDF states the package accepted.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'PDF' }).click()]);
    const text = pdfText(readFileSync(await download.path()));
    expect(text).toContain('Your package: More equity');
    expect(text).toContain(dollars(135_000));
    expect(text).toContain('8,000 shares');
    expect(text).not.toContain(dollars(150_000));
    await axeClean(page, 'the accepted offer');

    // The team overview lists her as starting soon, not in the head count.
    await page.goto(`${base()}/team`);
    const soon = page.getByRole('region', { name: 'Starting soon' });
    const ada = soon.getByTestId('starting-soon-hire').filter({ hasText: 'Ada Lovelace' });
    await ada.getByText('Starting on Mar 3, 2031').waitFor();
    expect(await ada.textContent()).toContain('reports to Maya Manager');
    // Maya is the head count: Ada is not in it until her first day.
    await expect.poll(() => page.getByTestId('headcount').textContent()).toBe('1');
    await axeClean(page, '/team with a future hire');

    // The link no longer opens the letter once it is answered.
    const again = await phone.newPage();
    await again.goto(`${base()}${link.pathname}`);
    await again.getByRole('heading', { name: 'This offer is no longer available' }).waitFor();
    await axeClean(again, 'a closed letter');

    // The list says it too.
    await page.goto(`${base()}/offers?state=accepted`);
    await page.locator(`[data-offer-id="${offerId}"]`).getByText('Accepted', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByText(/^The export has started/).waitFor();

    // Who approves: the rule set up above, its approver chosen.
    await page.getByRole('link', { name: 'Approvals' }).click();
    const rule = page.getByRole('group', { name: 'Rule 1' });
    await rule.waitFor();
    // The rule can show before the company's people (the select's options) have arrived: asked until they have.
    const chosen = () => rule.getByLabel(/^Approvers/).evaluate((select: HTMLSelectElement) => Array.from(select.selectedOptions, (option) => option.textContent));
    await expect.poll(chosen).toEqual([`Abe Approver (${approver.email})`]);
    await axeClean(page, '/offers/approvals');
    await phone.close();
    await recruiterContext.close();
  });

  it('submits and rescinds several offers from the list’s selection, naming the one changed meanwhile', { timeout: 300_000 }, async () => {
    // Four drafts in range, each for a candidate of its own, made through the API.
    const names = ['Alan Turing', 'Barbara Liskov', 'Claude Shannon', 'Donald Knuth'];
    const drafts: Schemas['Offer'][] = [];
    for (const [index, name] of names.entries()) {
      const [firstName, lastName] = name.split(' ') as [string, string];
      const person = await call<{ id: string }>(recruiter, '/api/candidates', { method: 'POST', json: { email: `bulk-${index}-${Date.now()}@candidates.test`, firstName, lastName } });
      expect(person.status).toBe(201);
      const input = { candidateId: person.body.data.id, jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_sf_bay_area', title: `Bulk engineer ${index + 1}`, startDate: START, expiresOn: EXPIRES, currency: 'USD', package: { base: 120_000_00 + index * 1_000_00 } };
      const draft = await call<Schemas['Offer']>(recruiter, '/api/offers', { method: 'POST', json: input });
      expect(draft.status, JSON.stringify(draft.body)).toBe(201);
      drafts.push(draft.body.data);
    }
    const { context, page } = await signedIn(recruiter);
    await page.goto(`${base()}/offers?state=draft`);
    const grid = page.getByRole('grid', { name: 'Offers, newest first' });
    await grid.getByRole('row', { name: /Donald Knuth/ }).waitFor();
    // Someone else edits Claude's offer between the list's read and the bulk write (the list follows
    // changes live, so the edit is made as the request leaves the browser, before it reaches the server).
    const claude = drafts[2] as Schemas['Offer'];
    await page.route('**/api/offers/bulk-actions', async (route) => {
      expect((await call(recruiter, `/api/offers/${claude.id}`, { method: 'PATCH', ifMatch: claude.version, json: { title: 'Bulk engineer, renamed' } })).status).toBe(200);
      await route.continue();
    }, { times: 1 });
    // A click on the first, Shift+click on the last selects the four.
    await grid.getByRole('checkbox', { name: 'Select Alan Turing' }).click();
    await grid.getByRole('checkbox', { name: 'Select Donald Knuth' }).click({ modifiers: ['Shift'] });
    await page.getByText('4 selected').waitFor();
    await page.getByRole('button', { name: 'Submit 4 offers' }).click();
    const report = page.locator('.offers-bulk-report');
    await report.getByText('3 offers submitted. 1 offer refused, unchanged:').waitFor();
    expect(await report.locator(`[data-refused-offer="${claude.id}"]`).textContent()).toBe('Claude Shannon: Someone else changed this offer first. Reload and try again.');
    await axeClean(page, '/offers after a bulk submit');

    // The approved ones: Ctrl+click picks two of them, and rescinding asks why.
    await page.goto(`${base()}/offers?state=approved`);
    await grid.getByRole('row', { name: /Barbara Liskov/ }).waitFor();
    await grid.getByRole('row', { name: /Alan Turing/ }).locator('[data-col="title"]').click({ modifiers: ['Control'] });
    await grid.getByRole('row', { name: /Barbara Liskov/ }).locator('[data-col="title"]').click({ modifiers: ['Control'] });
    await page.getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Rescind 2 offers…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rescind 2 offers?' });
    await expect.poll(() => dialog.getByRole('button', { name: 'Rescind', exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel(/^Why/).fill('The team was closed');
    await dialog.getByRole('button', { name: 'Rescind', exact: true }).click();
    await report.getByText('2 offers rescinded.').waitFor();
    const alan = await call<Schemas['Offer']>(recruiter, `/api/offers/${(drafts[0] as Schemas['Offer']).id}`);
    expect(alan.body.data.state).toBe('rescinded');
    expect(alan.body.data.history.at(-1)).toMatchObject({ action: 'rescind', comment: 'The team was closed' });
    const donald = await call<Schemas['Offer']>(recruiter, `/api/offers/${(drafts[3] as Schemas['Offer']).id}`);
    expect(donald.body.data.state).toBe('approved');
    await screenshot(page, 'offers-bulk-1280');
    await context.close();

    // On a phone the list is one card per offer.
    const phone = await signedIn(recruiter, 375);
    await phone.page.goto(`${base()}/offers?state=approved`);
    await phone.page.getByRole('region', { name: 'Offers, newest first cards' }).getByRole('link', { name: 'Donald Knuth' }).waitFor();
    await axeClean(phone.page, '/offers at 375 px');
    await phone.context.close();
  });

  it('lists at /select-offer only the offers made to the signed-in candidate’s own e-mail, each opening its letter', { timeout: 300_000 }, async () => {
    // Two sent offers made through the API: one to Ada, one to Grace (another candidate of the same company).
    const grace = await call<{ id: string }>(recruiter, '/api/candidates', { method: 'POST', json: { email: `grace-${Date.now()}@candidates.test`, firstName: 'Grace', lastName: 'Hopper' } });
    expect(grace.status).toBe(201);
    const sendOffer = async (candidate: string, title: string) => {
      const input = { candidateId: candidate, jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_sf_bay_area', title, startDate: START, expiresOn: EXPIRES, currency: 'USD', package: { base: 130_000_00 } };
      const draft = await call<Schemas['Offer']>(recruiter, '/api/offers', { method: 'POST', json: input });
      expect(draft.status, JSON.stringify(draft.body)).toBe(201);
      const approved = await call<Schemas['Offer']>(recruiter, `/api/offers/${draft.body.data.id}/submit`, { method: 'POST', ifMatch: draft.body.data.version, json: {} });
      expect(approved.body.data.state).toBe('approved');
      const sent = await call<Schemas['Offer']>(recruiter, `/api/offers/${draft.body.data.id}/send`, { method: 'POST', ifMatch: approved.body.data.version, json: {} });
      expect(sent.status).toBe(200);
    };
    await sendOffer(candidateId, 'Staff Engineer');
    await sendOffer(grace.body.data.id, 'Principal Engineer');

    // Ada signs in with her own e-mail as a candidate of the company.
    const ada = await createTestUser(db, { companyId: company.id, email: candidateEmail, candidate: true });
    await db('users').where({ id: ada.id }).update({ password_hash: await hashPassword(PASSWORD), first_name: 'Ada', last_name: 'Lovelace' });
    const { context, page } = await signedIn(ada, 375);
    await page.goto(`${base()}/select-offer`);
    await page.getByRole('heading', { name: 'Your offers' }).waitFor();
    const offers = page.getByRole('list', { name: 'Offers' });
    await offers.getByRole('heading', { name: /Staff Engineer at Offers Browser Co/ }).waitFor();
    expect(await offers.textContent()).not.toContain('Principal Engineer');
    await axeClean(page, '/select-offer');
    await offers
      .getByRole('listitem')
      .filter({ hasText: 'Staff Engineer' })
      .getByRole('link', { name: /Open the letter/ })
      .click();
    await page.getByRole('heading', { name: /^Welcome, Ada: your offer to join as Staff Engineer/ }).waitFor();
    await context.close();
  });
});
