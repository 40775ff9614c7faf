import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { newId } from '../../api/src/db/ids.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type BandsAdmin, bandsAdmin } from './bandsSetup.js';
import { launchChromium, seriousViolations } from './browser.js';
import { signedIn } from './companySetup.js';

type Schemas = components['schemas'];

/*
 * Permissions per pay zone in the browser: the admin names a recruiter under "Who can see this zone"
 * on the United States zone; the recruiter (bands view, scope zones) then sees only that zone's bands
 * in the band-set editor, where the admin sees both zones.
 */
describe('salary bands limited to a recruiter’s pay zones, in a real browser', () => {
  let browser: Browser;
  let admin: BandsAdmin['admin'];
  let api: BandsAdmin['api'];
  const recruiter = { id: newId(), email: '', password: `recruiter ${randomUUID().slice(0, 8)}` };
  let setId = '';
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    const bands = await bandsAdmin();
    ({ admin, api } = bands);
    const { db } = bands;
    expect((await api('/api/bands/pay-zones', { method: 'POST', json: { name: 'United States', rules: [{ country: 'US' }] } })).status).toBe(201);
    expect((await api('/api/bands/pay-zones', { method: 'POST', json: { name: 'United Kingdom', differentialBp: -1000, rules: [{ country: 'GB' }] } })).status).toBe(201);
    expect((await api('/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', title: 'Software Engineer' } })).status).toBe(201);
    const set = await api<Schemas['BandSetDetail']>('/api/bands/band-sets', { method: 'POST', json: { name: 'Zoned bands', currency: 'USD' } });
    setId = set.body.data.id;
    expect((await api(`/api/bands/band-sets/${setId}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } })).status).toBe(200);

    // The recruiter: a sign-in of the company whose one role grants bands view over the zones that name them.
    const role = await api<Schemas['Role']>('/api/roles', { method: 'POST', json: { name: 'Recruiter (pay zones)', permissions: { bands: [{ authority: 'view', scope: 'zones' }] } } });
    expect(role.status).toBe(200);
    recruiter.email = `recruiter-${recruiter.id.slice(-8)}@zones.test`;
    const now = new Date().toISOString();
    await db('users').insert({ id: recruiter.id, company_id: admin.companyId, email: recruiter.email, first_name: 'Rae', last_name: 'Recruiter', password_hash: await hashPassword(recruiter.password), email_verified: true, created_at: now, updated_at: now });
    await replaceUserRoles(db, { companyId: admin.companyId }, recruiter.id, [role.body.data.id]);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('shows the admin both zones, and the recruiter only the zone the admin named them on', async () => {
    const { context: adminContext, page } = await signedIn(browser, admin, admin.password);

    // The admin names the recruiter on the United States zone.
    await page.goto(`${base()}/bands/zones`);
    await page.getByRole('button', { name: /Edit .*United States/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('group', { name: 'Who can see this zone' }).getByLabel('Rae Recruiter').check();
    await dialog.getByRole('button', { name: 'Save zone' }).click();
    await page.getByText('Saved the pay zone “United States”.').waitFor();
    const zones = await api<Schemas['PayZone'][]>('/api/bands/pay-zones');
    expect(zones.body.data.find((zone) => zone.name === 'United States')?.viewerUserIds).toEqual([recruiter.id]);

    // Positive control: the admin's editor has a column group per zone.
    await page.goto(`${base()}/bands/sets/${setId}`);
    const grid = page.getByRole('region', { name: 'Bands by company job and pay zone' });
    await grid.getByRole('columnheader', { name: 'United Kingdom' }).waitFor();
    expect(await grid.locator('th.bands-zone-head').allInnerTexts()).toEqual(['Everywhere', 'United States', 'United Kingdom']);
    await adminContext.close();

    const { context, page: theirs } = await signedIn(browser, recruiter, recruiter.password);
    await theirs.goto(`${base()}/bands/sets/${setId}`);
    const their = theirs.getByRole('region', { name: 'Bands by company job and pay zone' });
    await their.getByRole('columnheader', { name: 'United States' }).waitFor();
    expect(await their.locator('th.bands-zone-head').allInnerTexts()).toEqual(['United States']);
    await expect.poll(() => theirs.getByText('1 bands', { exact: false }).count()).toBeGreaterThan(0);
    // A viewer changes nothing: no build, no publish, no edit buttons.
    expect(await theirs.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    expect(await their.getByRole('button', { name: /Edit the band/ }).count()).toBe(0);
    expect(await seriousViolations(theirs)).toEqual([]);

    // Their pay zones list has their zone only.
    await theirs.goto(`${base()}/bands/zones`);
    await theirs.getByRole('cell', { name: 'United States' }).or(theirs.getByText('United States').first()).first().waitFor();
    expect(await theirs.getByText('United Kingdom').count()).toBe(0);
    await context.close();
  }, 300_000);
});
