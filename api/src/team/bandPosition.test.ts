import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Row = Schemas['TeamEmployeeRow'];

async function switchOn(db: Knex, companyId: string, flags: string[]): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  for (const flag of flags) {
    const reply = await request(`/api/internal/companies/${companyId}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(reply.status).toBe(200);
  }
}

const usd = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });

describe('band position in the team view', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  const ids: Record<string, string> = {};

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  const positions = async (query = '') => {
    const reply = await call<Data<Schemas['TeamTable']>>(admin, `/api/team/employees/table?columns=name&columns=bandPosition&limit=50${query}`);
    expect(reply.status).toBe(200);
    return reply.body.data.rows;
  };
  const byName = (rows: Row[]) => new Map(rows.map((row) => [row.name, row.bandPosition]));

  /** A draft whose one band (software engineering P3, the catch-all zone) is set by hand, then published. */
  async function publishSet(name: string, figures: { min: number; mid: number; max: number }): Promise<string> {
    const created = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name, currency: 'USD' } });
    expect(created.status).toBe(201);
    const setId = created.body.data.id;
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${setId}/build`, {
      method: 'POST',
      json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 }, marketLocationId: 'us_sf_bay_area' },
    });
    expect(built.status).toBe(200);
    const band = built.body.data.bandSet.bands[0];
    if (!band) throw new Error('the build made no band');
    const edited = await call<Data<Schemas['Band']>>(admin, `/api/bands/band-sets/${setId}/bands/${band.id}`, {
      method: 'PATCH',
      ifMatch: band.version,
      json: { min: usd(figures.min), mid: usd(figures.mid), max: usd(figures.max) },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}`);
    const published = await call(admin, `/api/bands/band-sets/${setId}/publish`, { method: 'POST', ifMatch: set.body.data.version, json: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    return setId;
  }

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Band Position Co');
    admin = company.users.admin as TestUser;
    await switchOn(db, company.id, ['team_view', 'bands']);
    const id = company.id;
    ids.ada = await insertEmployee(db, id, { firstName: 'Ada', lastName: 'Below', levelId: 'p3' });
    await insertPay(db, id, ids.ada, [{ type: 'base_salary', amount: usd(90_000).amount, effectiveDate: '2024-01-01' }]);
    ids.ben = await insertEmployee(db, id, { firstName: 'Ben', lastName: 'Inside', levelId: 'p3', locationId: 'us_new_york' });
    await insertPay(db, id, ids.ben, [{ type: 'base_salary', amount: usd(130_000).amount, effectiveDate: '2024-01-01' }]);
    ids.nob = await insertEmployee(db, id, { firstName: 'Nob', lastName: 'Nobase', levelId: 'p3' });
    ids.pat = await insertEmployee(db, id, { firstName: 'Pat', lastName: 'Nojob', levelId: 'p2' });
    await insertPay(db, id, ids.pat, [{ type: 'base_salary', amount: usd(80_000).amount, effectiveDate: '2024-01-01' }]);
    // One company job only (software engineering P3), so the P2 has none.
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
  });

  it('shows nothing before a set is live, then each person’s place in the live set, and follows the next set published', async () => {
    // Before any live set: the column is there and empty (null), not a made-up band.
    const before = byName(await positions());
    expect([...before.values()]).toEqual([null, null, null, null]);

    const firstId = await publishSet('2026 bands', { min: 100_000, mid: 120_000, max: 140_000 });
    const first = byName(await positions());
    // 90,000 in 100,000–140,000: below; 90,000 ÷ 120,000 = 0.75; (90,000 − 100,000) ÷ 40,000 = −0.25.
    expect(first.get('Ada Below')).toEqual({
      bandSetId: firstId,
      bandSetName: '2026 bands',
      band: { min: usd(100_000), mid: usd(120_000), max: usd(140_000) },
      source: 'job',
      gradeKey: null,
      compaRatio: 0.75,
      rangePenetration: -0.25,
      position: 'below',
      label: null,
    });
    // 130,000: inside; 130,000 ÷ 120,000 = 1.0833; 30,000 ÷ 40,000 = 0.75.
    expect(first.get('Ben Inside')).toMatchObject({ compaRatio: 1.0833, rangePenetration: 0.75, position: 'inside', label: null });
    expect(first.get('Nob Nobase')).toMatchObject({ band: { mid: usd(120_000) }, compaRatio: null, position: null, label: 'No base salary' });
    expect(first.get('Pat Nojob')).toMatchObject({ band: null, position: null, label: 'No company job for their family and level' });

    // Sorted by band position: by compa-ratio to the midpoint, the unplaced last either way.
    expect((await positions('&sort=bandPosition&order=asc')).map((row) => row.name)).toEqual(['Ada Below', 'Ben Inside', 'Nob Nobase', 'Pat Nojob']);
    expect((await positions('&sort=bandPosition&order=desc')).map((row) => row.name)).toEqual(['Ben Inside', 'Ada Below', 'Nob Nobase', 'Pat Nojob']);

    // A new set goes live: the team view follows it. 90,000 in 80,000–100,000 (mid 90,000): inside, 1.00, 0.5;
    // 130,000: above, 130 ÷ 90 = 1.4444, (130 − 80) ÷ 20 = 2.5.
    await publishSet('2027 bands', { min: 80_000, mid: 90_000, max: 100_000 });
    const second = byName(await positions());
    expect(second.get('Ada Below')).toMatchObject({ bandSetName: '2027 bands', compaRatio: 1, rangePenetration: 0.5, position: 'inside' });
    expect(second.get('Ben Inside')).toMatchObject({ compaRatio: 1.4444, rangePenetration: 2.5, position: 'above' });

    // One employee's detail carries it too.
    const detail = await call<Data<Schemas['TeamEmployeeDetail']>>(admin, `/api/team/employees/${ids.ada}`);
    expect(detail.body.data.employee.bandPosition).toMatchObject({ position: 'inside', compaRatio: 1 });
  });

  it('is absent without the pay permission, and empty once the company switches bands off', async () => {
    const role = await call<Data<Schemas['Role']>>(admin, '/api/roles', { method: 'POST', json: { name: 'Team without pay', permissions: { team: [{ authority: 'view', scope: 'all' }] } } });
    expect(role.status).toBe(200);
    const noPay = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
    const rows = await call<Data<Schemas['TeamTable']>>(noPay, '/api/team/employees/table?columns=name&columns=bandPosition');
    expect(rows.status).toBe(200);
    expect(rows.body.data.rows.length).toBe(4);
    expect(rows.body.data.rows.every((row) => !('bandPosition' in row))).toBe(true);

    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: false } })).status).toBe(200);
    expect([...byName(await positions()).values()]).toEqual([null, null, null, null]);
  });
});
