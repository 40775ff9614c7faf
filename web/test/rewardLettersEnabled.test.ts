import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestPerson, createPerson } from '../../api/src/identity/provider/testSupport.js';
import { type Call, closedCycleWithLetters, releaseLetters } from '../../api/src/rewardLetters/test/fixtures.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestUser, bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { launchChromium, seriousViolations, signInThroughProvider } from './browser.js';

/*
 * A planner switches letters on and off before release. Hand-checked: the employee's base 100,000 USD
 * + 4,000 merit = 104,000 (their pay changes: on by default); Cora's 90,000 USD gets no merit (off by
 * default); Dan's 80,000 + 2,000 = 82,000 (on). The planner switches Cora's on and the employee's off:
 * released, Cora's and Dan's letters go out, the employee's does not.
 */
describe('reward letters switched on or off per employee', () => {
  let browser: Browser;
  let db: Knex;
  let person: TestPerson;
  let admin: TestUser;
  let adminPassword = '';
  let cycleId = '';
  let coraId = '';
  const base = () => inject('baseUrl');
  const call: Call = (path, init) => request(path, { method: init.method, headers: { ...bearer(init), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });

  beforeAll(async () => {
    db = await testDb();
    // A company of its own, with compensation planning on.
    person = await createPerson(db);
    const roles = await seedBuiltinRoles(db, person.companyId);
    await replaceUserRoles(db, { companyId: person.companyId }, person.id, [roles.get('employee') ?? '']);
    admin = await createTestUser(db, { companyId: person.companyId, roleIds: [roles.get('admin') ?? ''] });
    adminPassword = `admin password ${person.companyId.slice(-6)}`;
    await db('users').where({ id: admin.id }).update({ password_hash: await hashPassword(adminPassword), email_verified: true });
    const support = await createTestUser(db, { companyId: person.companyId, internalAdmin: true });
    expect((await request(`/api/internal/companies/${person.companyId}/release-flags/compensation_planning`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const own = await insertEmployee(db, person.companyId, { firstName: person.firstName, lastName: person.lastName, userId: person.id, performanceRating: 'meets' });
    await insertPay(db, person.companyId, own, [{ type: 'base_salary', amount: 10_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
    const cora = await insertEmployee(db, person.companyId, { firstName: 'Cora', lastName: 'Colleague', performanceRating: 'meets' });
    coraId = cora;
    await insertPay(db, person.companyId, cora, [{ type: 'base_salary', amount: 9_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
    const dan = await insertEmployee(db, person.companyId, { firstName: 'Dan', lastName: 'Dawson', performanceRating: 'meets' });
    await insertPay(db, person.companyId, dan, [{ type: 'base_salary', amount: 8_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
    cycleId = await closedCycleWithLetters(call, admin.token, { name: 'Autumn 2026', effectiveDate: '2026-10-01' }, {
      [own]: { meritAmount: { amount: 400_000, currency: 'USD' } },
      [cora]: { meritAmount: { amount: 0, currency: 'USD' } },
      [dan]: { meritAmount: { amount: 200_000, currency: 'USD' } },
    });
    browser = await launchChromium();
  }, 180_000);
  afterAll(() => browser?.close());

  const lettersTable = (page: Page) => page.getByRole('region', { name: 'Letters', exact: true }).locator('tbody tr');
  const rowOf = (page: Page, name: string) => lettersTable(page).filter({ hasText: name });
  // The "Released" column: after Letter, Manager, Base before, New base and Change.
  const releasedOf = (page: Page, name: string) => rowOf(page, name).locator('td').nth(5).textContent();
  const switchOf = (page: Page, name: string) => page.getByRole('switch', { name: `Letter for ${name}` });

  it('shows who gets a letter, lets the planner switch letters before release, and releases only those switched on', async () => {
    const me = `${person.firstName} ${person.lastName}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), admin.email, adminPassword);
    await page.goto(`${base()}/rewardletters/cycles/${cycleId}`);

    // By default: on where the cycle changed pay, off for Cora, whose pay it did not.
    await switchOf(page, 'Cora Colleague').waitFor();
    expect(await switchOf(page, 'Cora Colleague').isChecked()).toBe(false);
    expect(await rowOf(page, 'Cora Colleague').textContent()).toContain('no pay change');
    expect(await switchOf(page, 'Dan Dawson').isChecked()).toBe(true);
    expect(await switchOf(page, me).isChecked()).toBe(true);
    await page.getByText('2 letters, 0 released, 0 read, 0 confirmed; 1 switched off.').waitFor();

    // The filter shows the letters switched off only, then those switched on.
    const filter = page.getByRole('combobox', { name: 'Show' });
    await filter.selectOption('off');
    await expect.poll(() => lettersTable(page).count()).toBe(1);
    expect(await rowOf(page, 'Cora Colleague').count()).toBe(1);
    await filter.selectOption('on');
    await expect.poll(() => lettersTable(page).count()).toBe(2);
    expect(await rowOf(page, 'Cora Colleague').count()).toBe(0);
    await filter.selectOption('all');

    // Cora's on, the employee's off.
    await switchOf(page, 'Cora Colleague').click();
    await expect.poll(() => switchOf(page, 'Cora Colleague').isChecked()).toBe(true);
    await switchOf(page, me).click();
    await expect.poll(() => switchOf(page, me).isChecked()).toBe(false);
    await page.getByText('2 letters, 0 released, 0 read, 0 confirmed; 1 switched off.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Released: Cora's and Dan's go out (the positive control), the employee's does not, and none switches any more.
    await releaseLetters(call, admin.token, cycleId, 'releaseToEmployees');
    await page.reload();
    await page.getByText('2 letters, 2 released, 0 read, 0 confirmed; 1 switched off.').waitFor();
    expect(await releasedOf(page, 'Cora Colleague')).not.toBe('Not yet');
    expect(await releasedOf(page, 'Dan Dawson')).not.toBe('Not yet');
    expect(await releasedOf(page, me)).toBe('Not yet');
    expect(await switchOf(page, me).isDisabled()).toBe(true);
    expect(await switchOf(page, 'Cora Colleague').isDisabled()).toBe(true);

    // Cora's letter, switched on though her pay did not change, says so.
    const cora = await request<{ data: { document: { html: string } } }>(`/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${coraId}`, { headers: bearer(admin) });
    expect(cora.status).toBe(200);
    expect(cora.body.data.document.html).toContain('your base salary changes by 0.0%, from $90,000 to $90,000');
    await context.close();

    // The employee, whose letter was switched off, has none.
    const own = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US' });
    const phone = await own.newPage();
    phone.setDefaultTimeout(60_000);
    await signInThroughProvider(phone, base(), person.email, person.password);
    await phone.goto(`${base()}/rewardletters`);
    await phone.getByRole('heading', { name: 'No letter yet' }).waitFor();
    await own.close();
  }, 240_000);
});
