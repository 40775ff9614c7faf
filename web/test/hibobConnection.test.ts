import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { type BobPerson, HiBobTestServer } from '../../api/src/integrations/vendors/hibob/testServer.js';
import { startTestServer } from '../../api/test/server.js';
import { launchChromium, seriousViolations, signInThroughProvider } from './browser.js';

/**
 * HiBob connected from the browser against the HiBob conformance server this test starts: the
 * connection's sync history, and a disconnect that asks what becomes of the corrections kept.
 */
describe('an admin connects HiBob, reads the sync history and disconnects in a real browser', () => {
  const bob = new HiBobTestServer();
  let apiUrl: string;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let db: Knex;
  let browser: Browser;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  const someone = (id: string, firstName: string, extra: Partial<BobPerson> = {}): BobPerson => ({
    id,
    firstName,
    surname: 'Bob',
    email: `${firstName.toLowerCase()}@bob.test`,
    startDate: '10/01/2022',
    employmentType: 'Full-Time',
    status: 'Active',
    terminationDate: null,
    ...extra,
  });

  beforeAll(async () => {
    bob.addPerson(someone('901', 'Ada'), [{ effectiveDate: '2022-01-10', title: 'VP Engineering', department: 'Engineering', site: 'Seattle', reportsTo: null }], [{ effectiveDate: '2022-01-10', value: 250000, currency: 'USD', payPeriod: 'Annual' }]);
    bob.addPerson(someone('902', 'Grace'), [{ effectiveDate: '2022-01-10', title: 'Engineer', department: 'Engineering', site: 'Seattle', reportsTo: '901' }], [{ effectiveDate: '2022-01-10', value: 15000, currency: 'USD', payPeriod: 'Monthly' }]);
    apiUrl = await bob.start();
    process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS = 'true';
    server = await startTestServer({ PAYBENCH_SEED_DEMO: 'false', PAYBENCH_DEMO_MARKET_RECORDS: '1000' });
    db = server.deps.db;
    person = await createAdmin(db);
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    delete process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS;
    await browser?.close();
    await server?.stop();
    await bob.stop();
  });

  it('connects with a service user, syncs, lists each sync with who asked and what it did, and disconnects removing the kept corrections', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, server.url, person.email, person.password);
    await page.goto(`${server.url}/integrations?integration=hris`);
    const dialog = page.getByRole('dialog', { name: 'Connect HR system' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('System').locator('option', { hasText: 'HiBob' }).textContent()).toBe('HiBob');
    await dialog.getByLabel('System').selectOption('hibob');
    await dialog.getByLabel('Name').fill('Bob');
    await dialog.getByRole('textbox', { name: /^Service user id/ }).fill(bob.serviceUserId);
    await dialog.locator('input[name="config.serviceUserToken"]').fill(bob.serviceUserToken);
    await dialog.getByRole('textbox', { name: /^API address/ }).fill(apiUrl);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await page.getByText('Bob is connected.').waitFor({ timeout: 30_000 });

    const row = page.getByRole('table', { name: 'Connections' }).getByRole('row', { name: /Bob/ });
    await row.waitFor();
    await row.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('2 created, 0 updated, 0 unchanged');
    await row.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(async () => (await row.textContent()) ?? '', { timeout: 60_000 }).toMatch(/applied.*2 created/);

    await row.getByRole('button', { name: 'Sync history' }).click();
    const history = page.getByRole('table', { name: 'Sync history of Bob' });
    await history.waitFor();
    await expect.poll(() => history.locator('tbody tr').count(), { timeout: 30_000 }).toBe(2);
    const [latest, first] = await history.locator('tbody tr').allTextContents();
    expect(latest).toMatch(/Sync.*Applied.*2/);
    expect(first).toContain('Dry run');
    expect(first).toContain('Planned (dry run)');
    expect(await seriousViolations(page)).toEqual([]);

    // A correction in Paybench is kept; disconnecting asks what becomes of it.
    const grace = await db('employees').where({ company_id: person.companyId, employee_number: '902' }).first<{ id: string }>();
    await db('people_field_overrides').insert({ id: 'override-grace-title', company_id: person.companyId, employee_id: grace.id, field: 'title', value: 'Staff Engineer', set_by: null, set_at: new Date().toISOString() });
    await row.getByRole('button', { name: 'Disconnect' }).click();
    const choice = row.getByRole('group', { name: 'Disconnect Bob' });
    expect(await choice.textContent()).toContain('keep those corrections, or remove them');
    await choice.getByRole('button', { name: 'Disconnect, remove corrections' }).click();
    await page.getByText('No systems are connected yet.').waitFor({ timeout: 30_000 });
    expect(await db('people_field_overrides').where({ company_id: person.companyId })).toEqual([]);
    expect(await db('employees').where({ company_id: person.companyId }).pluck('employee_number')).toHaveLength(2);
    await context.close();
  }, 240_000);
});
