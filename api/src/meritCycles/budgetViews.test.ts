import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { switchOnPlanning } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };

/*
 * A small org in three currencies, with the company's own rates (so every conversion is exact to
 * check by hand): 1 EUR = 1.25 USD, 1 JPY = 0.008 USD (JPY has no minor unit: ¥1 is 1).
 *
 *   (top, no manager, USD)   Tess Top $200,000
 *   └ Tess Top (USD)         Uma $100,000 · Eli €100,000 · Yuki ¥12,000,000
 *     ├ Eli Euro (EUR)       Emma €80,000 · Erik €60,000
 *     └ Yuki Yen (JPY)       Kenji ¥10,000,000 · Kaito ¥8,000,000
 *
 * Eligible pay by branch, in each currency (minor units):
 *   Eli:  EUR 8,000,000 + 6,000,000 = 14,000,000
 *   Yuki: JPY 10,000,000 + 8,000,000 = 18,000,000
 *   Tess: EUR 10,000,000 + 14,000,000 = 24,000,000; JPY 12,000,000 + 18,000,000 = 30,000,000; USD 10,000,000
 *         in USD: 24,000,000 × 1.25 = 30,000,000 + 30,000,000 × 0.008 × 100 = 24,000,000 + 10,000,000 = 64,000,000
 *   top:  Tess's + USD 20,000,000 = 84,000,000
 */
