import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { createAdmin, createPerson } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

const SUPPORT = 'support@paybench.test';

async function frameState(page: Page) {
  return page.getByTestId('impersonation-frame').evaluate((element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return { zIndex: style.zIndex, position: style.position, covers: box.width >= window.innerWidth && box.height >= window.innerHeight };
  });
}

describe('internal tools in a real browser', () => {
  let browser: Browser;
  let customer: Awaited<ReturnType<typeof createPerson>>;
  let companyName: string;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  beforeAll(async () => {
    const db = await testDb();
    customer = await createPerson(db);
    // Companies made outside the API get their built-in roles the way the API makes them.
    const existing = await db('roles').where({ company_id: customer.companyId, key: 'admin' }).first<{ id: string } | undefined>();
    const adminRoleId = existing?.id ?? (await seedBuiltinRoles(db, customer.companyId)).get('admin') ?? '';
    await replaceUserRoles(db, { companyId: customer.companyId }, customer.id, [adminRoleId]);
    await db('users').where({ id: customer.id }).update({ terms_accepted_at: new Date().toISOString() });
    companyName = (await db('companies').where({ id: customer.companyId }).first<{ name: string }>()).name;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('support switches a company’s flag, views as its user inside the frame, then as the company, and the sessions are recorded', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), SUPPORT, demoPassword(inject('serverEnv')));
    await page.getByRole('link', { name: 'Internal' }).click();
    await page.getByLabel('Search by name or key').fill(companyName);
    await page.getByRole('button', { name: new RegExp(companyName) }).click();

    // Release flags per company: salary bands on.
    const bands = page.getByRole('switch', { name: /Salary bands/ });
    await expect.poll(() => bands.isChecked()).toBe(false);
    await bands.check();
    await expect.poll(async () => (await (await testDb())('company_flags').where({ company_id: customer.companyId, flag: 'bands' }).first<{ enabled: unknown } | undefined>())?.enabled).toBeTruthy();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `internal-${engine}`);

    // View as the customer's admin: every screen inside the frame, read-only.
    const asUser = page.getByRole('form', { name: `View ${companyName} as a user` });
    await asUser.getByLabel('The user’s e-mail').fill(customer.email);
    await asUser.getByLabel(/Reason/).fill('ticket 4711: bands look wrong');
    await asUser.getByRole('button', { name: 'View as user' }).click();
    await page.getByRole('heading', { name: `Welcome, ${customer.firstName}` }).waitFor({ timeout: 30_000 });
    expect(await frameState(page)).toEqual({ zIndex: '1800', position: 'fixed', covers: true });
    expect(await page.getByRole('status').filter({ hasText: 'Viewing as' }).textContent()).toContain(customer.email);
    // What the customer sees: bands are switched on for them now, with no band set yet (and, viewing as them, nothing to change).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Salary bands' }).click();
    await page.getByRole('heading', { name: 'No band sets yet' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create a draft' }).count()).toBe(0);
    expect(await frameState(page)).toMatchObject({ zIndex: '1800', covers: true });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `view-as-user-${engine}`);
    await page.getByRole('button', { name: 'Stop viewing' }).click();
    await page.getByRole('heading', { name: 'Internal tools' }).waitFor();
    expect(await page.getByTestId('impersonation-frame').count()).toBe(0);

    // As the company: an admin's view, also framed.
    await page.getByLabel('Search by name or key').fill(companyName);
    await page.getByRole('button', { name: new RegExp(companyName) }).click();
    const asCompany = page.getByRole('form', { name: `View as ${companyName}` });
    await asCompany.getByLabel(/Reason/).fill('ticket 4712');
    await asCompany.getByRole('button', { name: 'View as company' }).click();
    await page.getByRole('status').filter({ hasText: 'Viewing as the company' }).waitFor({ timeout: 30_000 });
    expect(await frameState(page)).toMatchObject({ zIndex: '1800', covers: true });
    await page.getByRole('button', { name: 'Stop viewing' }).click();
    await page.getByRole('heading', { name: 'Internal tools' }).waitFor();

    const sessions = await (await testDb())('view_as_sessions').where({ company_id: customer.companyId }).orderBy('started_at');
    expect(sessions.map((session: { mode: string; reason: string; ended_at: unknown }) => [session.mode, session.reason, Boolean(session.ended_at)])).toEqual([
      ['user', 'ticket 4711: bands look wrong', true],
      ['company', 'ticket 4712', true],
    ]);
    await context.close();
  }, 120_000);

  it('support settles a domain two companies claim: assigned to one, on the record, the other claim revoked', async () => {
    const db = await testDb();
    const domain = `two-claims-${customer.companyId.slice(-6)}.test`;
    const claimants = await Promise.all([createAdmin(db), createAdmin(db)]);
    const names: string[] = [];
    for (const claimant of claimants) {
      names.push((await db('companies').where({ id: claimant.companyId }).first<{ name: string }>()).name);
      const claimed = await request('/api/company/domains', { method: 'POST', headers: { Authorization: `Bearer ${await apiTokenOf(claimant.email)}` }, json: { domain } });
      expect(claimed.status).toBe(201);
    }
    const [owner, other] = names as [string, string];

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), SUPPORT, demoPassword(inject('serverEnv')));
    await page.goto(`${base()}/internal`);
    const claims = page.getByRole('region', { name: 'Claimed e-mail domains' });
    const rows = claims.getByRole('row').filter({ hasText: domain });
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    expect(await rows.first().textContent()).toContain('disputed');
    expect(await seriousViolations(page)).toEqual([]);

    // The note is asked for, and kept with the decision.
    page.once('dialog', (dialog) => void dialog.accept('Registrar invoice seen'));
    await claims.getByRole('button', { name: `Assign ${domain} to ${owner}` }).click();
    await page.getByText(`${domain} now belongs to ${owner}.`).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.textContent()).toContain('Proven (internal)');
    expect(await rows.textContent()).not.toContain('disputed');
    const stored = await db('company_domains').where({ domain }).select<{ company_id: string; status: string }[]>('company_id', 'status');
    expect(Object.fromEntries(stored.map((row) => [row.company_id, row.status]))).toEqual({ [claimants[0].companyId]: 'proven', [claimants[1].companyId]: 'revoked' });
    const notes = await db('audit_events').where({ action: 'company_domain.resolved', subject_id: domain }).select<{ details: string }[]>('details');
    expect(notes.map((row) => JSON.parse(row.details) as { action: string; note: string }).map((entry) => `${entry.action}: ${entry.note}`).sort()).toEqual(['assigned: Registrar invoice seen', 'revoked: Registrar invoice seen']);
    expect(other).not.toBe(owner);
    await context.close();
  }, 120_000);
});
