import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { baseUrl, request } from '../../api/test/http.js';
import { switchOnPlanning } from '../../api/src/meritCycles/test/fixtures.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { freshConfigHome, paybench } from './support.js';

/**
 * A GET on a connection of its own: the binary runs synchronously, long enough for the server to
 * close an idle kept-alive connection the test process has not yet seen closed.
 */
function freshGet<T>(url: string, token: string): Promise<T> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { Authorization: `Bearer ${token}` } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(JSON.parse(body) as T));
      })
      .on('error', reject);
  });
}

type Schemas = components['schemas'];
type Data<T> = { data: T };

/*
 * Hand-checked: Ada earns $100,000.00 and Bo $50,000.00, both employed the whole period, so at the
 * default 3% the cycle's budget is 300,000 + 150,000 = 450,000 cents ($4,500.00). Ada is planned at
 * 2.5% (250,000 cents) and Bo at 0%: $2,500.00 used, $2,000.00 remaining.
 */
// Each case runs the binary a few times; a busy machine makes each start slow.
describe('paybench cycles', { timeout: 300_000 }, () => {
  let company: TestCompany;
  let admin: TestUser;
  let env: Record<string, string>;
  let dir: string;
  let cycleId = '';
  let draftId = '';

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'CLI Cycles Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    const ada = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Anchor', performanceRating: 'meets' });
    await insertPay(db, company.id, ada, [{ type: 'base_salary', amount: 10_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
    const bo = await insertEmployee(db, company.id, { firstName: 'Bo', lastName: 'Baker', performanceRating: 'meets' });
    await insertPay(db, company.id, bo, [{ type: 'base_salary', amount: 5_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
    const headers = bearer(admin);
    const cycleInput = (name: string) => ({ name, effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' });
    const created = await request<Data<Schemas['MeritCycle']>>('/api/v2/meritCycles', { method: 'POST', headers, json: cycleInput('Merit 2026') });
    expect(created.status).toBe(201);
    cycleId = created.body.data.id;
    const launched = await request(`/api/v2/meritCycles/${cycleId}/transitions`, { method: 'POST', headers: { ...headers, 'If-Match': `"${created.body.data.version}"` }, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const plan = async (employeeId: string, meritPercentBp: number) => {
      const row = await request<Data<Schemas['WorksheetEmployee']>>(`/api/v2/meritCycles/${cycleId}/employees/${employeeId}`, { headers });
      const edited = await request(`/api/v2/meritCycles/${cycleId}/employees/${employeeId}`, { method: 'PATCH', headers: { ...headers, 'If-Match': `"${row.body.data.version}"` }, json: { meritPercentBp } });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    };
    await plan(ada, 250);
    await plan(bo, 0);
    draftId = (await request<Data<Schemas['MeritCycle']>>('/api/v2/meritCycles', { method: 'POST', headers, json: cycleInput('Next year') })).body.data.id;
    dir = freshConfigHome();
    env = { PAYBENCH_TOKEN: admin.token, XDG_CONFIG_HOME: dir };
  });

  it('lists the cycles as a table, as JSON and by state', () => {
    const table = paybench(['cycles', 'list'], env);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATE\s+EFFECTIVE\s+CURRENCY\s+ELIGIBLE\s+WORKSHEETS$/);
    expect(lines.find((line) => line.startsWith(cycleId))?.split(/\s{2,}/)).toEqual([cycleId, 'Merit 2026', 'active', '2026-01-01', 'USD', '2', '1']);
    const active = paybench(['cycles', 'list', '--state', 'active', '--json'], env);
    expect(active.code).toBe(0);
    expect((JSON.parse(active.stdout) as Schemas['MeritCycle'][]).map((cycle) => [cycle.id, cycle.state])).toEqual([[cycleId, 'active']]);
    const drafts = paybench(['cycles', 'list', '--state', 'draft', '--json'], env);
    expect((JSON.parse(drafts.stdout) as Schemas['MeritCycle'][]).map((cycle) => cycle.name)).toEqual(['Next year']);
    const wrong = paybench(['cycles', 'list', '--state', 'paused'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('Error: --state must be one of draft, active, closed, cancelled, not "paused".\n');
  });

  it('shows a cycle with its settings, budget and progress', () => {
    const shown = paybench(['cycles', 'show', cycleId], env);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    const pairs = Object.fromEntries(shown.stdout.trim().split('\n').map((line) => line.split(/\s{2,}/) as [string, string]));
    expect(pairs).toMatchObject({
      Name: 'Merit 2026',
      State: 'active',
      'Effective date': '2026-01-01',
      'Performance period': '2025-01-01 to 2025-12-31',
      Currency: 'USD',
      Budget: '3.00% of eligible payroll',
      Employees: '2 (2 eligible, 0 ineligible, 0 excluded)',
      Worksheets: '1',
      Allocated: '4,500.00 USD',
      Used: '2,500.00 USD',
      Remaining: '2,000.00 USD',
    });
    expect(pairs.Reviewed).toMatch(/^2 of 2 eligible \(100%\), 1 changed$/);
    const json = paybench(['cycles', 'show', cycleId, '--json'], env);
    const body = JSON.parse(json.stdout) as { cycle: Schemas['MeritCycle']; budgets: Schemas['BudgetReport']; progress: Schemas['CycleProgress'] };
    expect(body.cycle.id).toBe(cycleId);
    expect(body.budgets.total).toMatchObject({ allocated: { amount: 450_000, currency: 'USD' }, used: { amount: 250_000 }, remaining: { amount: 200_000 }, overBudget: false });
    expect(body.progress).toMatchObject({ eligible: 2, reviewed: 2 });
    // A draft has no budgets or progress yet.
    const draft = JSON.parse(paybench(['cycles', 'show', draftId, '--json'], env).stdout) as { budgets: unknown; progress: unknown };
    expect(draft).toMatchObject({ budgets: null, progress: null });
  });

  it('prints each worksheet’s budget and the total', () => {
    const budgets = paybench(['cycles', 'budgets', cycleId], env);
    expect(budgets.code).toBe(0);
    const lines = budgets.stdout.trim().split('\n').map((line) => line.split(/\s{2,}/));
    expect(lines[0]).toEqual(['WORKSHEET', 'PLANNER', 'ALLOCATED', 'RECOMMENDED', 'USED', 'REMAINING', 'BUDGET']);
    expect(lines[1]?.slice(1, 3)).toEqual(['Top level', '4,500.00 USD']);
    expect(lines[1]?.slice(4)).toEqual(['2,500.00 USD', '2,000.00 USD', 'within']);
    expect(lines.at(-1)?.slice(1)).toEqual(['Total', '4,500.00 USD', lines[1]?.[3], '2,500.00 USD', '2,000.00 USD', 'within']);
  });

  it('prints the bottom-up roll-up of each branch against its allocation', () => {
    const json = paybench(['cycles', 'rollup', cycleId, '--json'], env);
    expect(json.code).toBe(0);
    const rollup = JSON.parse(json.stdout) as Schemas['BottomUpBudget'];
    expect(rollup.nodes.length).toBeGreaterThan(0);
    const top = rollup.nodes[0]!;
    // What the branch planned: the 2,500.00 USD of merit the worksheet holds; the difference is the allocation less it.
    expect(top.plannedBranch).toEqual({ amount: 250_000, currency: 'USD' });
    expect(top.difference.amount).toBe(top.allocated.amount - top.plannedBranch.amount);
    const table = paybench(['cycles', 'rollup', cycleId], env);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n').map((line) => line.split(/\s{2,}/));
    expect(lines[0]).toEqual(['WORKSHEET', 'PLANNER', 'ALLOCATED', 'PLANNED (BRANCH)', 'DIFFERENCE', 'STATUS']);
    expect(lines[1]?.slice(1)).toEqual(['Top level', `${(top.allocated.amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`, '2,500.00 USD', `${(top.difference.amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`, top.status]);
  });

  it('lists the cycle’s employees with their current pay, merit and new pay', () => {
    const table = paybench(['cycles', 'employees', cycleId], env);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n').map((line) => line.split(/\s{2,}/));
    expect(lines[0]).toEqual(['EMPLOYEE', 'NAME', 'TITLE', 'CURRENT', 'MERIT', 'NEW PAY', 'REVIEWED']);
    // Name, current, merit and new pay (a row is marked reviewed only when its planner marks it).
    expect(lines.slice(1).map((line) => [line[1], line[3], line[4], line[5]]).sort()).toEqual([
      ['Ada Anchor', '100,000.00 USD', '2.50% (2,500.00 USD)', '102,500.00 USD'],
      ['Bo Baker', '50,000.00 USD', '0.00% (0.00 USD)', '50,000.00 USD'],
    ]);
    const json = JSON.parse(paybench(['cycles', 'employees', cycleId, '--json'], env).stdout) as Schemas['WorksheetEmployee'][];
    expect(json.map((row) => [row.name, row.newPay?.amount]).sort()).toEqual([
      ['Ada Anchor', 10_250_000],
      ['Bo Baker', 5_000_000],
    ]);
  });

  it('writes the payroll CSV through the export job', () => {
    const file = path.join(dir, 'payroll.csv');
    const exported = paybench(['cycles', 'export', cycleId, '--out', file], env);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const rows = parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row['First name'], row['Current base'], row['Merit %'], row.Merit, row['New base']]).sort()).toEqual([
      ['Ada', '100000.00', '2.5', '2500.00', '102500.00'],
      ['Bo', '50000.00', '0', '0.00', '50000.00'],
    ]);
  });

  it('imports approval chains from a CSV file: a dry run, all or nothing with line numbers, then for real', async () => {
    const planner = company.users.compensation_planner as TestUser;
    const good = path.join(dir, 'chains.csv');
    writeFileSync(good, `Manager email,Approver 1 email\n,${planner.email}\n`);
    const dry = paybench(['cycles', 'chains', 'import', cycleId, good, '--dry-run'], env);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('1 chains checked; nothing was written.');
    const chains = () => freshGet<Data<Schemas['ApprovalChain'][]>>(`${baseUrl()}/api/v2/meritCycles/${cycleId}/approvalChains`, admin.token);
    const before = (await chains()).data;
    expect(before.some((chain) => chain.reviewers.some((reviewer) => reviewer.userId === planner.id))).toBe(false);

    const bad = path.join(dir, 'bad-chains.csv');
    writeFileSync(bad, `Manager email,Approver 1 email\n,${planner.email}\nnobody@nowhere.test,${planner.email}\n`);
    const refused = paybench(['cycles', 'chains', 'import', cycleId, bad], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('Error: The file has 1 problem; nothing was written.\nline 3: Manager email: No employee of the company has the e-mail nobody@nowhere.test.\n');
    expect((await chains()).data).toEqual(before);

    const saved = paybench(['cycles', 'chains', 'import', cycleId, good], env);
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('1 chains saved.');
    expect((await chains()).data.map((chain) => [chain.branchEmployeeId, chain.reviewers.map((reviewer) => reviewer.userId)])).toEqual([[null, [planner.id]]]);
  });

  it('answers another company’s cycle as not found, exit 1', async () => {
    const other = await createTestCompany(await testDb(), 'Other Cycles Co');
    const stranger = paybench(['cycles', 'show', cycleId], { PAYBENCH_TOKEN: (other.users.admin as TestUser).token, XDG_CONFIG_HOME: dir });
    expect(stranger.code).toBe(1);
    expect(stranger.stdout).toBe('');
  });
});
