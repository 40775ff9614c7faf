import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium, seriousViolations, signInThroughProvider } from './browser.js';

type Schemas = components['schemas'];
type BandSetDetail = Schemas['BandSetDetail'];

/** Whole dollars → cents. */
const usd = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });

describe('band sets: out of band by team, and publishing to a merit cycle, in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  let token: string;
  let live: BandSetDetail;
  let draft: BandSetDetail;
  let cycle: Schemas['MeritCycle'];
  const base = () => inject('baseUrl');

  async function api<T>(path: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) {
    return request<{ data: T } & Partial<Schemas['Error']>>(path, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${token}`, ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });
  }

  /** Sets the set's one band to min / mid / max (whole dollars) and reads the set again. */
  async function bandAt(set: BandSetDetail, [min, mid, max]: [number, number, number]): Promise<BandSetDetail> {
    const band = set.bands[0] as Schemas['Band'];
    const patched = await api(`/api/bands/band-sets/${set.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: usd(min), mid: usd(mid), max: usd(max) } });
    expect(patched.status).toBe(200);
    return (await api<BandSetDetail>(`/api/bands/band-sets/${set.id}`)).body.data;
  }

  beforeAll(async () => {
    db = await testDb();
    person = await createAdmin(db);
    token = await apiTokenOf(person.email);
    const support = await createTestUser(db, { companyId: person.companyId, internalAdmin: true });
    for (const flag of ['bands', 'compensation_planning']) {
      expect((await request(`/api/internal/companies/${person.companyId}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    }
    const hire = async (firstName: string, lastName: string, dollars: number, extra: { department?: string | null; managerId?: string } = {}) => {
      const id = await insertEmployee(db, person.companyId, { firstName, lastName, levelId: 'p3', ...extra });
      await insertPay(db, person.companyId, id, [{ type: 'base_salary', amount: dollars * 100, effectiveDate: '2024-01-01' }]);
      return id;
    };
    const mia = await hire('Mia', 'Manager', 100_000, { department: 'Engineering' });
    await hire('Ben', 'Above', 130_000, { department: 'Engineering', managerId: mia });
    await hire('Cat', 'Below', 60_000, { department: 'Sales', managerId: mia });
    await hire('Dov', 'Mid', 100_000, { department: 'Sales' });

    expect((await api('/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    const created = await api<BandSetDetail>('/api/bands/band-sets', { method: 'POST', json: { name: 'Live bands', currency: 'USD' } });
    const built = await api<Schemas['BandBuildResult']>(`/api/bands/band-sets/${created.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status).toBe(200);
    const ready = await bandAt(built.body.data.bandSet, [80_000, 100_000, 120_000]);
    const published = await api<BandSetDetail>(`/api/bands/band-sets/${ready.id}/publish`, { method: 'POST', ifMatch: ready.version, json: {} });
    expect(published.status).toBe(200);
    live = published.body.data;
    const copy = await api<BandSetDetail>(`/api/bands/band-sets/${live.id}/duplicate`, { method: 'POST', json: { name: 'Bands for merit' } });
    draft = await bandAt(copy.body.data, [90_000, 110_000, 130_000]);
    const made = await api<Schemas['MeritCycle']>('/api/v2/meritCycles', { method: 'POST', json: { name: 'Merit 2027', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' } });
    expect(made.status).toBe(201);
    cycle = made.body.data;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('lists who is out of band by department and by manager, then publishes a draft to a merit cycle leaving the live set live', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, base(), person.email, person.password);

    // The live set's evaluation: band 80k–120k, mid 100k. Ben (130k) is above, Cat (60k) below.
    await page.goto(`${base()}/bands/sets/${live.id}`);
    await page.getByRole('tab', { name: 'Evaluation' }).click();
    const section = page.getByRole('region', { name: 'Out of band by team' });
    await section.locator('tr[data-team="Engineering"]').waitFor();
    await expect.poll(() => section.locator('tr[data-team="Engineering"]').innerText()).toMatch(/Engineering\s+2\s+0\s+1\s+Ben Above \(above, 1\.30\)/);
    await expect.poll(() => section.locator('tr[data-team="Sales"]').innerText()).toMatch(/Sales\s+2\s+1\s+0\s+Cat Below \(below, 0\.60\)/);
    expect(await seriousViolations(page)).toEqual([]);

    await section.getByLabel('Group by').selectOption('manager');
    // Mia manages Ben and Cat: both out of band, Cat (0.4 from the midpoint's ratio) before Ben (0.3).
    await expect.poll(() => section.locator('tr[data-team="Mia Manager"]').innerText()).toMatch(/Mia Manager\s+2\s+1\s+1\s+Cat Below \(below, 0\.60\); Ben Above \(above, 1\.30\)/);
    await expect.poll(() => section.locator('tr[data-team="Engineering"]').count()).toBe(0);

    // Publish the draft to the merit cycle.
    await page.goto(`${base()}/bands/sets/${draft.id}`);
    await page.getByRole('button', { name: 'Publish' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Publish to').selectOption({ label: 'Merit cycle: Merit 2027' });
    await dialog.getByText('The live bands stay as they are.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('“Bands for merit” is the band set of “Merit 2027”.').waitFor();
    await page.getByText('This set is the band set of a merit cycle and never changes.', { exact: false }).waitFor();

    const sets = (await api<Schemas['BandSet'][]>('/api/bands/band-sets')).body.data;
    expect(sets.find((set) => set.id === draft.id)).toMatchObject({ status: 'cycle', meritCycleId: cycle.id });
    expect(sets.find((set) => set.id === live.id)).toMatchObject({ status: 'live' });
    await context.close();
  }, 300_000);
});
