import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { pdfText } from '../../api/src/documents/test/pdfText.js';
import { type TestPerson, createPerson } from '../../api/src/identity/provider/testSupport.js';
import { type Call, closedCycleWithLetters, releaseLetters } from '../../api/src/rewardLetters/test/fixtures.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestUser, bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider, expectNoSidewaysScroll } from './browser.js';

/*
 * An employee opens their reward letter on a phone. Hand-checked: 100,000 USD + 4,000 merit =
 * 104,000 USD, 4.0%, effective 1 April 2026; their colleague's letter (90,000 → 92,700) is not theirs.
 */
describe('an employee’s reward letter on a phone', () => {
  let browser: Browser;
  let db: Knex;
  let person: TestPerson;
  let admin: TestUser;
  let cycleId: string;
  let colleagueId: string;
  let ownEmployeeId: string;
  const base = () => inject('baseUrl');
  const engine = inject('engine');
  const call: Call = (path, init) => request(path, { method: init.method, headers: { ...bearer(init), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });

  beforeAll(async () => {
    db = await testDb();
    // A company of its own, with compensation planning on.
    person = await createPerson(db);
    const roles = await seedBuiltinRoles(db, person.companyId);
    await replaceUserRoles(db, { companyId: person.companyId }, person.id, [roles.get('employee') ?? '']);
    admin = await createTestUser(db, { companyId: person.companyId, roleIds: [roles.get('admin') ?? ''] });
    const support = await createTestUser(db, { companyId: person.companyId, internalAdmin: true });
    expect((await request(`/api/internal/companies/${person.companyId}/release-flags/compensation_planning`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const own = (ownEmployeeId = await insertEmployee(db, person.companyId, { firstName: person.firstName, lastName: person.lastName, userId: person.id, performanceRating: 'meets' }));
    await insertPay(db, person.companyId, own, [{ type: 'base_salary', amount: 10_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
    colleagueId = await insertEmployee(db, person.companyId, { firstName: 'Cora', lastName: 'Colleague', performanceRating: 'meets' });
    await insertPay(db, person.companyId, colleagueId, [{ type: 'base_salary', amount: 9_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
    cycleId = await closedCycleWithLetters(call, admin.token, { name: 'Spring 2026', effectiveDate: '2026-04-01' }, {
      [own]: { meritAmount: { amount: 400_000, currency: 'USD' } },
      [colleagueId]: { meritAmount: { amount: 270_000, currency: 'USD' } },
    });
    await releaseLetters(call, admin.token, cycleId, 'releaseToEmployees');
    browser = await launchChromium();
  }, 180_000);
  afterAll(() => browser?.close());

  it('opens, confirms and downloads their own letter, reads it offline, and never sees a colleague’s', async () => {
    const token = await apiTokenOf(person.email);
    // Nobody reads another's letter.
    expect((await request(`/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${colleagueId}`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(404);

    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', acceptDownloads: true, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/rewardletters`);
    const card = page.getByRole('list', { name: 'Your reward letters' }).getByRole('link');
    await expect.poll(() => card.textContent(), { timeout: 30_000 }).toContain('$100,000 → $104,000 (+4.0%)');
    expect(await card.count()).toBe(1);
    await page.getByText('New', { exact: true }).waitFor();
    await card.tap();

    await page.waitForURL(`**/rewardletters/${cycleId}`);
    const letter = page.locator('.rl-document');
    await expect.poll(() => letter.textContent(), { timeout: 30_000 }).toContain('your base salary changes by 4.0%, from $100,000 to $104,000');
    expect(await letter.textContent()).toContain('confirm your pay from 1 April 2026');
    expect(await letter.textContent()).not.toContain('Cora');
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'I have read my letter' }).tap();
    await page.getByText('You confirmed this letter').waitFor();
    const mine = await request<{ data: { viewedAt: string | null; confirmedAt: string | null }[] }>('/api/reward-letters', { headers: { Authorization: `Bearer ${token}` } });
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]?.viewedAt).not.toBeNull();
    expect(mine.body.data[0]?.confirmedAt).not.toBeNull();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).tap();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^reward-letter-.+\.pdf$/);
    const text = pdfText(readFileSync(await download.path()));
    expect(text).toContain('$104,000');
    expect(text).toContain(person.lastName);
    await screenshotsAtBothWidths(page, `reward-letter-${engine}`);

    // Installed and offline: the letter opened before still reads, from the copy the device kept.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await expect.poll(() => letter.textContent(), { timeout: 30_000 }).toContain('from $100,000 to $104,000');
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => letter.textContent(), { timeout: 30_000 }).toContain('from $100,000 to $104,000');
    await page.getByText('Offline: the copy saved on this device.').waitFor();
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of (await caches.keys()).filter((candidate) => candidate === 'paybench-reward-letters')) for (const entry of await (await caches.open(name)).keys()) urls.push(new URL(entry.url).pathname);
      return urls;
    });
    expect(kept).toContain(`/api/reward-letters/${cycleId}`);
    expect(kept.every((url) => url.startsWith('/api/reward-letters'))).toBe(true);
    await context.setOffline(false);

    // The planners' screen of the cycle is not theirs.
    await page.goto(`${base()}/rewardletters/cycles/${cycleId}`);
    await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 30_000 }).not.toContain('Reward letters: Spring 2026');
    await context.close();
  }, 240_000);

  it('says offline that a letter never opened on this device is not saved here, and what to do', async () => {
    // A second released letter the person has not opened yet.
    const laterCycle = await closedCycleWithLetters(call, admin.token, { name: 'Autumn 2026', effectiveDate: '2026-10-01' }, {
      [ownEmployeeId]: { meritAmount: { amount: 200_000, currency: 'USD' } },
      [colleagueId]: { meritAmount: { amount: 100_000, currency: 'USD' } },
    });
    await releaseLetters(call, admin.token, laterCycle, 'releaseToEmployees');
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/rewardletters`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await expect.poll(() => page.getByRole('list', { name: 'Your reward letters' }).getByRole('link').count(), { timeout: 30_000 }).toBe(2);

    await context.setOffline(true);
    await page.goto(`${base()}/rewardletters/${laterCycle}`);
    await page.getByRole('heading', { name: 'This letter is not saved on this device' }).waitFor({ timeout: 30_000 });
    const body = (await page.locator('main').textContent()) ?? '';
    expect(body).toContain('Connect to the internet and open it once');
    expect(body).not.toContain('Something went wrong');
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);

    // Back online, "Try again" opens it.
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Try again' }).tap();
    await page.getByRole('heading', { name: 'Autumn 2026' }).waitFor({ timeout: 30_000 });
    await page.locator('.rl-document').waitFor();
    await context.close();
  }, 240_000);
});
