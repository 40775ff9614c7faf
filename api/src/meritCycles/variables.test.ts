import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { writeMeritCycleGrants, writeMeritCyclePay } from '../people/meritCyclePay.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { switchOnPlanning } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Cycle = Schemas['MeritCycle'];
type Row = Schemas['WorksheetEmployee'];
type Worksheet = Schemas['Worksheet'];

/*
 * Several-variables recommendations, the on-leave rule, the eligibility preview and what closing
 * writes besides base pay. The numbers are worked by hand in the comments (docs/merit-cycles.md).
 * The band: software engineering P3, USD 80k / 100k / 120k.
 */
describe('merit cycles: several variables, leave, preview and the close', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let planner: TestUser;
  let cycle: Cycle;
  const people: Record<string, string> = {};

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });
  const cyclePath = (suffix = '') => `/api/v2/meritCycles/${cycle.id}${suffix}`;
  const rowOf = async (employee: string) => {
    const reply = await call<Data<Row>>(admin, cyclePath(`/employees/${people[employee]}`));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };

  const variables = {
    kind: 'variables',
    variables: {
      baseBp: 0,
      factors: [
        { variable: 'rating', weightPercent: 100, ratings: [{ rating: 'meets', adjustmentBp: 100 }, { rating: 'exceeds', adjustmentBp: 200 }] },
        { variable: 'rangePenetration', weightPercent: 100, steps: [{ to: 0.25, adjustmentBp: 150 }, { from: 0.75, adjustmentBp: -50 }] },
        { variable: 'monthsSinceLastIncrease', weightPercent: 100, steps: [{ from: 25, adjustmentBp: 50 }] },
      ],
      capMaxBp: 800,
      belowTargetBp: 100,
      aboveTargetBp: 150,
    },
    guidelines: { mode: 'advisory', commentRequired: false },
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Variables Co');
    admin = company.users.admin as TestUser;
    planner = company.users.compensation_planner as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const id = company.id;
    people.mia = await insertEmployee(db, id, { firstName: 'Mia', lastName: 'Lead', levelId: 'm4', performanceRating: 'meets' });
    await insertPay(db, id, people.mia, [{ type: 'base_salary', amount: 20_000_000, effectiveDate: '2024-01-01' }]);
    people.ava = await insertEmployee(db, id, { firstName: 'Ava', lastName: 'Able', managerId: people.mia, performanceRating: 'exceeds' });
    await insertPay(db, id, people.ava, [{ type: 'base_salary', amount: 8_500_000, effectiveDate: '2023-06-01' }]);
    people.leo = await insertEmployee(db, id, { firstName: 'Leo', lastName: 'Long', managerId: people.mia, performanceRating: 'meets' });
    await insertPay(db, id, people.leo, [{ type: 'base_salary', amount: 11_000_000, effectiveDate: '2025-03-01' }]);
    people.lia = await insertEmployee(db, id, { firstName: 'Lia', lastName: 'Away', managerId: people.mia, performanceRating: 'meets' });
    await insertPay(db, id, people.lia, [{ type: 'base_salary', amount: 9_000_000, effectiveDate: '2024-01-01' }]);

    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Bands for variables', currency: 'USD' } });
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status).toBe(200);
    const band = built.body.data.bandSet.bands[0];
    if (!band) throw new Error('no band built');
    const patched = await call(admin, `/api/bands/band-sets/${set.body.data.id}/bands/${band.id}`, {
      method: 'PATCH',
      ifMatch: band.version,
      json: { min: { amount: 8_000_000, currency: 'USD' }, mid: { amount: 10_000_000, currency: 'USD' }, max: { amount: 12_000_000, currency: 'USD' } },
    });
    expect(patched.status).toBe(200);
    const created = await call<Data<Cycle>>(admin, '/api/v2/meritCycles', {
      method: 'POST',
      json: { name: 'Variables 2026', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD', components: ['merit', 'lumpSum', 'equityRefresh'], bandSetId: set.body.data.id },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    cycle = created.body.data;
  });

  it('records a dated leave on the employee through the people API', async () => {
    const lia = await call<Data<Schemas['Employee']>>(admin, `/api/employees/${people.lia}`);
    expect(lia.body.data.leave).toBeNull();
    const backwards = await call(admin, `/api/employees/${people.lia}`, { method: 'PATCH', ifMatch: lia.body.data.version, json: { leave: { startDate: '2025-11-01', endDate: '2025-10-01' } } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual([{ field: 'body.leave.endDate', message: 'must not be before startDate' }]);
    const saved = await call<Data<Schemas['Employee']>>(admin, `/api/employees/${people.lia}`, { method: 'PATCH', ifMatch: lia.body.data.version, json: { leave: { startDate: '2025-11-01', endDate: '2026-03-31' } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.leave).toEqual({ startDate: '2025-11-01', endDate: '2026-03-31' });
    expect((await call<Data<Schemas['Employee']>>(admin, `/api/employees/${people.lia}`)).body.data.leave).toEqual({ startDate: '2025-11-01', endDate: '2026-03-31' });
  });

  it('previews unsaved rules without saving them: counts and the first rows with their reasons', async () => {
    const notOnLeave = { kind: 'all', rules: [{ kind: 'onLeave', onLeave: false }] };
    const preview = await call<Data<Schemas['EligibilityList']>>(admin, cyclePath('/eligibility/preview'), { method: 'POST', json: notOnLeave });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.counts).toEqual({ employees: 4, eligible: 3, ineligible: 1, excluded: 0 });
    // Ineligible first, with the reason.
    expect(preview.body.data.employees[0]).toMatchObject({ name: 'Lia Away', status: 'ineligible', reasons: ['On leave on 2026-01-01 (from 2025-11-01 to 2026-03-31)'] });
    // On a cutoff after the leave ends she is back in; limit cuts the list, not the counts.
    const later = await call<Data<Schemas['EligibilityList']>>(admin, cyclePath('/eligibility/preview?limit=2'), { method: 'POST', json: { kind: 'onLeave', onLeave: false, date: '2026-04-01' } });
    expect(later.body.data.counts).toEqual({ employees: 4, eligible: 4, ineligible: 0, excluded: 0 });
    expect(later.body.data.employees).toHaveLength(2);
    // Those on leave only: three fail, each saying so.
    const onLeave = await call<Data<Schemas['EligibilityList']>>(admin, cyclePath('/eligibility/preview'), { method: 'POST', json: { kind: 'onLeave', onLeave: true } });
    expect(onLeave.body.data.counts).toMatchObject({ eligible: 1, ineligible: 3 });
    expect(onLeave.body.data.employees.filter((entry) => entry.status === 'ineligible').map((entry) => entry.reasons)).toEqual([['Not on leave on 2026-01-01'], ['Not on leave on 2026-01-01'], ['Not on leave on 2026-01-01']]);
    // Incomplete rules are refused the way saving them is; a manager may not preview.
    const incomplete = await call(admin, cyclePath('/eligibility/preview'), { method: 'POST', json: { kind: 'onLeave' } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors).toEqual([{ field: 'body.onLeave', message: 'is required for an onLeave rule (true: on leave, false: not on leave)' }]);
    expect((await call(company.users.people_manager as TestUser, cyclePath('/eligibility/preview'), { method: 'POST', json: notOnLeave })).status).toBe(403);
    // Nothing was saved: the cycle keeps its rules and version, and its eligibility list still lets Lia in.
    const stored = (await call<Data<Cycle>>(admin, cyclePath())).body.data;
    expect(stored.eligibility).toEqual({ kind: 'all', rules: [] });
    expect(stored.version).toBe(cycle.version);
    expect((await call<Data<Schemas['EligibilityList']>>(admin, cyclePath('/eligibility'))).body.data.counts).toEqual({ employees: 4, eligible: 4, ineligible: 0, excluded: 0 });

    const saved = await call<Data<Cycle>>(admin, cyclePath('/eligibility/rules'), { method: 'PUT', ifMatch: cycle.version, json: notOnLeave });
    expect(saved.status).toBe(200);
    cycle = saved.body.data;
  });

  it('recommends from several variables, with the guideline flags of the matrix', async () => {
    const repeated = await call(admin, cyclePath('/recommendationLogic'), {
      method: 'PUT',
      ifMatch: cycle.version,
      json: { ...variables, variables: { ...variables.variables, factors: [{ variable: 'rating', weightPercent: 100, ratings: [{ rating: 'stellar', adjustmentBp: 100 }] }, { variable: 'compaRatio', weightPercent: 100, steps: [{ from: 1, to: 0.9, adjustmentBp: 50 }] }] } },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.errors).toEqual([
      { field: 'body.variables.factors.0.ratings.0.rating', message: "is not on the cycle's performance scale (below, developing, meets, exceeds, exceptional)" },
      { field: 'body.variables.factors.1.steps.0.to', message: 'must be above from' },
    ]);
    const saved = await call<Data<Cycle>>(admin, cyclePath('/recommendationLogic'), { method: 'PUT', ifMatch: cycle.version, json: variables });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.recommendation).toEqual(variables);
    cycle = saved.body.data;
    const launched = await call<Data<Cycle>>(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    cycle = launched.body.data;
    expect(cycle.counts).toMatchObject({ employees: 4, eligible: 3, ineligible: 1 });

    // Ava: exceeds +2%, penetration (85,000 − 80,000) ÷ 40,000 = 0.125 < 0.25 +1.5%, 31 months since
    // 2023-06-01 (≥ 25) +0.5% = 4.0%; min 3.0%, max 5.5%; $85,000.00 × 4% = $3,400.00.
    const ava = await rowOf('ava');
    expect(ava.recommendation).toEqual({ minBp: 300, targetBp: 400, maxBp: 550, targetAmount: { amount: 340_000, currency: 'USD' } });
    expect(ava.merit).toEqual({ percentBp: 400, amount: { amount: 340_000, currency: 'USD' } });
    // Leo: meets +1%, penetration 30,000 ÷ 40,000 = 0.75 (from 0.75) −0.5%, 10 months +0 = 0.5%;
    // min 0 (not below), max 2.0%; $110,000.00 × 0.5% = $550.00.
    const leo = await rowOf('leo');
    expect(leo.recommendation).toEqual({ minBp: 0, targetBp: 50, maxBp: 200, targetAmount: { amount: 55_000, currency: 'USD' } });
    // Mia has no band (M4): meets +1%, 24 months since 2024-01-01 (< 25) +0 = 1.0% of $200,000.00 = $2,000.00.
    expect((await rowOf('mia')).recommendation).toEqual({ minBp: 0, targetBp: 100, maxBp: 250, targetAmount: { amount: 200_000, currency: 'USD' } });
    // Lia, on leave, is out with the reason.
    expect((await rowOf('lia')).eligibility).toEqual({ status: 'ineligible', reasons: ['On leave on 2026-01-01 (from 2025-11-01 to 2026-03-31)'] });

    // Planned at 6% (above 5.5%), Ava's row carries the advisory cycle's warning.
    const over = await call<Data<Schemas['WorksheetEmployeeEditResult']>>(admin, cyclePath(`/employees/${people.ava}`), { method: 'PATCH', ifMatch: ava.version, json: { meritPercentBp: 600 } });
    expect(over.status, JSON.stringify(over.body)).toBe(200);
    expect(over.body.data.employee.flags).toEqual([expect.objectContaining({ severity: 'warning', code: 'outside_guideline' })]);
  });

  it('closes once, writing base pay, a one-off bonus for each lump sum and a refresh grant for each equity refresh', async () => {
    // A share price of $12.50: a $10,000.00 refresh is 800 shares.
    const settings = await call<Data<{ version: number }>>(admin, '/api/company/settings');
    expect((await call(admin, '/api/company/settings', { method: 'PATCH', ifMatch: settings.body.data.version, json: { sharePrice: 12.5 } })).status).toBe(200);
    const ava = await rowOf('ava');
    const planned = await call(admin, cyclePath(`/employees/${people.ava}`), { method: 'PATCH', ifMatch: ava.version, json: { meritPercentBp: 400, lumpSumAmount: { amount: 250_000, currency: 'USD' }, equityRefreshAmount: { amount: 1_000_000, currency: 'USD' } } });
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);

    for (const worksheet of (await call<Data<Worksheet[]>>(admin, cyclePath('/worksheets'))).body.data) {
      const submitted = await call<Data<Worksheet>>(admin, cyclePath(`/worksheets/${worksheet.id}/submit`), { method: 'POST', ifMatch: worksheet.version, json: {} });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const approved = await call<Data<Worksheet>>(planner, cyclePath(`/worksheets/${worksheet.id}/approve`), { method: 'POST', ifMatch: submitted.body.data.version, json: {} });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    }
    cycle = (await call<Data<Cycle>>(admin, cyclePath())).body.data;
    const closed = await call<Data<Cycle>>(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'close' } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    // Base for Mia, Ava and Leo, and Ava's bonus.
    expect(closed.body.data.payRecordsWritten).toBe(4);

    const records = await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${people.ava}/compensation`);
    const onTheDay = records.body.data.filter((record) => record.effectiveDate === '2026-01-01').map((record) => ({ type: record.type, amount: record.amount, reason: record.reason, source: record.source }));
    expect(onTheDay.sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      // $85,000.00 + 4% = $88,400.00
      { type: 'base_salary', amount: { amount: 8_840_000, currency: 'USD' }, reason: 'merit', source: 'merit_cycle' },
      { type: 'one_off_bonus', amount: { amount: 250_000, currency: 'USD' }, reason: 'merit', source: 'merit_cycle' },
    ]);
    const grants = await call<Data<Schemas['EquityGrant'][]>>(admin, `/api/employees/${people.ava}/equity-grants`);
    expect(grants.status).toBe(200);
    expect(grants.body.data.map((grant) => ({ type: grant.grantType, reason: grant.reason, shares: grant.shares, grantDate: grant.grantDate, vestingStartDate: grant.vestingStartDate }))).toEqual([
      { type: 'rsu', reason: 'refresher', shares: 800, grantDate: '2026-01-01', vestingStartDate: '2026-01-01' },
    ]);
    // Leo had no lump sum or refresh: his base only.
    expect((await call<Data<Schemas['EquityGrant'][]>>(admin, `/api/employees/${people.leo}/equity-grants`)).body.data).toEqual([]);

    // Closing twice writes once.
    const twice = await call(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: closed.body.data.version, json: { action: 'close' } });
    expect(twice.status).toBe(409);
    expect((await call<Data<Schemas['EquityGrant'][]>>(admin, `/api/employees/${people.ava}/equity-grants`)).body.data).toHaveLength(1);
    expect((await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${people.ava}/compensation?type=one_off_bonus`)).body.data).toHaveLength(1);
    // The writers themselves count what is already there as written.
    const scope = { companyId: company.id };
    const ids = people as Record<'ava', string>;
    expect(await db.transaction((trx) => writeMeritCycleGrants(trx, scope, [{ employeeId: ids.ava, amount: 1_000_000, currency: 'USD', grantDate: '2026-01-01' }]))).toMatchObject({ written: 0, unchanged: 1, conflicts: [] });
    expect(
      await db.transaction((trx) => writeMeritCyclePay(trx, scope, [{ employeeId: ids.ava, type: 'one_off_bonus', amount: 250_000, currency: 'USD', effectiveDate: '2026-01-01', reason: 'merit' }])),
    ).toMatchObject({ written: 0, unchanged: 1, conflicts: [] });
  });
});
