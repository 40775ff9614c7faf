import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type TestUser, bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { startTestServer } from '../../api/test/server.js';
import { type TestSmtp, startTestSmtp } from '../../api/src/identity/testMail.js';
import { EVERYWHERE_US } from '../../api/src/market/test/requests.js';
import type { components } from '../../openapi.d.ts';
import { demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type Slice = components['schemas']['SharedSlice'];

const ADMIN = 'admin@acme.test';
const REQUEST = {
  compensationTypes: ['base'],
  marketFilters: [EVERYWHERE_US],
  jobFamilies: ['software_engineering'],
  levels: [{ type: 'level', id: 'p3' }],
  percentiles: [25, 50, 75],
};

// Its own server, sending e-mail over SMTP to a server the test reads.
describe('a collaborator invited to a shared slice, in a real browser', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: TestSmtp;
  let browser: Browser;
  let editor: TestUser;
  const engine = inject('engine');

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url }, { demoMarketRecords: 20_000 });
    const db = await testDb(server.env);
    const demoAdmin = await db('users').where({ email: ADMIN }).first<{ company_id: string }>();
    const adminRole = await db('roles').where({ company_id: demoAdmin.company_id, key: 'admin' }).first<{ id: string }>();
    editor = await createTestUser(db, { companyId: demoAdmin.company_id, roleIds: [adminRole.id] });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
  });

  it('an admin invites someone outside the company, who opens only that slice from the e-mail until the admin revokes them', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const shared = await request<{ data: Slice }>('/api/benchmarking/shares', { base: server.url, method: 'POST', headers: bearer(editor), json: { title: `Board pack ${tag}`, request: REQUEST } });
    expect(shared.status, JSON.stringify(shared.body).slice(0, 300)).toBe(201);
    const slice = shared.body.data;
    const outsider = `adviser-${tag}@outside.example`;

    const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await admin.newPage();
    await signInThroughProvider(page, server.url, ADMIN, demoPassword(server.env));
    await page.goto(`${server.url}/shares/${slice.id}`);
    await page.getByRole('heading', { name: `Board pack ${tag}` }).waitFor({ timeout: 30_000 });
    const collaborators = page.getByRole('region', { name: 'Collaborators' });
    await collaborators.getByText('Nobody outside the company has been invited to this slice.').waitFor();
    await page.getByRole('button', { name: 'Invite a collaborator' }).click();
    await page.getByLabel('E-mail').fill(outsider);
    expect(await page.getByLabel(/Link works for/).inputValue()).toBe('14');
    await page.getByLabel(/Link works for/).fill('30');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await expect.poll(() => page.getByText(`${outsider} was e-mailed a link to this slice`).isVisible(), { timeout: 10_000 }).toBe(true);
    const row = collaborators.getByRole('row', { name: new RegExp(outsider) });
    await expect.poll(() => row.textContent()).toContain('Active');
    expect(await row.textContent()).toContain('Not yet');
    expect(await seriousViolations(page)).toEqual([]);

    await expect.poll(() => smtp.links(outsider, '/collaborator/').length, { timeout: 20_000 }).toBe(1);
    const link = `${server.url}${new URL(smtp.links(outsider, '/collaborator/')[0] ?? '').pathname}`;

    // The collaborator has no account: a fresh browser opens the link.
    const guest = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const view = await guest.newPage();
    await view.goto(link);
    await view.getByRole('heading', { name: `Board pack ${tag}` }).waitFor({ timeout: 30_000 });
    expect(await view.getByText(/shared market data with you/).isVisible()).toBe(true);
    expect(await view.getByText(`read-only for ${outsider}`, { exact: false }).isVisible()).toBe(true);
    const median = view.locator('tr[data-row^="software_engineering|p3|base|0|"] td[data-percentile="50"]');
    const asMember = await request<{ data: components['schemas']['SharedSliceView'] }>(`/api/shares/${slice.id}`, { base: server.url, headers: bearer(editor) });
    const cell = asMember.body.data.result.cells.find((c) => c.jobFamilyId === 'software_engineering' && c.levelId === 'p3' && c.compensationTypeId === 'base');
    const expected = cell?.percentiles?.find((p) => p.percentile === 50)?.value;
    expect(expected).toBeDefined();
    expect(await median.getAttribute('data-value')).toBe(String(expected));
    expect(await view.getByText('Software Engineering').first().isVisible()).toBe(true);
    expect(await seriousViolations(view)).toEqual([]);
    await screenshotsAtBothWidths(view, `collaborator-view-${engine}`);

    // The admin sees the open, and revokes the link.
    await page.reload();
    await expect.poll(() => collaborators.getByRole('row', { name: new RegExp(outsider) }).textContent(), { timeout: 20_000 }).toContain('1 time');
    await page.getByRole('button', { name: `Revoke ${outsider}` }).click();
    await expect.poll(() => collaborators.getByRole('row', { name: new RegExp(outsider) }).textContent()).toContain('Revoked');

    await view.reload();
    await view.getByRole('heading', { name: 'This shared slice is not available' }).waitFor({ timeout: 30_000 });
    expect(await view.getByText('This link was revoked. Ask the person who invited you for a new one.').isVisible()).toBe(true);
    await guest.close();
    await admin.close();
  });
});
