import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { BambooHrTestServer } from '../../api/src/integrations/vendors/bamboohr/testServer.js';
import { startTestServer } from '../../api/test/server.js';
import { launchChromium, signInThroughProvider } from './browser.js';
import { switchOn } from './companySetup.js';

/**
 * BambooHR connected from the browser, against the BambooHR conformance server this test starts.
 * The test runs a Paybench of its own that may call loopback addresses (where that server listens).
 */
describe('an admin connects BambooHR in a real browser', () => {
  const bamboo = new BambooHrTestServer();
  let apiUrl: string;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let db: Knex;
  let browser: Browser;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  const longAgo = '2025-01-01T00:00:00Z';
  const fields = (first: string, last: string, extra: Record<string, string | null>) => ({
    firstName: first,
    lastName: last,
    workEmail: `${first.toLowerCase()}@acme.test`,
    jobTitle: 'Engineer',
    department: 'Engineering',
    location: 'Seattle',
    country: 'United States',
    hireDate: '2022-01-10',
    terminationDate: '0000-00-00',
    status: 'Active',
    employmentHistoryStatus: 'Full-Time',
    supervisorEId: null,
    ...extra,
  });

  beforeAll(async () => {
    bamboo.addEmployee('10', fields('Ada', 'Lovelace', { jobTitle: 'VP Engineering' }), longAgo);
    bamboo.addEmployee('11', fields('Grace', 'Hopper', { supervisorEId: '10' }), longAgo);
    bamboo.addCompensation('10', { startDate: '2022-01-10', rate: '250000.00 USD' }, longAgo);
    bamboo.addCompensation('11', { startDate: '2022-01-10', rate: '15000.00 USD', paidPer: 'Month' }, longAgo);
    apiUrl = await bamboo.start();
    process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS = 'true';
    server = await startTestServer({ PAYBENCH_SEED_DEMO: 'false', PAYBENCH_DEMO_MARKET_RECORDS: '1000' });
    db = server.deps.db;
    person = await createAdmin(db);
    // Correcting a record opens from the team view's module.
    await switchOn(db, person.companyId, ['team_view'], { base: server.url });
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    delete process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS;
    await browser?.close();
    await server?.stop();
    await bamboo.stop();
  });

  it('connects with an API key, runs a dry run, syncs, and sees the conflict of a salary edited in Paybench', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, server.url, person.email, person.password);
    await page.goto(`${server.url}/integrations?integration=hris`);
    const dialog = page.getByRole('dialog', { name: 'Connect HR system' });
    await dialog.waitFor();
    await dialog.getByLabel('System').selectOption('bamboohr');
    await dialog.getByLabel('Name').fill('BambooHR');
    // Each field is labelled with its name and its help text (the accessible name holds both).
    await dialog.getByRole('textbox', { name: /^Company domain/ }).fill(bamboo.companyDomain);
    await dialog.locator('input[name="config.apiKey"]').fill(bamboo.apiKey);
    await dialog.getByRole('textbox', { name: /^API address/ }).fill(apiUrl);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await page.getByText('BambooHR is connected.').waitFor({ timeout: 30_000 });

    const row = page.getByRole('table', { name: 'Connections' }).getByRole('row', { name: /BambooHR/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Connected to BambooHR: 2 employees, and their compensation can be read.');

    // A dry run: what the sync would do, with the suggested mapping of BambooHR's fields; nothing written.
    await row.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('2 created, 0 updated, 0 unchanged');
    expect(await row.textContent()).toContain('Dry run');
    expect(await db('employees').where({ company_id: person.companyId })).toEqual([]);

    await row.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(async () => (await row.textContent()) ?? '', { timeout: 60_000 }).toMatch(/applied.*2 created, 0 updated, 0 unchanged/);
    const grace = await db('employees').where({ company_id: person.companyId, employee_number: '11' }).first<{ id: string; title: string }>();
    expect(grace.title).toBe('Engineer');
    // 15,000.00 USD a month × 12 = 180,000.00 USD = 18,000,000 cents.
    expect(await db('compensation_records').where({ employee_id: grace.id }).pluck('amount')).toEqual([18_000_000]);

    // Her salary is corrected in Paybench's employee page to 185,000; BambooHR still says 180,000.
    await page.goto(`${server.url}/people/${grace.id}`);
    await page.getByRole('button', { name: /^Correct the base salary/ }).click();
    const correction = page.getByRole('form', { name: /^Correct the base salary record/ });
    await correction.getByLabel('Amount (USD, a year)').fill('185,000.00');
    await correction.getByRole('button', { name: 'Save the correction' }).click();
    await expect.poll(async () => (await db('compensation_records').where({ employee_id: grace.id }).pluck('amount')).map(Number), { timeout: 30_000 }).toEqual([18_500_000]);
    bamboo.update('11', { department: 'Platform' });
    bamboo.advance(10 * 60_000);
    await page.goto(`${server.url}/integrations`);
    await row.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('1 field edited in Paybench kept over the system’s values (conflicts)');
    expect(await row.textContent()).toContain('(changes since the last sync)');
    await context.close();
  }, 240_000);
});
