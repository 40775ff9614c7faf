import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../access/tokens.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS, findLocation } from '../reference/catalog/index.js';

type Employee = components['schemas']['Employee'];
type OwnRecord = components['schemas']['OwnEmployeeRecord'];
type Result = components['schemas']['BenchmarkResult'];
type CompensationRecord = components['schemas']['CompensationRecord'];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** The demo company the server seeded at start, seen through the demo sign-ins. */
describe('the demo company’s people', () => {
  const tokens: Record<string, Record<string, string>> = {};
  let everyone: Employee[] = [];

  beforeAll(async () => {
    const db = await testDb();
    for (const email of ['admin@acme.test', 'manager@acme.test', 'employee@acme.test']) {
      const user = await db('users').where({ email }).first<{ id: string; company_id: string }>();
      const secret = newTokenSecret();
      await db('api_tokens').insert({ id: newId(), company_id: user.company_id, user_id: user.id, name: 'demo test', token_hash: hashToken(secret), token_prefix: tokenPrefix(secret), created_at: new Date().toISOString() });
      tokens[email] = { Authorization: `Bearer ${secret}` };
    }
    let cursor: string | null = null;
    do {
      const reply: { body: { data: Employee[]; page: { nextCursor: string | null } } } = await request(`/api/employees?limit=500&status=all${cursor ? `&cursor=${cursor}` : ''}`, { headers: tokens['admin@acme.test'] });
      everyone.push(...reply.body.data);
      cursor = reply.body.page.nextCursor;
    } while (cursor);
    everyone = everyone.filter((employee) => employee.email?.endsWith('@acme.test'));
  });

  it('is about 250 people in one org tree under the CEO', () => {
    const active = everyone.filter((employee) => employee.status === 'active');
    expect(active.length).toBeGreaterThanOrEqual(230);
    expect(active.length).toBeLessThanOrEqual(270);
    const roots = everyone.filter((employee) => employee.managerId === null);
    expect(roots.map((employee) => employee.title)).toEqual(['Chief Executive Officer']);
    const byId = new Map(everyone.map((employee) => [employee.id, employee]));
    for (const employee of everyone) {
      let node: Employee | undefined = employee;
      for (let depth = 0; node?.managerId && depth < 10; depth += 1) node = byId.get(node.managerId);
      expect(node?.managerId ?? null).toBeNull();
    }
    // Department heads: VPs where the market prices their function at VP levels, heads below them.
    const heads = everyone.filter((employee) => employee.managerId === roots[0]?.id);
    expect(heads).toHaveLength(8);
    for (const head of heads) {
      if (head.levelId === 'e7' || head.levelId === 'e8') expect(head.title).toMatch(/^S?VP of /);
      else expect(head.title).toMatch(/^Head of /);
    }
    expect(heads.find((head) => head.email === 'admin@acme.test')?.title).toBe('Head of People');
  });

  it('places people in the market catalog and pays them in their location’s currency', () => {
    for (const employee of everyone) {
      const location = findLocation(employee.locationId ?? '');
      expect(location?.kind).toBe('metro');
      expect(employee.currency).toBe(location?.currencyCode);
      expect(employee.jobFamilyId).toBeTruthy();
      expect(employee.levelId).toBeTruthy();
      expect(employee.demographics).toBeDefined();
      expect(employee.performanceRating).toMatch(/^(exceptional|exceeds|meets|developing|below)$/);
    }
    expect(new Set(everyone.map((employee) => employee.currency))).toEqual(new Set(['USD', 'CAD', 'GBP']));
  });

  it('pays engineers roughly what the market pays', async () => {
    const tier1 = ['us_sf_bay_area', 'us_new_york', 'us_seattle'];
    const levels = ['p2', 'p3', 'p4', 'p5'];
    const market = await request<{ data: Result }>('/api/benchmarking/market-data', {
      method: 'POST',
      headers: tokens['admin@acme.test'],
      json: {
        compensationTypes: ['base'],
        marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: ['840_1'], industries: ['ind_all'] }],
        jobFamilies: ['software_engineering'],
        levels: levels.map((id) => ({ type: 'level', id })),
        percentiles: [50],
      },
    });
    expect(market.status).toBe(200);
    const ratios: number[] = [];
    for (const employee of everyone) {
      if (employee.status !== 'active' || employee.jobFamilyId !== 'software_engineering' || !tier1.includes(employee.locationId ?? '') || !levels.includes(employee.levelId ?? '')) continue;
      const cell = market.body.data.cells.find((c) => c.levelId === employee.levelId);
      const p50 = cell?.percentiles?.find((p) => p.percentile === 50)?.value;
      const base = employee.compensation?.baseSalary?.amount.amount;
      if (p50 && base) ratios.push(base / 100 / p50);
    }
    expect(ratios.length).toBeGreaterThanOrEqual(10);
    expect(median(ratios)).toBeGreaterThan(0.75);
    expect(median(ratios)).toBeLessThan(1.35);
  });

  it('gives the demo manager a team of eight, and nothing else', async () => {
    const reply = await request<{ data: Employee[] }>('/api/employees?limit=500', { headers: tokens['manager@acme.test'] });
    expect(reply.status).toBe(200);
    const marco = reply.body.data.find((employee) => employee.email === 'manager@acme.test');
    expect(marco).toMatchObject({ firstName: 'Marco', lastName: 'Manager', levelId: 'm3' });
    expect(reply.body.data).toHaveLength(9);
    expect(reply.body.data.filter((employee) => employee.managerId === marco?.id)).toHaveLength(8);
    expect(reply.body.data.every((employee) => employee.compensation?.baseSalary)).toBe(true);
  });

  it('shows the demo employee their own pay, history and vesting grants', async () => {
    const me = await request<{ data: OwnRecord }>('/api/employees/me', { headers: tokens['employee@acme.test'] });
    expect(me.status).toBe(200);
    expect(me.body.data.employee).toMatchObject({ firstName: 'Emil', lastName: 'Employee', levelId: 'p3', jobFamilyId: 'software_engineering' });
    const marco = everyone.find((employee) => employee.email === 'manager@acme.test');
    expect(me.body.data.employee.managerId).toBe(marco?.id);
    expect(me.body.data.employee.compensation?.baseSalary?.amount.currency).toBe('USD');
    expect(me.body.data.employee.compensation?.bonusTarget?.percentOfBase).toBeGreaterThan(0);
    expect(me.body.data.equityGrants.length).toBeGreaterThanOrEqual(1);
    expect(me.body.data.equityGrants[0]?.vesting.vestedShares).toBeGreaterThan(0);
    expect(me.body.data.equityGrants[0]?.vesting.value?.total.amount).toBeGreaterThan(0);
    const history = await request<{ data: CompensationRecord[] }>(`/api/employees/${me.body.data.employee.id}/compensation?type=base_salary`, { headers: tokens['admin@acme.test'] });
    expect(history.body.data.map((row) => row.reason)).toContain('hire');
  });

  it('has two to three years of dated history: hires, merit cycles and promotions', async () => {
    const longest = everyone.filter((employee) => employee.startDate && employee.startDate < `${Number(new Date().toISOString().slice(0, 4)) - 4}-01-01`).slice(0, 5);
    const reasons = new Set<string>();
    for (const employee of longest) {
      const history = await request<{ data: CompensationRecord[] }>(`/api/employees/${employee.id}/compensation?type=base_salary`, { headers: tokens['admin@acme.test'] });
      const merits = history.body.data.filter((row) => row.reason === 'merit' || row.reason === 'promotion');
      expect(merits.length).toBeGreaterThanOrEqual(employee.performanceRating === 'below' ? 0 : 2);
      for (const row of history.body.data) if (row.reason) reasons.add(row.reason);
    }
    expect(reasons.has('hire')).toBe(true);
    expect(reasons.has('merit')).toBe(true);
    const db = await testDb();
    const counts = await db('compensation_records')
      .join('employees', 'employees.id', 'compensation_records.employee_id')
      .where('employees.email', 'like', '%@acme.test')
      .andWhere('compensation_records.type', 'base_salary')
      .groupBy('compensation_records.reason')
      .select<{ reason: string | null; n: number | string }[]>('compensation_records.reason', db.raw('count(*) as n'));
    const byReason = new Map(counts.map((row) => [String(row.reason), Number(row.n)]));
    expect(byReason.get('hire')).toBe(everyone.length);
    expect(byReason.get('merit')).toBeGreaterThan(everyone.length);
    expect(byReason.get('promotion')).toBeGreaterThan(5);
  });
});
