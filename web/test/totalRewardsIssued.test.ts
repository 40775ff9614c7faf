import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { pdfText } from '../../api/src/documents/test/pdfText.js';
import { type TestPerson, createPerson } from '../../api/src/identity/provider/testSupport.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { type TestUser, bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { jobEnded } from '../../api/test/waiting.js';
import { launchChromium, signInThroughProvider } from './browser.js';

type Job = components['schemas']['BackgroundJob'];

// Hand-checked: a base salary of €60,000.00 (6,000,000 cents) in force on 2025-06-30, shown in the
// issued statement's PDF as "€60,000".
const TITLE = '2026 total rewards statement';

describe('an employee’s issued total-rewards statements', () => {
  let browser: Browser;
  let db: Knex;
  let person: TestPerson;
  let admin: TestUser;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    db = await testDb();
    // A company of its own: the demo company and its sign-ins stay as other browser tests expect them.
    person = await createPerson(db);
    const roles = await seedBuiltinRoles(db, person.companyId);
    await replaceUserRoles(db, { companyId: person.companyId }, person.id, [roles.get('employee') ?? '']);
    admin = await createTestUser(db, { companyId: person.companyId, roleIds: [roles.get('admin') ?? ''] });
    const support = await createTestUser(db, { companyId: person.companyId, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${person.companyId}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    const employeeId = await insertEmployee(db, person.companyId, { firstName: person.firstName, lastName: person.lastName, userId: person.id, currency: 'EUR', countryCode: 'DE', locationId: null, startDate: '2024-01-01' });
    await insertPay(db, person.companyId, employeeId, [{ type: 'base_salary', amount: 6_000_000, currency: 'EUR', effectiveDate: '2024-01-01' }]);

    const issued = await request<{ data: Job }>('/api/total-rewards/issued-statements', { method: 'POST', headers: bearer(admin), json: { title: TITLE, employeeId, asOf: '2025-06-30' } });
    expect(issued.status).toBe(202);
    expect((await jobEnded(admin, issued.body.data.id, 60_000)).status).toBe('succeeded');
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('lists the issued statement under the live one and downloads it as issued', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/totalrewards`);

    const list = page.getByRole('region', { name: 'Issued statements' });
    await list.getByText(TITLE).waitFor();
    expect(await list.getByText('as of 2025-06-30').count()).toBe(1);
    // The live statement is still there above it.
    await page.getByRole('button', { name: 'Download PDF' }).waitFor();

    const downloading = page.waitForEvent('download');
    await list.getByRole('button', { name: `Download ${TITLE} (PDF)` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('2026-total-rewards-statement.pdf');
    const text = pdfText(readFileSync(await download.path())).replaceAll('\x80', '€');
    expect(text).toContain(TITLE);
    expect(text).toContain('€60,000');
    await context.close();
  });
});
