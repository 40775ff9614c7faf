import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { switchOnPlanning } from '../meritCycles/test/fixtures.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type BandSetDetail = Schemas['BandSetDetail'];
type Approval = Schemas['BandSetApproval'];

/** Whole dollars → cents. */
const usd = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });

/*
 * Publishing a draft to a merit cycle asks the band-set approvers, as publishing to live does: the set
 * waits for them; the last approval publishes it to the cycle; a rejection leaves the cycle as it was.
 */
describe('publishing to a merit cycle through the band-set approvers', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let approver: TestUser;
  let cycleId = '';
  let adaId = '';

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  async function draft(name: string, [min, mid, max]: [number, number, number]): Promise<BandSetDetail> {
    const created = await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name, currency: 'USD' } });
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${created.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const band = built.body.data.bandSet.bands[0];
    if (!band) throw new Error('no band');
    expect((await call(admin, `/api/bands/band-sets/${created.body.data.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: usd(min), mid: usd(mid), max: usd(max) } })).status).toBe(200);
    return (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${created.body.data.id}`)).body.data;
  }

  const cycleSet = async () => (await call<Data<Schemas['BandSet'][]>>(admin, '/api/bands/band-sets')).body.data.filter((set) => set.status === 'cycle').map((set) => set.name);

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Cycle Approvals Co');
    admin = company.users.admin as TestUser;
    approver = company.users.analyst as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    adaId = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Cycle', levelId: 'p3' });
    await insertPay(db, company.id, adaId, [{ type: 'base_salary', amount: 9_900_000, effectiveDate: '2024-01-01' }]);
    const cycle = await call<Data<Schemas['MeritCycle']>>(admin, '/api/v2/meritCycles', {
      method: 'POST',
      json: { name: 'Merit 2028', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD', components: ['merit'] },
    });
    expect(cycle.status, JSON.stringify(cycle.body)).toBe(201);
    cycleId = cycle.body.data.id;
    const settings = await call(admin, '/api/workflow-settings', { method: 'PUT', ifMatch: 0, json: { bandPublicationApproverUserIds: [approver.id] } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  });

  it('waits for the approver; a rejection sends it back to draft and the cycle keeps no set', async () => {
    const declined = await draft('Declined for the cycle', [70_000, 90_000, 110_000]);
    const submitted = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${declined.id}/publish`, { method: 'POST', ifMatch: declined.version, json: { meritCycleId: cycleId, comment: 'For Merit 2028' } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.data).toMatchObject({ status: 'pendingApproval', meritCycleId: cycleId, publishedAt: null });
    expect(await cycleSet()).toEqual([]);

    const approval = await call<Data<Approval>>(approver, `/api/band-set-approvals/${declined.id}`);
    expect(approval.body.data.awaiting).toEqual([approver.id]);
    const rejected = await call<Data<Approval>>(approver, `/api/band-set-approvals/${declined.id}/reject`, { method: 'POST', ifMatch: approval.body.data.version, json: { comment: 'Too low' } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    const after = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${declined.id}`);
    expect(after.body.data).toMatchObject({ status: 'draft', meritCycleId: null, publishedAt: null });
    expect(await cycleSet()).toEqual([]);
  });

  it('publishes it to the cycle with the last approval; the live set is untouched', async () => {
    const approved = await draft('Approved for the cycle', [90_000, 110_000, 130_000]);
    const submitted = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${approved.id}/publish`, { method: 'POST', ifMatch: approved.version, json: { meritCycleId: cycleId } });
    expect(submitted.body.data.status).toBe('pendingApproval');
    // Only the awaited approver decides.
    expect((await call(admin, `/api/band-set-approvals/${approved.id}/approve`, { method: 'POST', ifMatch: submitted.body.data.version, json: {} })).status).toBe(403);
    const decided = await call<Data<Approval>>(approver, `/api/band-set-approvals/${approved.id}/approve`, { method: 'POST', ifMatch: submitted.body.data.version, json: { comment: 'Fine' } });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const set = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${approved.id}`);
    expect(set.body.data).toMatchObject({ status: 'cycle', meritCycleId: cycleId });
    expect(set.body.data.publishedAt).not.toBeNull();
    expect(await cycleSet()).toEqual(['Approved for the cycle']);
    expect((await call<Data<Schemas['BandSet'][]>>(admin, '/api/bands/band-sets')).body.data.filter((entry) => entry.status === 'live')).toEqual([]);
    const history = await call<Data<Schemas['BandSetHistoryEntry'][]>>(admin, `/api/bands/band-sets/${approved.id}/history`);
    expect(history.body.data.map((entry) => [entry.action, entry.from, entry.to])).toEqual([
      ['submit', 'draft', 'pendingApproval'],
      ['approveToCycle', 'pendingApproval', 'cycle'],
    ]);

    // Launching prices the cycle's people against it: Ada's 99,000 ÷ the approved mid 110,000 = 0.9.
    const cycle = (await call<Data<Schemas['MeritCycle']>>(admin, `/api/v2/meritCycles/${cycleId}`)).body.data;
    const launched = await call<Data<Schemas['MeritCycle']>>(admin, `/api/v2/meritCycles/${cycleId}/transitions`, { method: 'POST', ifMatch: cycle.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const ada = await call<Data<Schemas['WorksheetEmployee']>>(admin, `/api/v2/meritCycles/${cycleId}/employees/${adaId}`);
    expect(ada.status, JSON.stringify(ada.body)).toBe(200);
    expect(ada.body.data.bandPosition).toMatchObject({ min: usd(90_000), mid: usd(110_000), max: usd(130_000), compaRatio: 0.9 });
  });
});
