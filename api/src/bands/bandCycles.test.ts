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
type Evaluation = Schemas['BandEvaluation'];

/** Whole dollars → cents. */
const usd = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });

/*
 * Band sets published to a merit cycle, and the evaluation's out-of-band lists by team. One company job
 * (Software Engineering P3) in one zone (the catch-all), so every employee below sits in the same band.
 */
describe('band sets per merit cycle, and out of band by team', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let payBlind: TestUser;
  const people: Record<string, string> = {};
  let live: BandSetDetail;

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  /** A draft whose one band is set by hand to min / mid / max (whole dollars). */
  async function draftWithBand(name: string, [min, mid, max]: [number, number, number], from?: string): Promise<BandSetDetail> {
    const created = from
      ? await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${from}/duplicate`, { method: 'POST', json: { name } })
      : await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name, currency: 'USD' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let set = created.body.data;
    if (!from) {
      const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      set = built.body.data.bandSet;
    }
    const band = set.bands[0];
    if (!band) throw new Error('no band');
    const patched = await call(admin, `/api/bands/band-sets/${set.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: usd(min), mid: usd(mid), max: usd(max) } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const reread = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${set.id}`);
    return reread.body.data;
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Cycle Bands Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    const role = await call<Data<Schemas['Role']>>(admin, '/api/roles', {
      method: 'POST',
      json: { name: 'Bands without pay', permissions: { bands: [{ authority: 'view', scope: 'all' }], team: [{ authority: 'view', scope: 'all' }] } },
    });
    expect(role.status).toBe(200);
    payBlind = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });

    const id = company.id;
    const person = async (key: string, firstName: string, lastName: string, dollars: number, extra: { department?: string | null; managerId?: string } = {}) => {
      people[key] = await insertEmployee(db, id, { firstName, lastName, levelId: 'p3', ...extra });
      await insertPay(db, id, people[key] as string, [{ type: 'base_salary', amount: dollars * 100, effectiveDate: '2024-01-01' }]);
    };
    // Mia has no department and no manager; she manages Ada, Ben and Cat. Dov has no manager.
    await person('mia', 'Mia', 'Manager', 125_000, { department: null });
    await person('ada', 'Ada', 'Inside', 90_000, { department: 'Engineering', managerId: people.mia });
    await person('ben', 'Ben', 'Above', 130_000, { department: 'Engineering', managerId: people.mia });
    await person('cat', 'Cat', 'Below', 60_000, { department: 'Sales', managerId: people.mia });
    await person('dov', 'Dov', 'Mid', 100_000, { department: 'Sales' });

    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    // The live set: USD 80,000 / 100,000 / 120,000.
    const draft = await draftWithBand('Live bands', [80_000, 100_000, 120_000]);
    const published = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${draft.id}/publish`, { method: 'POST', ifMatch: draft.version, json: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    live = published.body.data;
    expect(live).toMatchObject({ status: 'live', meritCycleId: null });
  });

  it('lists the people out of band by department: furthest from the midpoint first, teams with most out of band first', async () => {
    const reply = await call<Data<Evaluation>>(admin, `/api/bands/band-sets/${live.id}/evaluation`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const bandId = live.bands[0]?.id;
    // Band 80k–120k, mid 100k: Ben 130k above (1.3), Cat 60k below (0.6), Mia 125k above (1.25); Ada 90k and Dov 100k inside.
    expect(reply.body.data.outOfBand).toEqual({
      groupBy: 'department',
      teams: [
        { key: 'Engineering', name: 'Engineering', pricedCount: 2, belowCount: 0, aboveCount: 1, employees: [{ employeeId: people.ben, name: 'Ben Above', bandId, position: 'above', compaRatio: 1.3 }] },
        { key: 'Sales', name: 'Sales', pricedCount: 2, belowCount: 1, aboveCount: 0, employees: [{ employeeId: people.cat, name: 'Cat Below', bandId, position: 'below', compaRatio: 0.6 }] },
        { key: null, name: 'No department', pricedCount: 1, belowCount: 0, aboveCount: 1, employees: [{ employeeId: people.mia, name: 'Mia Manager', bandId, position: 'above', compaRatio: 1.25 }] },
      ],
    });
  });

  it('groups them by manager on request, and lists nobody to a person who may not see pay', async () => {
    const reply = await call<Data<Evaluation>>(admin, `/api/bands/band-sets/${live.id}/evaluation?groupBy=manager`);
    expect(reply.status).toBe(200);
    const teams = reply.body.data.outOfBand.teams;
    expect(teams.map((team) => [team.name, team.pricedCount, team.belowCount, team.aboveCount, team.employees.map((entry) => entry.name)])).toEqual([
      // Cat is 0.4 from the midpoint's ratio, Ben 0.3.
      ['Mia Manager', 3, 1, 1, ['Cat Below', 'Ben Above']],
      ['No manager', 2, 0, 1, ['Mia Manager']],
    ]);
    expect(teams[0]?.key).toBe(people.mia);
    expect((await call(admin, `/api/bands/band-sets/${live.id}/evaluation?groupBy=location`)).status).toBe(400);

    const blind = await call<Data<Evaluation>>(payBlind, `/api/bands/band-sets/${live.id}/evaluation?groupBy=manager`);
    expect(blind.status).toBe(200);
    expect(blind.body.data.employees).toHaveLength(5); // they see who is in the band…
    expect(blind.body.data.outOfBand).toEqual({ groupBy: 'manager', teams: [] }); // …but not whose pay is out of it
  });

  it('publishes drafts to a merit cycle, which prices its people against the last one at launch; the live set stays live', async () => {
    const created = await call<Data<Schemas['MeritCycle']>>(admin, '/api/v2/meritCycles', {
      method: 'POST',
      json: { name: 'Merit 2027', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD', components: ['merit'], bandSetId: live.id },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let cycle = created.body.data;

    // A first draft for the cycle, then a second that replaces it (the first archived in the same change).
    const first = await draftWithBand('For the cycle, first try', [50_000, 60_000, 70_000], live.id);
    const toCycle = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${first.id}/publish`, { method: 'POST', ifMatch: first.version, json: { meritCycleId: cycle.id, comment: 'For merit' } });
    expect(toCycle.status, JSON.stringify(toCycle.body)).toBe(200);
    expect(toCycle.body.data).toMatchObject({ status: 'cycle', meritCycleId: cycle.id });
    expect(toCycle.body.data.publishedAt).not.toBeNull();

    let second = await draftWithBand('For the cycle', [90_000, 110_000, 130_000], live.id);
    // Eve's job (P4) has no band of its own in the cycle's set, only its grade G1 does: 100,000 / 125,000 / 150,000.
    const g1 = (await call<Data<Schemas['CompGrade']>>(admin, '/api/bands/grades', { method: 'POST', json: { key: 'G1' } })).body.data;
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p4', gradeId: g1.id } })).status).toBe(201);
    people.eve = await insertEmployee(db, company.id, { firstName: 'Eve', lastName: 'Graded', levelId: 'p4', department: 'Engineering' });
    await insertPay(db, company.id, people.eve, [{ type: 'base_salary', amount: 10_000_000, effectiveDate: '2024-01-01' }]);
    const zoneId = second.bands[0]?.payZoneId ?? '';
    const gradeBand = await call(admin, `/api/bands/band-sets/${second.id}/grade-bands`, { method: 'POST', json: { gradeId: g1.id, payZoneId: zoneId, min: usd(100_000), mid: usd(125_000), max: usd(150_000) } });
    expect(gradeBand.status, JSON.stringify(gradeBand.body)).toBe(201);
    second = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${second.id}`)).body.data;
    const stale = await call(admin, `/api/bands/band-sets/${second.id}/publish`, { method: 'POST', ifMatch: second.version - 1, json: { meritCycleId: cycle.id } });
    expect(stale.status).toBe(409);
    const replaced = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${second.id}/publish`, { method: 'POST', ifMatch: second.version, json: { meritCycleId: cycle.id } });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);

    const sets = await call<Data<Schemas['BandSet'][]>>(admin, '/api/bands/band-sets');
    const byName = new Map(sets.body.data.map((set) => [set.name, set]));
    expect(byName.get('Live bands')).toMatchObject({ status: 'live', meritCycleId: null });
    expect(byName.get('For the cycle, first try')).toMatchObject({ status: 'archived', meritCycleId: cycle.id });
    expect(byName.get('For the cycle')).toMatchObject({ status: 'cycle', meritCycleId: cycle.id });

    const history = await call<Data<Schemas['BandSetHistoryEntry'][]>>(admin, `/api/bands/band-sets/${first.id}/history`);
    expect(history.body.data.map((entry) => [entry.action, entry.from, entry.to, entry.comment])).toEqual([
      ['publishToCycle', 'draft', 'cycle', 'For merit'],
      ['archive', 'cycle', 'archived', 'Replaced by “For the cycle” for “Merit 2027”.'],
    ]);
    // A set serving a cycle never changes, and cannot go live.
    expect((await call(admin, `/api/bands/band-sets/${second.id}/publish`, { method: 'POST', ifMatch: replaced.body.data.version, json: {} })).status).toBe(409);

    // Launch: Ada's 90,000 against the cycle's band (mid 110,000) → 90 ÷ 110 = 0.81818… → 0.8182, not the live set's 0.9.
    const launched = await call<Data<Schemas['MeritCycle']>>(admin, `/api/v2/meritCycles/${cycle.id}/transitions`, { method: 'POST', ifMatch: cycle.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    cycle = launched.body.data;
    const ada = await call<Data<Schemas['WorksheetEmployee']>>(admin, `/api/v2/meritCycles/${cycle.id}/employees/${people.ada}`);
    expect(ada.status, JSON.stringify(ada.body)).toBe(200);
    expect(ada.body.data.bandPosition).toMatchObject({ min: usd(90_000), mid: usd(110_000), compaRatio: 0.8182 });
    // Eve's 100,000 against her grade's band: 100 ÷ 125 = 0.8; (100 − 100) ÷ 50 = 0.
    const eve = await call<Data<Schemas['WorksheetEmployee']>>(admin, `/api/v2/meritCycles/${cycle.id}/employees/${people.eve}`);
    expect(eve.status, JSON.stringify(eve.body)).toBe(200);
    expect(eve.body.data.bandPosition).toMatchObject({ min: usd(100_000), mid: usd(125_000), max: usd(150_000), compaRatio: 0.8, rangePenetration: 0 });

    // The live set still places Ada at 0.9, in the evaluation and the team view's column.
    const evaluation = await call<Data<Evaluation>>(admin, `/api/bands/band-sets/${live.id}/evaluation`);
    expect(evaluation.body.data.employees.find((entry) => entry.employeeId === people.ada)?.compaRatio).toBe(0.9);

    // A launched cycle fixed its bands: another draft is refused and stays a draft.
    const late = await draftWithBand('Too late', [1_000, 2_000, 3_000], live.id);
    const refused = await call(admin, `/api/bands/band-sets/${late.id}/publish`, { method: 'POST', ifMatch: late.version, json: { meritCycleId: cycle.id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'merit_cycle_launched', message: '“Merit 2027” has launched; its bands were fixed at launch.' });
    expect((await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${late.id}`)).body.data.status).toBe('draft');
  });

  it('answers 404 for another company’s merit cycle and writes nothing', async () => {
    const other = await createTestCompany(db, 'Other Cycle Co');
    const support = await createTestUser(db, { companyId: other.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, other.id);
    const theirs = await call<Data<Schemas['MeritCycle']>>(other.users.admin as TestUser, '/api/v2/meritCycles', {
      method: 'POST',
      json: { name: 'Theirs', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' },
    });
    expect(theirs.status).toBe(201);
    const draft = await draftWithBand('Not theirs', [80_000, 100_000, 120_000], live.id);
    const reply = await call(admin, `/api/bands/band-sets/${draft.id}/publish`, { method: 'POST', ifMatch: draft.version, json: { meritCycleId: theirs.body.data.id } });
    expect(reply.status).toBe(404);
    const after = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${draft.id}`);
    expect(after.body.data).toMatchObject({ status: 'draft', meritCycleId: null, version: draft.version });
  });
});
