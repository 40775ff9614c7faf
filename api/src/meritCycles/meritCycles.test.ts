import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillPath, sampleBody } from '../../test/contractSamples.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { TestSockets } from '../../test/sockets.js';
import { until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { loadContract } from '../http/contract.js';
import { writeMeritCyclePay } from '../people/meritCyclePay.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { NO_SUMS, countedSums, keptSums, listWorksheets } from './store.js';
import { switchOnPlanning } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Cycle = Schemas['MeritCycle'];
type Row = Schemas['WorksheetEmployee'];
type Worksheet = Schemas['Worksheet'];
type WorksheetBudget = Schemas['WorksheetBudget'];

const contract = loadContract(path.resolve(import.meta.dirname, '..', '..', '..', 'openapi.yaml'));
// Reward letters live under a cycle's path too, as a module of their own (api/src/rewardLetters).
const planningOperations = contract.operations.filter((op) => op.path.startsWith('/api/v2/meritCycles') && op.module === 'compplanning');

/*
 * The numbers below are worked by hand (docs/merit-cycles.md): the reference rates are the ECB's of
 * 2025-05-09 (the newest on or before the cycle's pay day, 2025-12-31): 1 EUR = 1.1252 USD = 0.8477 GBP.
 */
const GBP_PER_USD_BAND = { min: 6_027_017, mid: 7_533_772, max: 9_040_526 }; // the USD 80k/100k/120k band in pence

describe('merit cycles', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let planner: TestUser; // compensation_planner: edit, whole company
  let analyst: TestUser;
  let marco: TestUser; // people_manager linked to Marco
  let head: TestUser; // people_manager linked to Hana
  let pia: TestUser; // people_manager linked to Pia
  const people: Record<string, string> = {};
  let cycle: Cycle;
  let marcoSheet: Worksheet;

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });
  const cyclePath = (suffix = '') => `/api/v2/meritCycles/${cycle.id}${suffix}`;
  const reread = async () => {
    const reply = await call<Data<Cycle>>(admin, cyclePath());
    expect(reply.status).toBe(200);
    cycle = reply.body.data;
    return cycle;
  };
  const rowOf = async (user: TestUser, employee: string) => {
    const reply = await call<Data<Row>>(user, cyclePath(`/employees/${people[employee]}`));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.headers.get('etag')).toBe(`"${reply.body.data.version}"`);
    return reply.body.data;
  };
  const edit = (user: TestUser, employee: string, version: number, json: Schemas['WorksheetEmployeeEdit']) =>
    call<Data<Schemas['WorksheetEmployeeEditResult']>>(user, cyclePath(`/employees/${people[employee]}`), { method: 'PATCH', ifMatch: version, json });
  const sheet = async (user: TestUser, id: string) => {
    const reply = await call<Data<Schemas['WorksheetDetail']>>(user, cyclePath(`/worksheets/${id}`));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };
  /** The sums kept on each worksheet equal the sums counted from its rows. */
  const expectSumsAgree = async () => {
    const scope = { companyId: company.id };
    const counted = await countedSums(db, scope, cycle.id);
    const kept = keptSums(await listWorksheets(db, scope, cycle.id));
    for (const [id, sums] of kept) expect(sums, id).toEqual(counted.get(id) ?? NO_SUMS);
  };
  const move = (user: TestUser, worksheet: Worksheet, action: 'submit' | 'approve' | 'sendBack' | 'reopen', comment?: string) =>
    call<Data<Worksheet>>(user, cyclePath(`/worksheets/${worksheet.id}/${action}`), { method: 'POST', ifMatch: worksheet.version, json: comment === undefined ? {} : { comment } });

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Merit Co');
    admin = company.users.admin as TestUser;
    planner = company.users.compensation_planner as TestUser;
    analyst = company.users.analyst as TestUser;
    marco = company.users.people_manager as TestUser;
    const managerRole = company.roleIds.get('people_manager') ?? '';
    head = await createTestUser(db, { companyId: company.id, roleIds: [managerRole] });
    pia = await createTestUser(db, { companyId: company.id, roleIds: [managerRole] });
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    // Salary bands on, for the cycle's band set.
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);

    const id = company.id;
    const base = (employee: string, amount: number, currency = 'USD', effectiveDate = '2024-01-01') => insertPay(db, id, people[employee] as string, [{ type: 'base_salary', amount, currency, effectiveDate }]);
    people.hana = await insertEmployee(db, id, { firstName: 'Hana', lastName: 'Head', levelId: 'm6', userId: head.id, department: 'Leadership', performanceRating: 'exceeds', startDate: '2015-01-01' });
    await base('hana', 20_000_000);
    people.marco = await insertEmployee(db, id, { firstName: 'Marco', lastName: 'Manager', levelId: 'm4', managerId: people.hana, userId: marco.id, performanceRating: 'meets' });
    await base('marco', 15_000_000);
    people.ada = await insertEmployee(db, id, { firstName: 'Ada', lastName: 'Anchor', managerId: people.marco, performanceRating: 'exceeds' });
    await base('ada', 10_000_000);
    people.ben = await insertEmployee(db, id, { firstName: 'Ben', lastName: 'Britain', managerId: people.marco, performanceRating: 'meets', countryCode: 'GB', locationId: 'gb_london', currency: 'GBP' });
    await base('ben', 8_000_000, 'GBP');
    // Hired in the middle of the period: prorated over 184 of its 365 days. Her name is a formula, for the export.
    people.cleo = await insertEmployee(db, id, { firstName: '=HYPERLINK("http://evil.test","Cleo")', lastName: 'Midyear', managerId: people.marco, performanceRating: 'meets', startDate: '2025-07-01' });
    await base('cleo', 9_000_000, 'USD', '2025-07-01');
    people.dan = await insertEmployee(db, id, { firstName: 'Dan', lastName: 'Contractor', managerId: people.marco, performanceRating: 'meets' });
    await base('dan', 7_000_000);
    await db('employees').where({ id: people.dan }).update({ employment_type: 'contractor' });
    people.eve = await insertEmployee(db, id, { firstName: 'Eve', lastName: 'Nobase', managerId: people.marco });
    people.pia = await insertEmployee(db, id, { firstName: 'Pia', lastName: 'Peer', levelId: 'm4', managerId: people.hana, userId: pia.id, department: 'Product', performanceRating: 'meets' });
    await base('pia', 14_000_000);
    people.quinn = await insertEmployee(db, id, { firstName: 'Quinn', lastName: 'Quist', managerId: people.pia, department: 'Product', performanceRating: 'below' });
    await base('quinn', 9_500_000);
    people.gone = await insertEmployee(db, id, { firstName: 'Gil', lastName: 'Gone', managerId: people.marco, status: 'terminated' });

    // A band set with one hand-set band: software engineering P3, everywhere, USD 80k / 100k / 120k.
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Bands for merit', currency: 'USD' } });
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
      json: { name: 'Merit 2026', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD', components: ['merit', 'promotion', 'lumpSum'], bandSetId: set.body.data.id },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    cycle = created.body.data;
  });

  it('answers 404 from every merit-cycle operation while compensation planning is off, and 403 without the permission', async () => {
    const dark = await createTestCompany(db, 'No Planning Co');
    expect(planningOperations.length).toBe(45);
    for (const op of planningOperations) {
      const reply = await request<ErrorBody>(fillPath(op, {}), { method: op.method.toUpperCase(), headers: { ...bearer(dark.users.admin as TestUser), 'If-Match': '"1"' }, json: sampleBody(contract, op) });
      expect(reply.status, op.operationId).toBe(404);
      expect(reply.body.message).toBe('Compensation planning is not switched on for your company.');
    }
    expect((await call(company.users.employee as TestUser, '/api/v2/meritCycles')).status).toBe(403);
    expect((await call(analyst, '/api/v2/meritCycles')).status).toBe(200);
    expect((await call(analyst, '/api/v2/meritCycles', { method: 'POST', json: { name: 'x', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } })).status).toBe(403);
    // A manager plans but does not set cycles up.
    const refused = await call(marco, '/api/v2/meritCycles', { method: 'POST', json: { name: 'x', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Setting up a merit cycle needs the compensationPlanning permission (edit, whole company).');
  });

  it('sets a draft up: eligibility rules, a merit matrix, budgets, under If-Match, refusing what does not add up', async () => {
    expect(cycle).toMatchObject({ state: 'draft', currency: 'USD', ratesAsOf: null, exchangeRates: [], plannerMode: 'ownReports', availableActions: [{ action: 'launch', needsComment: false }, { action: 'cancel', needsComment: true }] });
    const rules = {
      kind: 'all',
      rules: [
        { kind: 'employmentType', values: ['full_time', 'part_time'] },
        { kind: 'any', rules: [{ kind: 'hiredBefore', date: '2025-10-01' }, { kind: 'ratingPresent' }] },
      ],
    };
    const stale = await call(admin, cyclePath('/eligibility/rules'), { method: 'PUT', ifMatch: 0, json: rules });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    const incomplete = await call(admin, cyclePath('/eligibility/rules'), { method: 'PUT', ifMatch: cycle.version, json: { kind: 'all', rules: [{ kind: 'hiredBefore' }] } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors).toEqual([{ field: 'body.rules.0.date', message: 'is required for a hiredBefore rule' }]);
    const saved = await call<Data<Cycle>>(admin, cyclePath('/eligibility/rules'), { method: 'PUT', ifMatch: cycle.version, json: rules });
    expect(saved.status).toBe(200);
    expect(saved.body.data.eligibility).toEqual(rules);
    cycle = saved.body.data;

    const matrix = {
      kind: 'matrix',
      matrix: {
        axis: 'compaRatio',
        thresholds: [0.9, 1.0, 1.1],
        cells: [
          { rating: 'meets', column: 2, minBp: 200, targetBp: 350, maxBp: 500 },
          { rating: 'meets', column: 3, minBp: 100, targetBp: 250, maxBp: 400 },
          { rating: 'exceeds', column: 3, minBp: 200, targetBp: 400, maxBp: 600 },
        ],
      },
      fallback: { minBp: 0, targetBp: 200, maxBp: 400 },
      guidelines: { mode: 'enforced', commentRequired: true },
    };
    const wrongRating = await call(admin, cyclePath('/recommendationLogic'), { method: 'PUT', ifMatch: cycle.version, json: { ...matrix, matrix: { ...matrix.matrix, cells: [{ rating: 'stellar', column: 1, minBp: 0, targetBp: 500, maxBp: 100 }] } } });
    expect(wrongRating.status).toBe(400);
    expect(wrongRating.body.errors).toEqual([
      { field: 'body.matrix.cells.0.rating', message: "is not on the cycle's performance scale (below, developing, meets, exceeds, exceptional)" },
      { field: 'body.matrix.cells.0', message: 'must run min ≤ target ≤ max' },
    ]);
    cycle = (await call<Data<Cycle>>(admin, cyclePath('/recommendationLogic'), { method: 'PUT', ifMatch: cycle.version, json: matrix })).body.data;
    expect(cycle.recommendation).toEqual(matrix);

    const budget = await call<Data<Cycle>>(admin, cyclePath('/budgets/configuration'), {
      method: 'PUT',
      ifMatch: cycle.version,
      json: { percentBp: 300, basis: 'orgBranch', overrides: [{ key: people.pia, percentBp: 200 }], spendComponents: ['merit', 'promotion'], blockOverBudget: false },
    });
    expect(budget.status).toBe(200);
    cycle = budget.body.data;
    expect(cycle.version).toBe(4);
  });

  it('previews eligibility in the draft with the reasons, and excludes by hand with one', async () => {
    const noReason = await call(admin, cyclePath(`/eligibility/exclusions/${people.quinn}`), { method: 'PUT', json: { excluded: true } });
    expect(noReason.status).toBe(400);
    const excluded = await call<Data<Schemas['EligibilityEntry']>>(admin, cyclePath(`/eligibility/exclusions/${people.quinn}`), { method: 'PUT', json: { excluded: true, reason: 'On a performance plan' } });
    expect(excluded.status).toBe(200);
    expect(excluded.body.data).toMatchObject({ status: 'excluded', excludedReason: 'On a performance plan' });

    const preview = await call<Data<Schemas['EligibilityList']>>(admin, cyclePath('/eligibility'));
    expect(preview.status).toBe(200);
    expect(preview.body.data.counts).toEqual({ employees: 9, eligible: 6, ineligible: 2, excluded: 1 });
    const entry = (id: string) => preview.body.data.employees.find((employee) => employee.employeeId === id);
    expect(entry(people.dan as string)).toMatchObject({ status: 'ineligible', reasons: ['Employment type contractor is not one of: full_time, part_time'] });
    expect(entry(people.eve as string)).toMatchObject({ status: 'ineligible', reasons: ['No base salary in force on 2025-12-31'] });
    // Proration: hired 2025-07-01, so 184 of the period's 365 days (2025-07-01 … 2025-12-31, both counted).
    expect(entry(people.cleo as string)).toMatchObject({ status: 'eligible', reasons: [], proration: { daysEmployed: 184, daysInPeriod: 365, factor: 0.5041 } });
    expect(entry(people.ada as string)?.proration).toEqual({ daysEmployed: 365, daysInPeriod: 365, factor: 1 });
    expect(entry(people.gone as string)).toBeUndefined();

    // A manager sees the people below them only.
    const mine = await call<Data<Schemas['EligibilityList']>>(marco, cyclePath('/eligibility?status=ineligible'));
    expect(mine.body.data.employees.map((employee) => employee.name).sort()).toEqual(['Dan Contractor', 'Eve Nobase']);
  });

  it('launches: rows, band positions, matrix recommendations, prorated targets, conversions naming their rates, budgets rolled up the org', async () => {
    const launched = await call<Data<Cycle>>(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    cycle = launched.body.data;
    expect(cycle).toMatchObject({ state: 'active', ratesAsOf: '2025-12-31', counts: { employees: 9, eligible: 6, ineligible: 2, excluded: 1, worksheets: 4 } });
    expect(cycle.exchangeRates).toEqual(
      expect.arrayContaining([expect.objectContaining({ base: 'EUR', currency: 'GBP', rate: 0.8477, date: '2025-05-09' }), expect.objectContaining({ base: 'EUR', currency: 'USD', rate: 1.1252, date: '2025-05-09' })]),
    );

    const ada = await rowOf(admin, 'ada');
    // Base = mid: compa-ratio 1.0, column 3; exceeds × 3 → 2 / 4 / 6 %; 4% of $100,000.00 = $4,000.00, pre-filled as the plan.
    expect(ada).toMatchObject({
      currentPay: { amount: 10_000_000, currency: 'USD' },
      bandPosition: { min: { amount: 8_000_000, currency: 'USD' }, mid: { amount: 10_000_000, currency: 'USD' }, compaRatio: 1, rangePenetration: 0.5, column: 3 },
      rating: 'exceeds',
      recommendation: { minBp: 200, targetBp: 400, maxBp: 600, targetAmount: { amount: 400_000, currency: 'USD' } },
      merit: { percentBp: 400, amount: { amount: 400_000, currency: 'USD' } },
      newPay: { amount: 10_400_000, currency: 'USD' },
      newCompaRatio: 1.04,
      flags: [],
    });
    // In pounds: the band converted at 0.8477 / 1.1252; £80,000 ÷ £75,337.72 = 1.0619 → column 3; meets × 3 → 2.5% = £2,000.00.
    const ben = await rowOf(admin, 'ben');
    expect(ben).toMatchObject({
      currency: 'GBP',
      currentPay: { amount: 8_000_000, currency: 'GBP' },
      currentPayInCycleCurrency: { amount: 10_618_851, currency: 'USD' },
      bandPosition: { min: { amount: GBP_PER_USD_BAND.min, currency: 'GBP' }, mid: { amount: GBP_PER_USD_BAND.mid, currency: 'GBP' }, max: { amount: GBP_PER_USD_BAND.max, currency: 'GBP' }, compaRatio: 1.0619, column: 3 },
      recommendation: { targetBp: 250, targetAmount: { amount: 200_000, currency: 'GBP' } },
    });
    // Compa-ratio 0.9 → column 2; meets × 2 → 3.5%, prorated: $90,000.00 × 3.5% × 184 / 365 = $1,587.945… → $1,587.95.
    const cleo = await rowOf(admin, 'cleo');
    expect(cleo).toMatchObject({ proration: { factor: 0.5041 }, bandPosition: { compaRatio: 0.9, column: 2 }, recommendation: { minBp: 200, targetBp: 350, maxBp: 500, targetAmount: { amount: 158_795, currency: 'USD' } } });
    // No band for an M4: the fallback 0 / 2 / 4 %.
    expect(await rowOf(admin, 'marco')).toMatchObject({ bandPosition: null, recommendation: { targetBp: 200, targetAmount: { amount: 300_000, currency: 'USD' } } });
    expect(await rowOf(admin, 'dan')).toMatchObject({ eligibility: { status: 'ineligible' }, recommendation: null, merit: { amount: { amount: 0, currency: 'USD' } } });

    const sheets = await call<Data<Worksheet[]>>(admin, cyclePath('/worksheets'));
    expect(sheets.body.data.map((worksheet) => worksheet.planner?.name ?? '(top)')).toEqual(['(top)', 'Hana Head', 'Marco Manager', 'Pia Peer']);
    marcoSheet = sheets.body.data.find((worksheet) => worksheet.planner?.name === 'Marco Manager') as Worksheet;

    // Top-down: 3% of each eligible base (Pia's branch 2%), prorated; bottoms-up: the targets, converted at the cycle's rates.
    const budgets = await call<Data<Schemas['BudgetReport']>>(admin, cyclePath('/dashboard/cycleBudgets'));
    const byPlanner = (name: string | null) => budgets.body.data.worksheets.find((worksheet) => worksheet.plannerName === name) as WorksheetBudget;
    // Marco: $3,000.00 + 3% of $106,188.51 = $3,185.66 (rounded half to even) + $1,361.10 (prorated) = $7,546.76.
    expect(byPlanner('Marco Manager').own).toMatchObject({
      eligiblePayroll: { amount: 10_000_000 + 10_618_851 + 9_000_000 },
      allocated: { amount: 754_676, currency: 'USD' },
      recommended: { amount: 400_000 + 265_471 + 158_795 },
      used: { amount: 824_266 },
      remaining: { amount: 754_676 - 824_266 },
      overBudget: true,
    });
    // Hana's worksheet plans Marco (3% of $150,000) and Pia (2%, her branch's rate); its branch adds Marco's and Pia's worksheets.
    expect(byPlanner('Hana Head').own.allocated.amount).toBe(450_000 + 280_000);
    expect(byPlanner('Hana Head').branch.allocated.amount).toBe(450_000 + 280_000 + 754_676 + 0);
    expect(byPlanner(null).branch.allocated.amount).toBe(600_000 + 1_484_676);
    expect(budgets.body.data.total).toMatchObject({ allocated: { amount: 2_084_676 }, used: { amount: 400_000 + 300_000 + 280_000 + 824_266 } });
  });

  it('shows a planner their worksheet (not their own row), a reviewer nothing they do not reach, and respects columns per role', async () => {
    const mine = await sheet(marco, marcoSheet.id);
    expect(mine.readOnly).toBe(false);
    expect(mine.employees.map((row) => row.name)).toEqual(['Ada Anchor', 'Ben Britain', 'Dan Contractor', '=HYPERLINK("http://evil.test","Cleo") Midyear', 'Eve Nobase']);
    expect((await call(pia, cyclePath(`/worksheets/${marcoSheet.id}`))).status).toBe(404);
    const peerSheets = await call<Data<Worksheet[]>>(pia, cyclePath('/worksheets'));
    expect(peerSheets.body.data.map((worksheet) => worksheet.planner?.name)).toEqual(['Pia Peer']);
    expect((await call(marco, cyclePath(`/employees/${people.marco}`))).status).toBe(404);
    expect((await call(marco, cyclePath(`/employees/${people.quinn}`))).status).toBe(404);

    const columns = await call<Data<Cycle>>(admin, cyclePath('/columns'), { method: 'PUT', ifMatch: cycle.version, json: { roles: [{ roleKey: 'people_manager', columns: { recommendation: 'none', lumpSum: 'view' } }] } });
    expect(columns.status).toBe(200);
    cycle = columns.body.data;
    const seen = await rowOf(marco, 'ada');
    expect(seen).not.toHaveProperty('recommendation');
    expect(seen.merit?.percentBp).toBe(400);
    const refused = await edit(marco, 'ada', seen.version, { lumpSumAmount: { amount: 100_000, currency: 'USD' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your role may not edit the lump sum column of this cycle.');
    expect((await call<Data<Schemas['WorksheetColumnsView']>>(marco, cyclePath('/columns'))).body.data.caller).toMatchObject({ recommendation: 'none', lumpSum: 'view', merit: 'edit', currentPay: 'view' });
    cycle = (await call<Data<Cycle>>(admin, cyclePath('/columns'), { method: 'PUT', ifMatch: cycle.version, json: { roles: [] } })).body.data;
  });

  it('two planners edit the same row: one wins, the other gets 409 naming what changed, and nothing is lost', async () => {
    const read = await rowOf(marco, 'ada');
    const alsoRead = await rowOf(planner, 'ada');
    expect(alsoRead.version).toBe(read.version);
    const first = await edit(marco, 'ada', read.version, { meritPercentBp: 300, comment: 'Solid year' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('etag')).toBe(`"${read.version + 1}"`);
    expect(first.body.data.employee).toMatchObject({ merit: { percentBp: 300, amount: { amount: 300_000 } }, newPay: { amount: 10_300_000 }, comment: 'Solid year' });
    // The budget roll-up comes back with the edit, as far up as the planner reaches: Marco sees his own worksheet.
    expect(first.body.data.budgets.map((budget) => budget.plannerName)).toEqual(['Marco Manager']);
    expect(first.body.data.budgets[0]?.own).toMatchObject({ used: { amount: 724_266 }, remaining: { amount: 30_410 }, overBudget: false });

    const second = await edit(planner, 'ada', alsoRead.version, { meritPercentBp: 500 });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('version_conflict');
    expect(second.body.message).toMatch(/^Someone else changed Ada Anchor’s merit \(by .+\), comment \(by .+\) first; your change was not saved\./);
    expect(second.body.errors).toEqual([
      { field: 'row.merit', message: `changed since version ${read.version}` },
      { field: 'row.comment', message: `changed since version ${read.version}` },
    ]);
    expect(second.headers.get('etag')).toBe(`"${read.version + 1}"`);
    expect(await rowOf(admin, 'ada')).toMatchObject({ merit: { percentBp: 300 }, comment: 'Solid year', version: read.version + 1 });

    // Read again, then the change goes through; the history has both, in order.
    const again = await edit(planner, 'ada', read.version + 1, { meritPercentBp: 350 });
    expect(again.status).toBe(200);
    // A whole-company planner gets the roll-up to the top: Marco's worksheet, Hana's branch, the top branch.
    expect(again.body.data.budgets.map((budget) => budget.plannerName)).toEqual(['Marco Manager', 'Hana Head', null]);
    expect(again.body.data.budgets[0]?.own.used.amount).toBe(350_000 + 265_471 + 158_795);
    expect(again.body.data.budgets[1]?.branch.used.amount).toBe(300_000 + 280_000 + 774_266);
    expect(again.body.data.budgets[2]?.branch).toMatchObject({ allocated: { amount: 2_084_676 }, used: { amount: 400_000 + 300_000 + 280_000 + 774_266 } });
    const history = await call<Data<Schemas['RowChange'][]>>(admin, cyclePath(`/employees/${people.ada}/history`));
    expect(history.body.data.map((change) => change.changes.map((item) => `${item.field}: ${item.from} → ${item.to}`))).toEqual([
      ['merit: 400000 USD → 300000 USD', 'comment: null → Solid year'],
      ['merit: 300000 USD → 350000 USD'],
    ]);
    // Every pay change is in the audit log.
    const audited = await db('audit_events').where({ company_id: company.id, action: 'meritCycle.employeePlanned', subject_id: people.ada }).count({ count: '*' }).first();
    expect(Number(audited?.count)).toBe(2);
    await expectSumsAgree();
  });

  it('tells everyone viewing the cycle of an edit, live, naming the rows and versions but never pay', async () => {
    const sockets = new TestSockets();
    try {
      await sheet(planner, marcoSheet.id);
      const watching = await sockets.connect(baseUrl(), planner.token);
      const outsider = await sockets.connect(baseUrl(), pia.token);
      const overheard: unknown[] = [];
      outsider.on('emitMeritCycleEmployeesUpdate', (message: unknown) => overheard.push(message));
      const arrived = new Promise<Record<string, unknown>>((resolve) => watching.once('emitMeritCycleEmployeesUpdate', resolve));
      const ben = await rowOf(marco, 'ben');
      const started = performance.now();
      expect((await call(marco, cyclePath(`/employees/${people.ben}`), { method: 'PATCH', ifMatch: ben.version, json: { reviewed: true } })).status).toBe(200);
      const update = await arrived;
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(update).toEqual({ meritCycleId: cycle.id, worksheetIds: [marcoSheet.id], employees: [{ employeeId: people.ben, version: ben.version + 1 }], actorUserId: marco.id, originSocketId: null, reason: 'edited' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(overheard).toEqual([]);
    } finally {
      sockets.closeAll();
    }
  });

  it('refuses a planner outside their subtree, outside the planning window, or planning their own pay', async () => {
    const ada = await rowOf(admin, 'ada');
    const outside = await edit(pia, 'ada', ada.version, { meritPercentBp: 100 });
    expect(outside.status).toBe(404);
    expect((await edit(marco, 'marco', 1, { meritPercentBp: 100 })).status).toBe(404);
    // Hana's worksheet holds Marco's row: Marco reads his own worksheet, not the one above.
    expect((await call(marco, cyclePath(`/worksheets/${(await call<Data<Worksheet[]>>(admin, cyclePath('/worksheets'))).body.data[1]?.id}`))).status).toBe(404);

    const closedWindow = await call<Data<Cycle>>(admin, cyclePath('/planningWindows'), { method: 'PUT', ifMatch: cycle.version, json: { windows: [{ stage: 'planning', opensAt: '2025-01-01T00:00:00Z', closesAt: '2025-02-01T00:00:00Z' }] } });
    expect(closedWindow.status).toBe(200);
    cycle = closedWindow.body.data;
    const late = await edit(marco, 'ada', ada.version, { meritPercentBp: 320 });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'planning_window_closed', title: 'Something went wrong', message: 'The planning window closed at 2025-02-01T00:00:00.000Z; worksheets are read-only.' });
    expect((await sheet(marco, marcoSheet.id)).readOnly).toBe(true);
    expect((await call<Data<Schemas['PlanningWindowState'][]>>(marco, cyclePath('/planningWindows'))).body.data[0]).toMatchObject({ stage: 'planning', open: false });
    cycle = (await call<Data<Cycle>>(admin, cyclePath('/planningWindows'), { method: 'PUT', ifMatch: cycle.version, json: { windows: [] } })).body.data;
    expect((await rowOf(marco, 'ada')).merit?.percentBp).toBe(350);
  });

  it('answers a worksheet read again as it is now: after an edit, a window that closed with nothing written, and a role taken away', async () => {
    // The answer is kept between commits (meritCycles/worksheets.ts): each change below shows on the very next read.
    const before = await sheet(marco, marcoSheet.id);
    const ada = before.employees.find((row) => row.name === 'Ada Anchor');
    if (!ada) throw new Error('no row for Ada');
    expect((await sheet(marco, marcoSheet.id)).employees.find((row) => row.name === 'Ada Anchor')?.version).toBe(ada.version);
    const edited = await edit(marco, 'ada', ada.version, { comment: 'Read again at once' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await sheet(marco, marcoSheet.id)).employees.find((row) => row.name === 'Ada Anchor')).toMatchObject({ version: ada.version + 1, comment: 'Read again at once' });

    // A planning window closing two seconds from now: no commit marks the moment, the clock does.
    const closesAt = new Date(Date.now() + 2_000).toISOString();
    cycle = (await call<Data<Cycle>>(admin, cyclePath('/planningWindows'), { method: 'PUT', ifMatch: cycle.version, json: { windows: [{ stage: 'planning', opensAt: '2025-01-01T00:00:00Z', closesAt }] } })).body.data;
    expect((await sheet(marco, marcoSheet.id)).readOnly).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(closesAt) - Date.now() + 50));
    expect(await sheet(marco, marcoSheet.id)).toMatchObject({ readOnly: true, planningWindow: { open: false } });
    cycle = (await call<Data<Cycle>>(admin, cyclePath('/planningWindows'), { method: 'PUT', ifMatch: cycle.version, json: { windows: [] } })).body.data;
    expect((await sheet(marco, marcoSheet.id)).readOnly).toBe(false);

    // Without a role that plans, the worksheet is refused from the next read on; with it back, answered again.
    const roles = (await db('user_roles').where({ user_id: marco.id }).select('role_id')) as { role_id: string }[];
    await db('user_roles').where({ user_id: marco.id }).delete();
    try {
      expect((await call(marco, cyclePath(`/worksheets/${marcoSheet.id}`))).status).toBe(403);
    } finally {
      await db('user_roles').insert(roles.map((role) => ({ company_id: company.id, user_id: marco.id, role_id: role.role_id })));
    }
    expect((await sheet(marco, marcoSheet.id)).readOnly).toBe(false);
  });

  it('enforces guidelines with a mandatory comment, and keeps a worksheet in error from being submitted', async () => {
    const ada = await rowOf(marco, 'ada');
    const bare = await edit(marco, 'ada', ada.version, { meritPercentBp: 1000 });
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ code: 'comment_required', errors: [{ field: 'body.comment', message: 'is required outside the guideline' }] });
    const argued = await edit(marco, 'ada', ada.version, { meritPercentBp: 1000, comment: 'Retention risk' });
    expect(argued.status).toBe(200);
    expect(argued.body.data.employee.flags).toEqual([{ severity: 'error', code: 'outside_guideline', message: 'Merit of 10.00% is outside the guideline 2.00%–6.00%.' }]);
    const blocked = await move(marco, marcoSheet, 'submit');
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('worksheet_has_errors');
    const fixed = await edit(marco, 'ada', argued.body.data.employee.version, { meritPercentBp: 300 });
    expect(fixed.body.data.employee.flags).toEqual([]);
  });

  it('runs a worksheet through its approval chain, refusing illegal moves, and tells only the one who acts next', async () => {
    const chains = await call<Data<Schemas['ApprovalChain'][]>>(admin, cyclePath('/approvalChains'), {
      method: 'PUT',
      ifMatch: cycle.version,
      json: { chains: [{ branchEmployeeId: null, reviewerUserIds: [head.id] }, { branchEmployeeId: people.marco, reviewerUserIds: [head.id, planner.id] }] },
    });
    expect(chains.status, JSON.stringify(chains.body)).toBe(200);
    expect(chains.body.data.map((chain) => [chain.branchName, chain.reviewers.length])).toEqual([
      [null, 1],
      ['Marco Manager', 2],
    ]);
    await reread();
    const unknown = await call(admin, cyclePath('/approvalChains/reviewers'), { method: 'POST', ifMatch: cycle.version, json: { action: 'add', reviewerUserId: 'nobody' } });
    expect(unknown.status).toBe(400);

    let worksheet = (await sheet(marco, marcoSheet.id)).worksheet;
    expect(worksheet.availableActions).toEqual([{ action: 'submit', needsComment: false }]);
    expect((await move(marco, worksheet, 'approve')).body.code).toBe('invalid_transition');
    const submitted = await move(marco, worksheet, 'submit');
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    worksheet = submitted.body.data;
    expect(worksheet).toMatchObject({ state: 'in_review', reviewStep: 1, reviewers: [{ userId: head.id }, { userId: planner.id }] });
    const again = await move(marco, worksheet, 'submit');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'invalid_transition', message: 'An in-review worksheet cannot be submitted.' });
    const own = await move(marco, worksheet, 'approve');
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('A planner cannot review their own worksheet.');
    expect((await move(pia, worksheet, 'approve')).status).toBe(404);
    const readOnly = await edit(marco, 'ben', (await rowOf(marco, 'ben')).version, { meritPercentBp: 300 });
    expect(readOnly.status).toBe(409);
    expect(readOnly.body.code).toBe('worksheet_read_only');

    const step = await move(head, worksheet, 'approve');
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    worksheet = step.body.data;
    expect(worksheet).toMatchObject({ state: 'in_review', reviewStep: 2 });
    expect((await move(head, worksheet, 'approve')).body.message).toBe('It is another reviewer’s turn to review this worksheet.');
    const silent = await move(planner, worksheet, 'sendBack');
    expect(silent.status).toBe(400);
    expect(silent.body.errors).toEqual([{ field: 'body.comment', message: 'is required' }]);
    const back = await move(planner, worksheet, 'sendBack', 'Ben deserves more');
    expect(back.status).toBe(200);
    worksheet = back.body.data;
    expect(worksheet.state).toBe('sent_back');
    // Only Marco, the planner, hears of it.
    await until(async () => Boolean(await db('outbox_emails').where({ to_address: marco.email }).whereLike('subject', '%sent back%').first()));

    const ben = await rowOf(marco, 'ben');
    expect((await edit(marco, 'ben', ben.version, { meritPercentBp: 350, comment: 'As asked' })).status).toBe(200);
    worksheet = (await move(marco, worksheet, 'submit')).body.data;
    await until(async () => Boolean(await db('outbox_emails').where({ to_address: head.email }).whereLike('subject', '%waits for your review%').first()));
    worksheet = (await move(head, worksheet, 'approve')).body.data;
    const approved = await move(planner, worksheet, 'approve');
    expect(approved.status).toBe(200);
    worksheet = approved.body.data;
    expect(worksheet).toMatchObject({ state: 'approved', reviewStep: null });
    expect((await move(planner, worksheet, 'approve')).body).toMatchObject({ code: 'invalid_transition', message: 'An approved worksheet cannot be approved.' });
    expect((await move(marco, worksheet, 'reopen', 'oops')).status).toBe(403);
    marcoSheet = worksheet;

    const history = await call<Data<Schemas['WorkflowHistoryEntry'][]>>(marco, cyclePath(`/worksheets/${worksheet.id}/history`));
    expect(history.body.data.map((entry) => `${entry.action}: ${entry.from} → ${entry.to}`)).toEqual([
      'submit: planning → in_review',
      'approveStep: in_review → in_review',
      'sendBack: in_review → sent_back',
      'submit: sent_back → in_review',
      'approveStep: in_review → in_review',
      'approve: in_review → approved',
    ]);
    expect(history.body.data[2]?.comment).toBe('Ben deserves more');
  });

  it('lets a manager pull a report manager’s worksheet up into their own, rows and sums with it', async () => {
    const sheets = (await call<Data<Worksheet[]>>(admin, cyclePath('/worksheets'))).body.data;
    const piaSheet = sheets.find((worksheet) => worksheet.planner?.name === 'Pia Peer') as Worksheet;
    const hanaSheet = sheets.find((worksheet) => worksheet.planner?.name === 'Hana Head') as Worksheet;
    // Only the planner of the worksheet above (or a whole-company planner) pulls it up.
    const notParent = await call(pia, cyclePath(`/worksheets/${piaSheet.id}/pullUp`), { method: 'POST', ifMatch: piaSheet.version });
    expect(notParent.status).toBe(403);
    expect(notParent.body.message).toBe('Only the planner of the worksheet above pulls this one up.');
    const pulled = await call<Data<Worksheet>>(head, cyclePath(`/worksheets/${piaSheet.id}/pullUp`), { method: 'POST', ifMatch: piaSheet.version });
    expect(pulled.status, JSON.stringify(pulled.body)).toBe(200);
    expect(pulled.body.data).toMatchObject({ id: hanaSheet.id, counts: { employees: hanaSheet.counts.employees + 1, eligible: hanaSheet.counts.eligible } });
    expect((await rowOf(admin, 'quinn')).worksheetId).toBe(hanaSheet.id);
    const after = (await call<Data<Worksheet[]>>(admin, cyclePath('/worksheets'))).body.data.find((worksheet) => worksheet.id === piaSheet.id);
    expect(after).toMatchObject({ state: 'pulled_up', pulledUpInto: hanaSheet.id, counts: { employees: 0 } });
    expect((await call(head, cyclePath(`/worksheets/${piaSheet.id}/pullUp`), { method: 'POST', ifMatch: after?.version })).body.code).toBe('invalid_transition');
    await expectSumsAgree();
  });

  it('refuses to close before every worksheet is approved, closes once, writing each new base into people data once', async () => {
    const early = await call(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'close' } });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('worksheets_not_approved');
    expect(early.body.message).toMatch(/^A cycle closes once every worksheet is approved; 2 are not: /);

    const sheets = (await call<Data<Worksheet[]>>(admin, cyclePath('/worksheets'))).body.data;
    const top = sheets.find((worksheet) => worksheet.planner === null) as Worksheet;
    const hana = sheets.find((worksheet) => worksheet.planner?.name === 'Hana Head') as Worksheet;
    // The top worksheet (Hana's own row) is planned by whole-company planners; the company-wide chain names Hana,
    // who may not approve her own pay: she is skipped, and the cycle's owner (the admin) reviews it. Any
    // whole-company planner may still act for them.
    const topSubmitted = await move(admin, top, 'submit');
    expect(topSubmitted.status, JSON.stringify(topSubmitted.body)).toBe(200);
    expect(topSubmitted.body.data.reviewers).toEqual([{ userId: admin.id, name: expect.any(String) }]);
    // Not her worksheet to review, it is out of her reach.
    expect((await move(head, topSubmitted.body.data, 'approve')).status).toBe(404);
    expect((await move(planner, topSubmitted.body.data, 'approve')).status).toBe(200);
    // Hana's chain (the company-wide one) leaves out Hana herself: the owner reviews.
    const hanaSubmitted = await move(head, hana, 'submit');
    expect(hanaSubmitted.status).toBe(200);
    expect(hanaSubmitted.body.data.reviewers).toEqual([{ userId: admin.id, name: expect.any(String) }]);
    expect((await move(admin, hanaSubmitted.body.data, 'approve')).status).toBe(200);

    await reread();
    const closed = await call<Data<Cycle>>(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'close' } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    cycle = closed.body.data;
    // Hana, Marco, Pia (their targets), Ada 3%, Ben 3.5%, Cleo (her prorated target): six raises.
    expect(cycle).toMatchObject({ state: 'closed', payRecordsWritten: 6 });
    const adaPay = await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${people.ada}/compensation?type=base_salary`);
    expect(adaPay.body.data.find((record) => record.effectiveDate === '2026-01-01')).toMatchObject({ amount: { amount: 10_300_000, currency: 'USD' }, reason: 'merit' });
    const benPay = await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${people.ben}/compensation?type=base_salary`);
    expect(benPay.body.data.find((record) => record.effectiveDate === '2026-01-01')?.amount).toEqual({ amount: 8_280_000, currency: 'GBP' });
    const cleoPay = await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${people.cleo}/compensation?type=base_salary`);
    expect(cleoPay.body.data.find((record) => record.effectiveDate === '2026-01-01')?.amount).toEqual({ amount: 9_158_795, currency: 'USD' });

    const twice = await call(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'close' } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'invalid_transition', message: 'A closed cycle cannot be closed.' });
    // The writer itself is idempotent: the same change again counts as already there; a different one is a conflict.
    const again = await db.transaction((trx) => writeMeritCyclePay(trx, { companyId: company.id }, [{ employeeId: people.ada as string, amount: 10_300_000, currency: 'USD', effectiveDate: '2026-01-01', reason: 'merit' }]));
    expect(again).toEqual({ written: 0, unchanged: 1, gone: 0, conflicts: [], records: [] });
    // Every pay record written is in the audit log.
    const audit = await db('audit_events').where({ company_id: company.id, action: 'meritCycle.payWritten', subject_id: cycle.id }).select('details');
    expect(audit.flatMap((entry: { details: string }) => (JSON.parse(entry.details) as { records: { employeeId: string }[] }).records.map((record) => record.employeeId)).sort()).toEqual(
      [people.hana, people.marco, people.ada, people.ben, people.cleo, people.pia].sort(),
    );
    const records = await db('compensation_records').where({ employee_id: people.ada, effective_date: '2026-01-01' }).count({ count: '*' }).first();
    expect(Number(records?.count)).toBe(1);
    const history = await call<Data<Schemas['WorkflowHistoryEntry'][]>>(admin, cyclePath('/history'));
    expect(history.body.data.map((entry) => entry.action)).toEqual(['launch', 'close']);
    await expectSumsAgree();
    // A closed cycle's rows are read-only.
    const ada = await rowOf(admin, 'ada');
    expect((await edit(admin, 'ada', ada.version, { meritPercentBp: 100 })).body.code).toBe('cycle_not_active');
  });

  it('exports the payroll CSV as a job through the formula-safe writer', async () => {
    const started = await call<Data<Schemas['BackgroundJob']>>(admin, cyclePath('/exports'), { method: 'POST' });
    expect(started.status).toBe(202);
    expect((await call(marco, cyclePath('/exports'), { method: 'POST' })).status).toBe(403);
    let job = started.body.data;
    await until(async () => {
      job = (await call<Data<Schemas['BackgroundJob']>>(admin, `/api/background-jobs/${started.body.data.id}`)).body.data;
      return ['succeeded', 'failed'].includes(job.status);
    }, 30_000, 100);
    expect(job.status).toBe('succeeded');
    const file = await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(admin) });
    expect(file.status).toBe(200);
    const text = await file.text();
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(6);
    const cleo = rows.find((row) => row['Last name'] === 'Midyear');
    expect(cleo?.['First name']).toBe(`'=HYPERLINK("http://evil.test","Cleo")`);
    expect(rows.find((row) => row['Last name'] === 'Britain')).toMatchObject({ Currency: 'GBP', 'Current base': '80000.00', 'Merit %': '3.5', Merit: '2800.00', 'New base': '82800.00', 'Cycle currency': 'USD', 'Effective date': '2026-01-01' });
  });
});