describe('merit-cycle budgets: top-down, bottom-up and allocations', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let manager: TestUser;
  const people: Record<string, string> = {};
  let cycleId = '';
  let version = 0;
  const sheetOf: Record<string, string> = {};

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, { method: init.method ?? 'GET', headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });
  const path = (suffix: string) => `/api/v2/meritCycles/${cycleId}${suffix}`;
  const topDown = async () => {
    const reply = await call<Data<Schemas['TopDownBudget']>>(admin, path('/budgets/topDown'));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.headers.get('etag')).toBe(`"${reply.body.data.version}"`);
    return new Map(reply.body.data.nodes.map((node) => [node.plannerName ?? '(top)', node]));
  };
  const put = (allocations: Schemas['BudgetAllocationInput'][], ifMatch = version, user = admin) =>
    call<Data<Schemas['BudgetAllocations']>>(user, path('/budgets/allocations'), { method: 'PUT', ifMatch, json: { allocations } });

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Budget Tree Co');
    admin = company.users.admin as TestUser;
    manager = company.users.people_manager as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    for (const [base, rate] of [
      ['EUR', '1.25'],
      ['JPY', '0.008'],
    ] as const) {
      const added = await call(admin, '/api/company/exchange-rates', { method: 'POST', json: { base, quote: 'USD', rate, effectiveDate: '2024-01-01' } });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    const id = company.id;
    const person = async (key: string, first: string, last: string, pay: number, currency: string, managerKey?: string) => {
      people[key] = await insertEmployee(db, id, { firstName: first, lastName: last, currency, managerId: managerKey ? people[managerKey] : undefined, performanceRating: 'meets', countryCode: currency === 'USD' ? 'US' : currency === 'EUR' ? 'DE' : 'JP' });
      await insertPay(db, id, people[key] as string, [{ type: 'base_salary', amount: pay, currency, effectiveDate: '2024-01-01' }]);
    };
    await person('tess', 'Tess', 'Top', 20_000_000, 'USD');
    await person('uma', 'Uma', 'Usd', 10_000_000, 'USD', 'tess');
    await person('eli', 'Eli', 'Euro', 10_000_000, 'EUR', 'tess');
    await person('yuki', 'Yuki', 'Yen', 12_000_000, 'JPY', 'tess');
    await person('emma', 'Emma', 'Euro', 8_000_000, 'EUR', 'eli');
    await person('erik', 'Erik', 'Euro', 6_000_000, 'EUR', 'eli');
    await person('kenji', 'Kenji', 'Yen', 10_000_000, 'JPY', 'yuki');
    await person('kaito', 'Kaito', 'Yen', 8_000_000, 'JPY', 'yuki');

    const created = await call<Data<Schemas['MeritCycle']>>(admin, '/api/v2/meritCycles', {
      method: 'POST',
      json: { name: 'Budgets 2026', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD', components: ['merit', 'promotion', 'lumpSum'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    cycleId = created.body.data.id;
    const configured = await call<Data<Schemas['MeritCycle']>>(admin, path('/budgets/configuration'), { method: 'PUT', ifMatch: created.body.data.version, json: { percentBp: 300, spendComponents: ['merit'], blockOverBudget: false } });
    expect(configured.status, JSON.stringify(configured.body)).toBe(200);
    const launched = await call<Data<Schemas['MeritCycle']>>(admin, path('/transitions'), { method: 'POST', ifMatch: configured.body.data.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    version = launched.body.data.version;
    const sheets = await call<Data<Schemas['Worksheet'][]>>(admin, path('/worksheets'));
    for (const sheet of sheets.body.data) sheetOf[sheet.planner?.name ?? '(top)'] = sheet.id;
    expect(Object.keys(sheetOf).sort()).toEqual(['(top)', 'Eli Euro', 'Tess Top', 'Yuki Yen']);
  });

  it('allocates the computed budget down the tree until a planner sets one, each node in its currency', async () => {
    const nodes = await topDown();
    expect([...nodes.keys()]).toEqual(['(top)', 'Tess Top', 'Eli Euro', 'Yuki Yen']);
    // Computed: 3% of each eligible base in USD — Tess 600,000; Uma 300,000; Eli $125,000 → 375,000; Yuki $96,000 → 288,000;
    // Emma $100,000 → 300,000; Erik $75,000 → 225,000; Kenji $80,000 → 240,000; Kaito $64,000 → 192,000.
    expect(nodes.get('(top)')).toMatchObject({
      currency: 'USD',
      method: 'computed',
      eligiblePay: { amount: 84_000_000, currency: 'USD' },
      eligiblePayByCurrency: [
        { amount: 24_000_000, currency: 'EUR' },
        { amount: 30_000_000, currency: 'JPY' },
        { amount: 30_000_000, currency: 'USD' },
      ],
      allocated: { amount: 2_520_000, currency: 'USD' },
      allocatedBelow: { amount: 1_920_000, currency: 'USD' },
      leftToAllocate: { amount: 600_000, currency: 'USD' },
      overAllocated: false,
    });
    // Eli's branch: (300,000 + 225,000) USD cents = $5,250 / 1.25 = €4,200.00; Yuki's: $4,320 / 0.008 = ¥540,000.
    expect(nodes.get('Eli Euro')).toMatchObject({ currency: 'EUR', eligiblePay: { amount: 14_000_000, currency: 'EUR' }, allocated: { amount: 420_000, currency: 'EUR' }, leftToAllocate: { amount: 420_000 } });
    expect(nodes.get('Yuki Yen')).toMatchObject({ currency: 'JPY', eligiblePay: { amount: 18_000_000, currency: 'JPY' }, allocated: { amount: 540_000, currency: 'JPY' } });
    // Tess: 300,000 + 375,000 + 288,000 + 525,000 + 432,000 = 1,920,000; below: €4,200 → 525,000 + ¥540,000 → 432,000.
    expect(nodes.get('Tess Top')).toMatchObject({ eligiblePay: { amount: 64_000_000 }, allocated: { amount: 1_920_000 }, allocatedBelow: { amount: 957_000 }, leftToAllocate: { amount: 963_000 } });
  });

  it('sets allocations by amount and by percentage, and shows what is left to allocate at each node', async () => {
    const saved = await put([
      { worksheetId: sheetOf['(top)'] as string, method: 'amount', amount: { amount: 2_500_000, currency: 'USD' } },
      { worksheetId: sheetOf['Tess Top'] as string, method: 'percent', percentBp: 350 },
      { worksheetId: sheetOf['Eli Euro'] as string, method: 'amount', amount: { amount: 400_000, currency: 'EUR' } },
      { worksheetId: sheetOf['Yuki Yen'] as string, method: 'percent', percentBp: 300 },
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.version).toBe(version + 1);
    expect(saved.headers.get('etag')).toBe(`"${version + 1}"`);
    version = saved.body.data.version;
    expect(saved.body.data.allocations.map((entry) => [entry.plannerName, entry.method, entry.percentBp, entry.amount, entry.allocated])).toEqual([
      [null, 'amount', null, { amount: 2_500_000, currency: 'USD' }, { amount: 2_500_000, currency: 'USD' }],
      // 3.5% of $640,000.00 = $22,400.00
      ['Tess Top', 'percent', 350, null, { amount: 2_240_000, currency: 'USD' }],
      ['Eli Euro', 'amount', null, { amount: 400_000, currency: 'EUR' }, { amount: 400_000, currency: 'EUR' }],
      // 3% of ¥18,000,000 = ¥540,000 (no minor unit)
      ['Yuki Yen', 'percent', 300, null, { amount: 540_000, currency: 'JPY' }],
    ]);

    const nodes = await topDown();
    // Top: $25,000.00 − Tess's $22,400.00 = $2,600.00 left for Tess's own row.
    expect(nodes.get('(top)')).toMatchObject({ allocated: { amount: 2_500_000 }, allocatedBelow: { amount: 2_240_000 }, leftToAllocate: { amount: 260_000 } });
    // Tess: $22,400.00 − (€4,000.00 × 1.25 = $5,000.00) − (¥540,000 × 0.008 = $4,320.00) = $13,080.00.
    expect(nodes.get('Tess Top')).toMatchObject({ allocatedBelow: { amount: 500_000 + 432_000 }, leftToAllocate: { amount: 1_308_000, currency: 'USD' } });
    expect(nodes.get('Eli Euro')).toMatchObject({ leftToAllocate: { amount: 400_000, currency: 'EUR' } });

    // Each worksheet's own budget (what row edits are checked against) is what is left at its node, in the cycle currency.
    const sheets = await call<Data<Schemas['Worksheet'][]>>(admin, path('/worksheets'));
    const own = new Map(sheets.body.data.map((sheet) => [sheet.planner?.name ?? '(top)', sheet.budget.allocated.amount]));
    expect(Object.fromEntries(own)).toEqual({ '(top)': 260_000, 'Tess Top': 1_308_000, 'Eli Euro': 500_000, 'Yuki Yen': 432_000 });
  });

  it('rolls what managers planned up the tree against their allocations, per currency, on the dashboard too', async () => {
    const plan = async (key: string, amount: number, currency: string) => {
      const row = await call<Data<Schemas['WorksheetEmployee']>>(admin, path(`/employees/${people[key]}`));
      const edited = await call(admin, path(`/employees/${people[key]}`), { method: 'PATCH', ifMatch: row.body.data.version, json: { meritAmount: { amount, currency }, comment: 'Planned for the budget test' } });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    };
    await plan('emma', 300_000, 'EUR'); // €3,000.00
    await plan('erik', 150_000, 'EUR'); // €1,500.00
    await plan('kenji', 300_000, 'JPY'); // ¥300,000
    await plan('kaito', 200_000, 'JPY'); // ¥200,000
    await plan('uma', 200_000, 'USD'); // $2,000.00
    await plan('eli', 200_000, 'EUR'); // €2,000.00
    await plan('yuki', 240_000, 'JPY'); // ¥240,000 (launch planned her 3% recommendation, ¥360,000)
    await plan('tess', 500_000, 'USD'); // $5,000.00

    const reply = await call<Data<Schemas['BottomUpBudget']>>(admin, path('/budgets/bottomsUp'));
    expect(reply.status).toBe(200);
    const nodes = new Map(reply.body.data.nodes.map((node) => [node.plannerName ?? '(top)', node]));
    // Eli: €3,000 + €1,500 = €4,500.00 against €4,000.00: €500.00 over.
    expect(nodes.get('Eli Euro')).toMatchObject({ planned: { amount: 450_000, currency: 'EUR' }, plannedBranch: { amount: 450_000 }, allocated: { amount: 400_000 }, difference: { amount: -50_000, currency: 'EUR' }, status: 'over' });
    // Yuki: ¥300,000 + ¥200,000 = ¥500,000 against ¥540,000: ¥40,000 under.
    expect(nodes.get('Yuki Yen')).toMatchObject({ plannedBranch: { amount: 500_000, currency: 'JPY' }, difference: { amount: 40_000 }, status: 'under' });
    // Tess's own: $2,000 + €2,000 × 1.25 + ¥240,000 × 0.008 = $2,000 + $2,500 + $1,920 = $6,420.00.
    // Her branch: USD 200,000; EUR 200,000 + 450,000 = 650,000 → 812,500; JPY 240,000 + 500,000 = 740,000 → 592,000.
    expect(nodes.get('Tess Top')).toMatchObject({
      planned: { amount: 642_000, currency: 'USD' },
      plannedByCurrency: [
        { amount: 650_000, currency: 'EUR' },
        { amount: 740_000, currency: 'JPY' },
        { amount: 200_000, currency: 'USD' },
      ],
      plannedBranch: { amount: 200_000 + 812_500 + 592_000 },
      difference: { amount: 2_240_000 - 1_604_500 },
      status: 'under',
    });
    // Top: Tess's $5,000 + 1,604,500 = 2,104,500 against $25,000.00: $3,955.00 under.
    expect(nodes.get('(top)')).toMatchObject({ planned: { amount: 500_000 }, plannedBranch: { amount: 2_104_500 }, difference: { amount: 395_500 }, status: 'under' });

    const dashboard = await call<Data<Schemas['BudgetReport']>>(admin, path('/dashboard/cycleBudgets'));
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.data.comparison.nodes).toEqual(reply.body.data.nodes);
  });

  it('refuses a child given more than its parent, a percentage over 100, an amount in another currency, a stale version and someone without the whole company', async () => {
    const before = await topDown();
    // €20,000.00 → $25,000.00, with Yuki's $4,320.00, is more than Tess's $22,400.00.
    const tooMuch = await put([{ worksheetId: sheetOf['Eli Euro'] as string, method: 'amount', amount: { amount: 2_000_000, currency: 'EUR' } }]);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.code).toBe('allocation_exceeds_parent');
    expect(tooMuch.body.errors?.[0]?.message).toBe('the allocations under Tess Top (2932000 USD minor units) exceed what Tess Top is allocated (2240000)');
    // Tess at 0.5% of $640,000 = $3,200 cannot hold her children's $9,320.
    expect((await put([{ worksheetId: sheetOf['Tess Top'] as string, method: 'percent', percentBp: 50 }])).body.code).toBe('allocation_exceeds_parent');

    const over100 = await put([{ worksheetId: sheetOf['Yuki Yen'] as string, method: 'percent', percentBp: 10_001 }]);
    expect(over100.status).toBe(400);
    expect(over100.body.errors?.map((error) => error.field)).toContain('body.allocations.0.percentBp');
    const dollars = await put([{ worksheetId: sheetOf['Yuki Yen'] as string, method: 'amount', amount: { amount: 5_000, currency: 'USD' } }]);
    expect(dollars.status).toBe(400);
    expect(dollars.body.errors).toEqual([{ field: 'body.allocations.0.amount.currency', message: "must be the node's currency, JPY" }]);
    const missing = await put([{ worksheetId: sheetOf['Yuki Yen'] as string, method: 'percent' }]);
    expect(missing.body.errors?.[0]?.field).toBe('body.allocations.0.percentBp');

    const stale = await put([{ worksheetId: sheetOf['Yuki Yen'] as string, method: 'computed' }], version - 1);
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect(stale.headers.get('etag')).toBe(`"${version}"`);
    expect((await put([{ worksheetId: sheetOf['Yuki Yen'] as string, method: 'computed' }], version, manager)).status).toBe(403);

    // Nothing of the refused edits was written.
    expect(await topDown()).toEqual(before);

    // Back to computed: Yuki's ¥540,000 again (what 3% of the branch computes to), and the version moves on.
    const cleared = await put([{ worksheetId: sheetOf['Yuki Yen'] as string, method: 'computed' }]);
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.allocations.find((entry) => entry.plannerName === 'Yuki Yen')).toMatchObject({ method: 'computed', percentBp: null, amount: null, allocated: { amount: 540_000, currency: 'JPY' }, updatedAt: null });
    version = cleared.body.data.version;
  });

  it("answers 404 for another company's cycle", async () => {
    const other = await createTestCompany(db, 'Other Budget Co');
    const support = await createTestUser(db, { companyId: other.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, other.id);
    const stranger = other.users.admin as TestUser;
    for (const suffix of ['/budgets/topDown', '/budgets/bottomsUp', '/budgets/allocations', '/dashboard/cycleBudgets']) expect((await call(stranger, path(suffix))).status, suffix).toBe(404);
    expect((await put([{ worksheetId: sheetOf['Yuki Yen'] as string, method: 'computed' }], version, stranger)).status).toBe(404);
  });
});
