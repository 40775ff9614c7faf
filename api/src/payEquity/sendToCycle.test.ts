import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Sent = components['schemas']['PayEquityAdjustmentsSent'];
type Cycle = components['schemas']['MeritCycle'];
type Row = components['schemas']['WorksheetEmployee'];
type Budget = components['schemas']['BudgetReport'];

/*
 * One job family, so the fit is ln(pay) = a + b·woman and a woman's predicted pay (the fit without
 * the woman term) is exp(a) = the geometric mean of the men's pay:
 *   men   M1 90,000, M2 160,000 → √(90,000 × 160,000) = √14,400,000,000 = 120,000
 *   women W1 100,000 → raise 120,000 − 100,000 = 20,000 USD = 2,000,000 cents
 *         W2 130,000 → above 120,000: no raise
 *         W3 110,000 → raise 10,000 USD, but in Support: the cycle's rule keeps Engineering only
 * Bases are effective 2025-01-01; the reference year is 2026 (pay read on 2026-12-31).
 */
let company: TestCompany;
let other: TestCompany;
let admin: TestUser;
const ids: Record<string, string> = {};
const body = { year: 2026, controls: 'family' };

async function flag(target: TestCompany, name: string, support: TestUser): Promise<void> {
  const reply = await request(`/api/internal/companies/${target.id}/release-flags/${name}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

async function cycleOf(owner: TestUser, name: string): Promise<Cycle> {
  const created = await request<{ data: Cycle }>('/api/v2/meritCycles', { method: 'POST', headers: bearer(owner), json: { name, effectiveDate: '2027-01-01', periodStart: '2026-01-01', periodEnd: '2026-12-31', currency: 'USD' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data;
}

async function launch(owner: TestUser, cycle: Cycle): Promise<Cycle> {
  const launched = await request<{ data: Cycle }>(`/api/v2/meritCycles/${cycle.id}/transitions`, { method: 'POST', headers: { ...bearer(owner), 'If-Match': `"${cycle.version}"` }, json: { action: 'launch' } });
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  return launched.body.data;
}

const send = (user: TestUser, cycle: { id: string; version: number }) =>
  request<{ data: Sent; code?: string; message?: string }>(`/api/pay-equity/adjusted-gap/merit-cycles/${cycle.id}`, { method: 'POST', headers: { ...bearer(user), 'If-Match': `"${cycle.version}"` }, json: body });

beforeAll(async () => {
  const db = await testDb();
  company = await createTestCompany(db, 'Equity Raises Co');
  other = await createTestCompany(db, 'Other Raises Co');
  admin = company.users.admin as TestUser;
  const support = await createTestUser(db, { companyId: null, internalAdmin: true });
  for (const target of [company, other]) {
    await flag(target, 'pay_equity', support);
    await flag(target, 'compensation_planning', support);
  }
  const person = async (key: string, gender: string, base: number, department = 'Engineering') => {
    ids[key] = await insertEmployee(db, company.id, { firstName: key, lastName: 'Person', jobFamilyId: 'software_engineering', levelId: 'p3', currency: 'USD', department, demographics: { gender } });
    await insertPay(db, company.id, ids[key]!, [{ type: 'base_salary', amount: base * 100, currency: 'USD', effectiveDate: '2025-01-01' }]);
  };
  await person('M1', 'man', 90_000);
  await person('M2', 'man', 160_000);
  await person('W1', 'woman', 100_000);
  await person('W2', 'woman', 130_000);
  await person('W3', 'woman', 110_000, 'Support');
}, 120_000);

describe('sending the cost to close to a merit cycle', () => {
  let cycle: Cycle;

  it('plans each raise as a pay equity adjustment on the row, lists who the cycle does not take, and does not double on a second send', async () => {
    const draft = await cycleOf(admin, 'Merit 2027');
    const rules = await request<{ data: Cycle }>(`/api/v2/meritCycles/${draft.id}/eligibility/rules`, { method: 'PUT', headers: { ...bearer(admin), 'If-Match': `"${draft.version}"` }, json: { kind: 'all', rules: [{ kind: 'department', values: ['Engineering'] }] } });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    // A draft has no rows yet: the raises wait for launch — W1's 20,000 and W3's 10,000 (eligibility is judged at launch).
    const early = await send(admin, rules.body.data);
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect(early.body.data.sent.map((entry) => [entry.name, entry.amount.amount])).toEqual([['W1 Person', 2_000_000], ['W3 Person', 1_000_000]]);
    // The draft's budget counts them apart: 2,000,000 + 1,000,000 = 3,000,000 cents for two people.
    const draftBudget = await request<{ data: Budget }>(`/api/v2/meritCycles/${draft.id}/dashboard/cycleBudgets`, { headers: bearer(admin) });
    expect(draftBudget.status, JSON.stringify(draftBudget.body)).toBe(200);
    expect(draftBudget.body.data.equityAdjustments).toEqual({ total: { amount: 3_000_000, currency: 'USD' }, people: 2, byCurrency: [{ amount: 3_000_000, currency: 'USD' }] });
    cycle = await launch(admin, rules.body.data);
    // Launched: W1's waiting raise is on her row; W3 (Support) is not eligible, so hers is not planned.
    const launchedBudget = await request<{ data: Budget }>(`/api/v2/meritCycles/${cycle.id}/dashboard/cycleBudgets`, { headers: bearer(admin) });
    expect(launchedBudget.body.data.equityAdjustments).toEqual({ total: { amount: 2_000_000, currency: 'USD' }, people: 1, byCurrency: [{ amount: 2_000_000, currency: 'USD' }] });
    // Used = the merit planned at launch (3 % of M1 90,000, M2 160,000, W1 100,000, W2 130,000 = 2,700 + 4,800 + 3,000 + 3,900 = 14,400 USD) + the 20,000 adjustment.
    expect(launchedBudget.body.data.total.used).toEqual({ amount: 1_440_000 + 2_000_000, currency: 'USD' });
    const planned = await request<{ data: Row }>(`/api/v2/meritCycles/${cycle.id}/employees/${ids.W1}`, { headers: bearer(admin) });
    expect(planned.body.data.equityAdjustment?.amount).toEqual({ amount: 2_000_000, currency: 'USD' });

    const first = await send(admin, cycle);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.sent).toEqual([{ employeeId: ids.W1, name: 'W1 Person', amount: { amount: 2_000_000, currency: 'USD' }, reason: expect.stringContaining('Pay equity adjustment (2026): paid 100,000 USD against 120,000 predicted') }]);
    expect(first.body.data.notSent).toHaveLength(1);
    expect(first.body.data.notSent[0]).toMatchObject({ employeeId: ids.W3, name: 'W3 Person' });
    expect(first.body.data.notSent[0]?.reason).toMatch(/^Not eligible in this cycle/);
    expect(first.body.data.removed).toBe(0);

    // The planner sees it on the row, beside the merit the cycle recommended at launch (3 % of
    // 100,000 = 3,000): new pay = 100,000 + 3,000 merit + 20,000 adjustment = 123,000 USD.
    const row = await request<{ data: Row }>(`/api/v2/meritCycles/${cycle.id}/employees/${ids.W1}`, { headers: bearer(admin) });
    expect(row.status).toBe(200);
    expect(row.body.data.equityAdjustment?.amount).toEqual({ amount: 2_000_000, currency: 'USD' });
    // W1's residual = ln 100,000 − the women's mean log = ln(100,000 / ∛(100,000 × 130,000 × 110,000))
    //               = ln(100,000 / 112,662.32) = −0.1192.
    expect(row.body.data.equityAdjustment?.reason).toBe('Pay equity adjustment (2026): paid 100,000 USD against 120,000 predicted, residual -0.1192.');
    expect(row.body.data.merit?.amount).toEqual({ amount: 300_000, currency: 'USD' });
    expect(row.body.data.newPay).toEqual({ amount: 12_300_000, currency: 'USD' });
    const version = row.body.data.version;

    // Again: the same adjustment (not 2 × 20,000); the row is not touched.
    const second = await send(admin, cycle);
    expect(second.status).toBe(200);
    expect(second.body.data.sent.map((entry) => entry.amount.amount)).toEqual([2_000_000]);
    const again = await request<{ data: Row }>(`/api/v2/meritCycles/${cycle.id}/employees/${ids.W1}`, { headers: bearer(admin) });
    expect(again.body.data.newPay).toEqual({ amount: 12_300_000, currency: 'USD' });
    expect(again.body.data.version).toBe(version);

    const db = await testDb();
    const audit = await db('audit_events').where({ company_id: company.id, action: 'payEquity.adjustments.sent' }).select('details');
    expect(audit).toHaveLength(3); // the draft's send and the two after launch
  });

  it('replaces the pay equity part on a later send, keeping merit', async () => {
    // W1 is raised to 125,000: the men's geometric mean is still 120,000, so nobody is raised now and W1's adjustment goes.
    const db = await testDb();
    await insertPay(db, company.id, ids.W1!, [{ type: 'base_salary', amount: 12_500_000, currency: 'USD', effectiveDate: '2026-06-01' }]);
    const later = await send(admin, cycle);
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.data.sent).toEqual([]);
    expect(later.body.data.removed).toBe(1);
    // The row keeps its launch snapshot (100,000) and its merit (3,000); only the adjustment is gone: 103,000.
    const row = await request<{ data: Row }>(`/api/v2/meritCycles/${cycle.id}/employees/${ids.W1}`, { headers: bearer(admin) });
    expect(row.body.data.equityAdjustment).toBeUndefined();
    expect(row.body.data.newPay).toEqual({ amount: 10_300_000, currency: 'USD' });
  });

  it('refuses a stale version, a closed cycle (409), another company’s cycle (404) and a caller without the permissions (403)', async () => {
    expect((await send(admin, { id: cycle.id, version: cycle.version + 5 })).status).toBe(409);
    const theirs = await cycleOf(other.users.admin as TestUser, 'Theirs');
    expect((await send(admin, theirs)).status).toBe(404);
    expect((await send(company.users.analyst as TestUser, cycle)).status).toBe(403);

    const cancelled = await request<{ data: Cycle }>(`/api/v2/meritCycles/${cycle.id}/transitions`, { method: 'POST', headers: { ...bearer(admin), 'If-Match': `"${cycle.version}"` }, json: { action: 'cancel', comment: 'Replanned' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const refused = await send(admin, cancelled.body.data);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('cycle_closed');
  });
});
