import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { newId } from '../../api/src/db/ids.js';
import { createPerson } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

const SUPPORT = 'support@paybench.test';
const FINDING = '256 of 256 records sit in evenly spaced runs of 5 or more; the longest is 128 records 1,500 apart in Software Engineering, P3 · Career, San Francisco Bay Area';

/** A contribution held back by the last build (as the build records it), reviewed by support and told to the company. */
describe('held-back market contributions in a real browser', () => {
  let browser: Browser;
  let customer: Awaited<ReturnType<typeof createPerson>>;
  let companyName: string;
  let holdId: string;
  let releaseVersion: string;

  beforeAll(async () => {
    const db = await testDb();
    customer = await createPerson(db);
    const adminRoleId = (await seedBuiltinRoles(db, customer.companyId)).get('admin') ?? '';
    await replaceUserRoles(db, { companyId: customer.companyId }, customer.id, [adminRoleId]);
    const now = new Date().toISOString();
    await db('users').where({ id: customer.id }).update({ terms_accepted_at: now });
    await db('company_flags').insert({ company_id: customer.companyId, flag: 'benchmarking', enabled: true, updated_by: null, updated_at: now });
    companyName = (await db('companies').where({ id: customer.companyId }).first<{ name: string }>()).name;
    const release = await db('market_releases').where({ status: 'published' }).orderBy('built_at', 'desc').first<{ id: string; version: string }>('id', 'version');
    releaseVersion = release.version;
    holdId = newId();
    await db('market_release_screenings').insert({
      id: holdId,
      release_id: release.id,
      company_id: customer.companyId,
      outcome: 'quarantined',
      records: 256,
      previous_records: null,
      findings: JSON.stringify([{ check: 'ladder', message: FINDING, cell: 'software_engineering|p3|us_sf_bay_area', otherCompanyId: null }]),
      created_at: now,
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await (await testDb())('market_release_screenings').where({ id: holdId }).delete();
    await browser?.close();
  });

  it('support reads why it was held back and releases it with a reason; the company is told only that it was held back', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, inject('baseUrl'), SUPPORT, demoPassword(inject('serverEnv')));
    await page.getByRole('link', { name: 'Internal' }).click();
    await page.getByRole('link', { name: 'Held-back market contributions' }).click();
    const hold = page.getByRole('article', { name: companyName });
    await hold.waitFor();
    expect(await hold.getByText('Awaiting review').count()).toBe(1);
    expect(await hold.getByRole('list', { name: 'What the checks found' }).textContent()).toBe(`Evenly spaced ladder of pay: ${FINDING}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `market-quarantines-${inject('engine')}`);
    await hold.getByLabel('Reason (recorded)').fill('Checked the payroll with the company');
    await hold.getByRole('button', { name: 'Release into the next build' }).click();
    await hold.getByText('Released for the next build').waitFor();
    expect(await hold.getByText(/Released by support@paybench\.test on .*: “Checked the payroll with the company”/).count()).toBe(1);
    // Until a build takes it in, the decision can still be changed.
    expect(await hold.getByRole('form').count()).toBe(1);
    const stored = await (await testDb())('market_release_screenings').where({ id: holdId }).first<{ decision: string; decision_reason: string }>();
    expect(stored).toMatchObject({ decision: 'release', decision_reason: 'Checked the payroll with the company' });
    await context.close();

    const own = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const customerPage = await own.newPage();
    await signInThroughProvider(customerPage, inject('baseUrl'), customer.email, customer.password);
    await customerPage.goto(`${inject('baseUrl')}/benchmarkingsurvey/participation`);
    await customerPage.getByRole('heading', { name: 'Held back for review' }).waitFor();
    const told = await customerPage.getByTestId('held-back').textContent();
    expect(told).toContain(`Your contribution to release ${releaseVersion} was held back for review`);
    expect(told).toContain('It has been reviewed and goes into the next release.');
    expect(await customerPage.getByText(/ladder|1,500 apart|evenly spaced/i).count()).toBe(0);
    expect(await seriousViolations(customerPage)).toEqual([]);
    await own.close();
  });
});
