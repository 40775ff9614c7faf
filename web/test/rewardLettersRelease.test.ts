import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type TestPerson, createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { type Call, closedCycleWithLetters } from '../../api/src/rewardLetters/test/fixtures.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestUser, bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium, seriousViolations, signInThroughProvider } from './browser.js';

/*
 * A planner releases one manager's branch from the letters screen. Mia manages Ada and Ben, Olga
 * manages Zed: after releasing Mia's branch, Ada reads her letter and Zed, outside it, reads nothing.
 */
describe('releasing reward letters by branch on the planners’ screen', () => {
  let browser: Browser;
  let db: Knex;
  let admin: TestPerson;
  let ada: TestUser;
  let zed: TestUser;
  let cycleId: string;
  const base = () => inject('baseUrl');
  const call: Call = (path, init) => request(path, { method: init.method, headers: { ...bearer(init), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });

  beforeAll(async () => {
    db = await testDb();
    admin = await createAdmin(db);
    const companyId = admin.companyId;
    const support = await createTestUser(db, { companyId, internalAdmin: true });
    expect((await request(`/api/internal/companies/${companyId}/release-flags/compensation_planning`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const roles = new Map((await db('roles').where({ company_id: companyId }).select('id', 'key')).map((role: { id: string; key: string }) => [role.key, role.id]));
    ada = await createTestUser(db, { companyId, roleIds: [roles.get('employee') ?? ''] });
    zed = await createTestUser(db, { companyId, roleIds: [roles.get('employee') ?? ''] });
    const person = async (firstName: string, lastName: string, amount: number, extra: { managerId?: string; userId?: string; levelId?: string }) => {
      const id = await insertEmployee(db, companyId, { firstName, lastName, performanceRating: 'meets', ...extra });
      await insertPay(db, companyId, id, [{ type: 'base_salary', amount, currency: 'USD', effectiveDate: '2024-01-01' }]);
      return id;
    };
    const mia = await person('Mia', 'Manager', 15_000_000, { levelId: 'm4' });
    const olga = await person('Olga', 'Other', 14_000_000, { levelId: 'm4' });
    const adaId = await person('Ada', 'Anchor', 10_000_000, { managerId: mia, userId: ada.id });
    const benId = await person('Ben', 'Baker', 9_000_000, { managerId: mia });
    const zedId = await person('Zed', 'Zimmer', 6_000_000, { managerId: olga, userId: zed.id });
    const token = await apiTokenOf(admin.email);
    cycleId = await closedCycleWithLetters(call, token, { name: 'Spring 2026', effectiveDate: '2026-04-01' }, {
      [adaId]: { meritAmount: { amount: 400_000, currency: 'USD' } },
      [benId]: { meritAmount: { amount: 270_000, currency: 'USD' } },
      [zedId]: { meritAmount: { amount: 150_000, currency: 'USD' } },
      [mia]: { meritAmount: { amount: 0, currency: 'USD' } },
      [olga]: { meritAmount: { amount: 0, currency: 'USD' } },
    });
    browser = await launchChromium();
  }, 300_000);
  afterAll(() => browser?.close());

  it('releases Mia’s branch: Ada reads her letter, Zed outside it reads nothing', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(90_000);
    await signInThroughProvider(page, base(), admin.email, admin.password);
    await page.goto(`${base()}/rewardletters/cycles/${cycleId}`);
    await page.getByRole('radio', { name: 'One branch' }).check();
    const branch = page.getByRole('combobox', { name: 'Branch of' });
    await expect.poll(async () => (await branch.locator('option').allTextContents()).join(' | ')).toBe('Mia Manager (2 of 2 letters to release) | Olga Other (1 of 1 letters to release)');
    await branch.selectOption({ label: 'Mia Manager (2 of 2 letters to release)' });
    await page.getByRole('button', { name: 'Release now' }).click();
    await page.getByText('Released to Mia Manager’s branch.').waitFor();
    await page.getByText('2 of 3 employees read their letters; the others see nothing yet.').waitFor();
    const released = (name: string) => page.getByRole('row', { name: new RegExp(name) }).getByRole('cell').nth(5); // after Letter, Manager, Base before, New base and Change
    await expect.poll(() => released('Zed Zimmer').textContent()).toBe('Not yet');
    expect(await released('Ada Anchor').textContent()).not.toBe('Not yet');
    // Reminders are offered for the two released letters nobody has confirmed.
    await page.getByRole('button', { name: 'Remind the 2 who have not confirmed' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    const mine = async (user: TestUser) => (await request<{ data: { name: string }[] }>('/api/reward-letters', { headers: bearer(user) })).body.data.map((letter) => letter.name);
    expect(await mine(ada)).toEqual(['Ada Anchor']);
    expect(await mine(zed)).toEqual([]);
  }, 240_000);
});
