import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { percentileInc } from '../market/engine/index.js';
import { insertEmployee, insertGrant, insertPay, monthsAgo } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type TablePage = { data: Schemas['TeamTable']; page: Schemas['Page'] };

const MARKET_FILTER = { companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'] };

/** The market API's answer for one family × level × location cell of base salary. */
async function marketCell(user: TestUser, cell: { jobFamilyId: string; levelId: string; locationId: string }) {
  const reply = await request<Data<Schemas['BenchmarkResult']>>('/api/benchmarking/market-data', {
    method: 'POST',
    headers: bearer(user),
    json: {
      compensationTypes: ['base'],
      marketFilters: [{ ...MARKET_FILTER, locations: [cell.locationId] }],
      jobFamilies: [cell.jobFamilyId],
      levels: [{ type: 'level', id: cell.levelId }],
      percentiles: [50],
    },
  });
  expect(reply.status).toBe(200);
  const only = reply.body.data.cells[0];
  if (!only) throw new Error('the market answered no cell');
  return only;
}

async function switchOnTeamView(db: Awaited<ReturnType<typeof testDb>>, companyId: string): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/team_view`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

describe('the team view', () => {
  let company: TestCompany;
  let admin: TestUser;
  let manager: TestUser;
  let analyst: TestUser;
  let teamOnly: TestUser;
  let widePayNarrow: TestUser;
  type Fixture = 'root' | 'manager' | 'ivy' | 'option' | 'underwater' | 'rsu' | 'gus' | 'sam' | 'tia' | 'terry' | 'terryOption' | 'terryEuro' | 'olga' | 'widePayNarrow';
  const ids = {} as Record<Fixture, string>;
  let subtree: string[];
  let published: { jobFamilyId: string; levelId: string; locationId: string };
  let thin: { jobFamilyId: string; levelId: string; locationId: string };
  const optionStart = monthsAgo(24);

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'Team View Co');
    admin = company.users.admin as TestUser;
    manager = company.users.people_manager as TestUser;
    analyst = company.users.analyst as TestUser;
    await switchOnTeamView(db, company.id);

    // People who can see records but not pay, and records of all but pay of their reports only.
    const role = async (name: string, permissions: Record<string, { authority: string; scope: string }[]>) => {
      const reply = await request<Data<Schemas['Role']>>('/api/roles', { method: 'POST', headers: bearer(admin), json: { name, permissions } });
      expect(reply.status).toBe(200);
      return reply.body.data.id;
    };
    teamOnly = await createTestUser(db, { companyId: company.id, roleIds: [await role('Team reader', { team: [{ authority: 'view', scope: 'all' }] })] });
    widePayNarrow = await createTestUser(db, {
      companyId: company.id,
      roleIds: [await role('Wide team, narrow pay', { team: [{ authority: 'view', scope: 'all' }], employeeCompensation: [{ authority: 'view', scope: 'reports' }] })],
    });

    // A cell the market publishes and one it withholds, found through the market API itself.
    const candidates = async (list: [string, string, string][], status: 'published' | 'insufficient_data') => {
      for (const [jobFamilyId, levelId, locationId] of list) {
        const cell = await marketCell(admin, { jobFamilyId, levelId, locationId });
        if (cell.status === status) return { jobFamilyId, levelId, locationId };
      }
      throw new Error(`no ${status} cell among the candidates`);
    };
    published = await candidates(
      [
        ['software_engineering', 'p3', 'us_sf_bay_area'],
        ['software_engineering', 'p3', 'us_new_york'],
        ['software_engineering', 'p4', 'us_sf_bay_area'],
        ['software_engineering', 'p3', 'us_seattle'],
        ['software_engineering', 'p2', 'us_sf_bay_area'],
      ],
      'published',
    );
    thin = await candidates(
      [
        ['technical_writing', 'e8', 'us_kansas_city'],
        ['technical_writing', 'e8', 'us_columbus'],
        ['mechanical_engineering', 'e8', 'us_nashville'],
        ['technical_writing', 'e7', 'ca_calgary'],
      ],
      'insufficient_data',
    );

    const settings = await request<Data<Schemas['CompanySettings']>>('/api/company/settings', { headers: bearer(admin) });
    const shares = await request('/api/company/settings', {
      method: 'PATCH',
      headers: { ...bearer(admin), 'If-Match': `"${settings.body.data.version}"` },
      json: { sharePrice: 18.4, exercisePrice: 6.25 },
    });
    expect(shares.status).toBe(200);

    const id = company.id;
    ids.root = await insertEmployee(db, id, { firstName: 'Rita', lastName: 'Root', levelId: 'm6', title: 'CTO', performanceRating: 'exceptional' });
    await insertPay(db, id, ids.root, [{ type: 'base_salary', amount: 30_000_000, effectiveDate: '2022-01-01' }]);
    ids.manager = await insertEmployee(db, id, { firstName: 'Marco', lastName: 'Manager', levelId: 'm4', managerId: ids.root, userId: manager.id, demographics: { gender: 'male' } });
    await insertPay(db, id, ids.manager, [
      { type: 'base_salary', amount: 20_000_000, effectiveDate: '2022-01-01' },
      { type: 'base_salary', amount: 22_000_000, effectiveDate: '2024-04-01', reason: 'merit' },
    ]);
    ids.ivy = await insertEmployee(db, id, { firstName: 'Ivy', lastName: 'Icarus', managerId: ids.manager, jobFamilyId: published.jobFamilyId, levelId: published.levelId, locationId: published.locationId, department: 'Platform', performanceRating: 'exceeds' });
    await insertPay(db, id, ids.ivy, [
      { type: 'base_salary', amount: 14_000_000, effectiveDate: '2022-05-01' },
      { type: 'base_salary', amount: 15_000_000, effectiveDate: '2024-05-01', reason: 'merit' },
      { type: 'bonus_target', amount: 1_500_000, effectiveDate: '2024-05-01', percentOfBaseBp: 1000 },
      { type: 'base_salary', amount: 99_000_000, effectiveDate: '2999-01-01', reason: 'promotion' },
    ]);
    ids.option = await insertGrant(db, id, ids.ivy, { type: 'option', shares: 4800, exercisePrice: 625, vestingStartDate: optionStart });
    ids.underwater = await insertGrant(db, id, ids.ivy, { type: 'option', shares: 1000, exercisePrice: 2500, vestingStartDate: optionStart });
    ids.rsu = await insertGrant(db, id, ids.ivy, { type: 'rsu', shares: 1200, vestingStartDate: monthsAgo(6) });
    ids.gus = await insertEmployee(db, id, { firstName: 'Gus', lastName: 'Greaves', managerId: ids.manager, levelId: 'p4', locationId: 'gb_london', countryCode: 'GB', currency: 'GBP', performanceRating: 'developing' });
    await insertPay(db, id, ids.gus, [{ type: 'base_salary', amount: 9_000_000, currency: 'GBP', effectiveDate: '2023-02-01' }]);
    ids.sam = await insertEmployee(db, id, { firstName: 'Sam', lastName: 'Sub', managerId: ids.manager, levelId: 'm3', locationId: 'us_seattle' });
    await insertPay(db, id, ids.sam, [{ type: 'base_salary', amount: 17_000_000, effectiveDate: '2023-02-01' }]);
    ids.tia = await insertEmployee(db, id, { firstName: 'Tia', lastName: 'Thin', managerId: ids.sam, jobFamilyId: thin.jobFamilyId, levelId: thin.levelId, locationId: thin.locationId });
    await insertPay(db, id, ids.tia, [{ type: 'base_salary', amount: 10_000_000, effectiveDate: '2023-02-01' }]);
    ids.terry = await insertEmployee(db, id, { firstName: 'Terry', lastName: 'Gone', managerId: ids.manager, levelId: 'p2', status: 'terminated' });
    // Terry left on 2024-01-31, 24 months into a four-year grant; one more grant's strike is in euros.
    ids.terryOption = await insertGrant(db, id, ids.terry, { type: 'option', shares: 4800, exercisePrice: 625, vestingStartDate: '2022-01-31' });
    ids.terryEuro = await insertGrant(db, id, ids.terry, { type: 'option', shares: 100, exercisePrice: 500, currency: 'EUR', vestingStartDate: '2022-01-31' });
    ids.olga = await insertEmployee(db, id, { firstName: 'Olga', lastName: 'Outside', managerId: ids.root, locationId: 'us_new_york', department: 'Data', performanceRating: 'meets' });
    await insertPay(db, id, ids.olga, [{ type: 'base_salary', amount: 16_000_000, effectiveDate: '2023-02-01' }]);
    await insertGrant(db, id, ids.olga, { type: 'rsu', shares: 500, vestingStartDate: monthsAgo(30) });
    // A level with a big group and a small one, for the pay-equity view.
    const genders = ['female', 'female', 'female', 'female', 'female', 'female', 'male', 'male'];
    for (const [index, gender] of genders.entries()) {
      const member = await insertEmployee(db, id, { firstName: `Pool${index}`, lastName: 'Person', managerId: ids.root, levelId: 'p5', department: 'Data', demographics: { gender } });
      await insertPay(db, id, member, [{ type: 'base_salary', amount: 18_000_000 + index * 100_000, effectiveDate: '2023-02-01' }]);
    }
    // The wide-team, narrow-pay reader manages Olga.
    ids.widePayNarrow = await insertEmployee(db, id, { firstName: 'Wendy', lastName: 'Wide', managerId: ids.root, userId: widePayNarrow.id, levelId: 'm4', performanceRating: 'meets' });
    await db('employees').where({ id: ids.olga }).update({ manager_id: ids.widePayNarrow });
    subtree = [ids.manager, ids.ivy, ids.gus, ids.sam, ids.tia];
  });

  const table = (user: TestUser, query = '') => request<TablePage & ErrorBody>(`/api/team/employees/table${query}`, { headers: bearer(user) });

  it('is not there for a company that has not switched the team view on', async () => {
    const dark = await createTestCompany(await testDb(), 'Dark Co');
    const reply = await request<ErrorBody>('/api/team/employees/overview', { headers: bearer(dark.users.admin as TestUser) });
    expect(reply.status).toBe(404);
    expect(reply.body.message).toBe('The team view is not switched on for your company.');
    // The router says so before it reads the request: a malformed one learns nothing more.
    const malformed = await request<ErrorBody>('/api/team/employees/table?limit=-1&bogus=1', { headers: bearer(dark.users.admin as TestUser) });
    expect(malformed.status).toBe(404);
    expect((await request<ErrorBody>('/api/team/employees/table?limit=-1', { headers: bearer(company.users.admin as TestUser) })).status).toBe(400);
  });

  it('refuses people without the team permission', async () => {
    const reply = await request<ErrorBody>('/api/team/employees/table', { headers: bearer(company.users.employee as TestUser) });
    expect(reply.status).toBe(403);
  });

  it('shows a manager only their own subtree: in the table, the overview and every per-employee endpoint', async () => {
    const rows = await table(manager, '?limit=500');
    expect(rows.status).toBe(200);
    expect(rows.body.data.rows.map((row) => row.id).sort()).toEqual([...subtree].sort());
    expect(rows.body.data.total).toBe(subtree.length);
    const all = await table(manager, '?status=all&limit=500');
    expect(all.body.data.rows.map((row) => row.id)).toContain(ids.terry);

    const overview = await request<Data<Schemas['TeamOverview']>>('/api/team/employees/overview', { headers: bearer(manager) });
    expect(overview.body.data.headcount).toBe(subtree.length);
    expect(overview.body.data.byDepartment.find((entry) => entry.id === 'Data')).toBeUndefined();

    for (const path of ['', '/comp-timeline', '/equity-details-chart']) {
      const outside = await request<ErrorBody>(`/api/team/employees/${ids.olga}${path}`, { headers: bearer(manager) });
      expect(outside.status, path).toBe(404);
      const above = await request<ErrorBody>(`/api/team/employees/${ids.root}${path}`, { headers: bearer(manager) });
      expect(above.status, path).toBe(404);
      const inside = await request(`/api/team/employees/${ids.tia}${path}`, { headers: bearer(manager) });
      expect(inside.status, path).toBe(200);
    }
    const admins = await table(admin, '?limit=500');
    expect(admins.body.data.rows.map((row) => row.id)).toEqual(expect.arrayContaining([ids.olga, ids.root, ...subtree]));
  });

  it('leaves pay out entirely for a person without the pay permission', async () => {
    const rows = await table(teamOnly, '?columns=name&columns=baseSalary&columns=compaRatio&columns=level&limit=500');
    expect(rows.status).toBe(200);
    expect(rows.body.data.columns.map((column) => column.key)).toEqual(['name', 'level']);
    const ivy = rows.body.data.rows.find((row) => row.id === ids.ivy);
    expect(ivy).toEqual({ id: ids.ivy, name: 'Ivy Icarus', level: { id: published.levelId, name: expect.any(String) } });
    expect(rows.body.data.rows.every((row) => !('baseSalary' in row) && !('compaRatio' in row))).toBe(true);

    const sorted = await table(teamOnly, '?sort=baseSalary');
    expect(sorted.status).toBe(400);
    expect(sorted.body.errors?.[0]?.field).toBe('query.sort');

    const overview = await request<Data<Schemas['TeamOverview']>>('/api/team/employees/overview', { headers: bearer(teamOnly) });
    expect(overview.body.data.headcount).toBeGreaterThan(subtree.length);
    expect(overview.body.data).not.toHaveProperty('payroll');
    expect(overview.body.data).not.toHaveProperty('compaRatio');

    const detail = await request<Data<Schemas['TeamEmployeeDetail']>>(`/api/team/employees/${ids.ivy}`, { headers: bearer(teamOnly) });
    expect(detail.body.data.payVisible).toBe(false);
    expect(Object.keys(detail.body.data.employee).filter((key) => ['baseSalary', 'totalCash', 'equityValue', 'compaRatio', 'lastRaiseDate'].includes(key))).toEqual([]);

    for (const path of ['/comp-timeline', '/equity-details-chart']) {
      expect((await request(`/api/team/employees/${ids.ivy}${path}`, { headers: bearer(teamOnly) })).status, path).toBe(403);
    }
    expect((await request('/api/team/analytics/compa-ratio', { headers: bearer(teamOnly) })).status).toBe(403);
    expect((await request('/api/team/analytics/playground?metric=medianBase', { headers: bearer(teamOnly) })).status).toBe(403);
    const headcount = await request<Data<Schemas['TeamPlayground']>>('/api/team/analytics/playground?groupBy=department&metric=headcount', { headers: bearer(teamOnly) });
    expect(headcount.status).toBe(200);

    const settings = await request<ErrorBody>('/api/team/settings/me', { method: 'PATCH', headers: { ...bearer(teamOnly), 'If-Match': '"0"' }, json: { columns: ['name', 'baseSalary'] } });
    expect(settings.status).toBe(400);
    const state = await request<Data<Schemas['TeamViewSettingsState']>>('/api/team/settings', { headers: bearer(teamOnly) });
    expect(state.body.data.availableColumns.some((column) => column.pay)).toBe(false);
    expect(state.body.data.effective.columns.includes('baseSalary')).toBe(false);
  });

  it('shows pay only on the rows the pay permission reaches when it is narrower than the team permission', async () => {
    const rows = await table(widePayNarrow, '?columns=name&columns=baseSalary&limit=500');
    expect(rows.body.data.columns.map((column) => column.key)).toEqual(['name', 'baseSalary']);
    const byId = new Map(rows.body.data.rows.map((row) => [row.id, row]));
    expect(byId.get(ids.olga)?.baseSalary).toEqual({ amount: 16_000_000, currency: 'USD' });
    expect(byId.get(ids.ivy)).toEqual({ id: ids.ivy, name: 'Ivy Icarus' });
    expect((await request(`/api/team/employees/${ids.ivy}/comp-timeline`, { headers: bearer(widePayNarrow) })).status).toBe(404);
    expect((await request(`/api/team/employees/${ids.olga}/comp-timeline`, { headers: bearer(widePayNarrow) })).status).toBe(200);
  });

  it('keeps performance ratings with pay: absent, unsortable and ungroupable without the pay permission', async () => {
    // teamOnly holds a custom role with team view and no employeeCompensation.
    const rows = await table(teamOnly, '?columns=name&columns=performanceRating&limit=500');
    expect(rows.status).toBe(200);
    expect(rows.body.data.columns.map((column) => column.key)).toEqual(['name']);
    expect(rows.body.data.rows.filter((row) => 'performanceRating' in row)).toEqual([]);
    const sorted = await table(teamOnly, '?sort=performanceRating');
    expect(sorted.status).toBe(400);
    expect(sorted.body.errors?.[0]?.field).toBe('query.sort');
    for (const groupBy of ['groupBy=performanceRating', 'groupBy=department&groupBy=performanceRating']) {
      const grouped = await request<ErrorBody>(`/api/team/analytics/playground?${groupBy}&metric=headcount`, { headers: bearer(teamOnly) });
      expect(grouped.status, groupBy).toBe(400);
      expect(grouped.body.code, groupBy).toBe(sorted.body.code);
      expect(grouped.body.errors?.[0]?.field, groupBy).toBe('query.groupBy');
    }
    const detail = await request<Data<Schemas['TeamEmployeeDetail']>>(`/api/team/employees/${ids.ivy}`, { headers: bearer(teamOnly) });
    expect(detail.body.data.employee).not.toHaveProperty('performanceRating');
    const settings = await request<ErrorBody>('/api/team/settings/me', { method: 'PATCH', headers: { ...bearer(teamOnly), 'If-Match': '"0"' }, json: { columns: ['name', 'performanceRating'] } });
    expect(settings.status).toBe(400);
    const state = await request<Data<Schemas['TeamViewSettingsState']>>('/api/team/settings', { headers: bearer(teamOnly) });
    expect(state.body.data.availableColumns.map((column) => column.key)).not.toContain('performanceRating');

    // Where the pay permission reaches fewer people than the team permission, ratings follow it row by row.
    const wide = await table(widePayNarrow, '?columns=name&columns=performanceRating&sort=performanceRating&limit=500');
    expect(wide.status).toBe(200);
    const rated = wide.body.data.rows.filter((row) => 'performanceRating' in row).map((row) => row.id);
    expect(rated.sort()).toEqual([ids.olga, ids.widePayNarrow].sort());
    // Ratings the caller may not see sort like empty ones, after every rating they may see.
    expect(wide.body.data.rows.slice(0, 2).map((row) => row.id).sort()).toEqual([ids.olga, ids.widePayNarrow].sort());
    const ivy = await request<Data<Schemas['TeamEmployeeDetail']>>(`/api/team/employees/${ids.ivy}`, { headers: bearer(widePayNarrow) });
    expect(ivy.body.data.employee).not.toHaveProperty('performanceRating');
    const olga = await request<Data<Schemas['TeamEmployeeDetail']>>(`/api/team/employees/${ids.olga}`, { headers: bearer(widePayNarrow) });
    expect(olga.body.data.employee.performanceRating).toBe('meets');
    const groups = await request<Data<Schemas['TeamPlayground']>>('/api/team/analytics/playground?groupBy=performanceRating&metric=headcount', { headers: bearer(widePayNarrow) });
    expect(groups.status).toBe(200);
    expect(groups.body.data.rows.map((row) => [row.keys[0]?.id, row.count])).toEqual([['meets', 2]]);

    const everyone = await table(admin, '?columns=name&columns=performanceRating&sort=performanceRating&limit=500');
    expect(everyone.body.data.rows.flatMap((row) => (row.performanceRating ? [row.performanceRating] : []))).toEqual(['developing', 'exceeds', 'exceptional', 'meets', 'meets']);
  });

  it('prices base salary against the same market p50 the benchmarking API returns for the cell', async () => {
    const report = await request<Data<Schemas['TeamCompaRatioReport']>>('/api/team/analytics/compa-ratio', { headers: bearer(admin) });
    expect(report.status).toBe(200);
    const ivy = report.body.data.employees.find((entry) => entry.employeeId === ids.ivy);
    expect(ivy?.cell).toEqual(published);
    const market = await marketCell(admin, published);
    const p50 = market.percentiles?.find((value) => value.percentile === 50)?.value;
    expect(p50).toBeGreaterThan(0);
    expect(ivy?.compaRatio).toBeCloseTo(150_000 / (p50 as number), 12);
    expect(ivy?.marketP50).toEqual({ amount: Math.round((p50 as number) * 100), currency: 'USD' });

    const tia = report.body.data.employees.find((entry) => entry.employeeId === ids.tia);
    expect(tia).toMatchObject({ compaRatio: null, marketP50: null, label: 'Insufficient data', cell: thin });
    expect(report.body.data.insufficientData).toBeGreaterThanOrEqual(1);
    const column = await table(admin, `?columns=name&columns=compaRatio&search=Tia`);
    expect(column.body.data.rows[0]?.compaRatio).toEqual({ ratio: null, marketP50: null, label: 'Insufficient data' });
    const ratios = report.body.data.employees.flatMap((entry) => (entry.compaRatio === null ? [] : [entry.compaRatio]));
    expect(report.body.data.average).toBeCloseTo(ratios.reduce((a, b) => a + b, 0) / ratios.length, 12);
    expect(report.body.data.bands.reduce((n, band) => n + band.count, 0)).toBe(ratios.length);
  });

  it('sums payroll in the company currency with the reference rates it names', async () => {
    const overview = await request<Data<Schemas['TeamOverview']>>('/api/team/employees/overview', { headers: bearer(manager) });
    const payroll = overview.body.data.payroll;
    expect(payroll).toBeDefined();
    const gbp = payroll?.byCurrency.find((line) => line.currency === 'GBP');
    expect(gbp?.annualBase).toEqual({ amount: 9_000_000, currency: 'GBP' });
    const converted = await request<Data<Schemas['Conversion']>>('/api/forex/convert', { method: 'POST', headers: bearer(manager), json: { amount: { amount: 9_000_000, currency: 'GBP' }, to: 'USD' } });
    expect(gbp?.convertedAnnualBase).toEqual(converted.body.data.to);
    expect(payroll?.rates.map((rate) => rate.currency)).toContain('GBP');
    const usd = payroll?.byCurrency.find((line) => line.currency === 'USD');
    // Marco 220,000 + Ivy 150,000 (not the future raise) + Sam 170,000 + Tia 100,000.
    expect(usd?.annualBase.amount).toBe(64_000_000);
    expect(usd?.annualTotalCash.amount).toBe(64_000_000 + 1_500_000);
    expect(payroll?.annualBase).toEqual({ amount: 64_000_000 + (converted.body.data.to.amount as number), currency: 'USD' });
  });

  it('stops vesting when someone leaves and values every grant as the people module does', async () => {
    const chart = (await request<Data<Schemas['TeamEquityDetailsChart']>>(`/api/team/employees/${ids.terry}/equity-details-chart`, { headers: bearer(admin) })).body.data;
    const grants = (await request<Data<Schemas['EquityGrant'][]>>(`/api/employees/${ids.terry}/equity-grants`, { headers: bearer(admin) })).body.data;
    const charted = chart.grants.find((grant) => grant.id === ids.terryOption);
    const listed = grants.find((grant) => grant.id === ids.terryOption);
    // 1,200 at the cliff (2023-01-31), then 100 a month up to the last day, 2024-01-31: 2,400, not all 4,800.
    expect(charted?.today).toMatchObject({ vestedShares: 2400, unvestedShares: 2400, vestedValue: { amount: 2400 * 1215, currency: 'USD' } });
    expect(listed?.vesting).toMatchObject({ vestedShares: 2400, vestingEndedOn: '2024-01-31', value: { vested: { amount: 2400 * 1215, currency: 'USD' } } });
    expect(chart.months.at(-1)?.grants.find((grant) => grant.grantId === ids.terryOption)?.vestedShares).toBe(2400);
    const table = await request<TablePage>(`/api/team/employees/table?status=terminated&search=Terry&columns=vestedShares`, { headers: bearer(admin) });
    expect(table.body.data.rows[0]).toMatchObject({ vestedShares: 2400 + 50 });
    // The euro strike is converted at the reference rate by both, so they value it the same (and not at nothing).
    const euro = chart.grants.find((grant) => grant.id === ids.terryEuro)?.today;
    const euroListed = grants.find((grant) => grant.id === ids.terryEuro)?.vesting;
    expect(euro?.vestedShares).toBe(50);
    expect(euro?.vestedValue.amount).toBeGreaterThan(0);
    expect(euroListed?.value?.vested).toEqual(euro?.vestedValue);
  });

  it('draws the equity details: vesting by month and grant, valued at share price less strike and never below zero', async () => {
    const reply = await request<Data<Schemas['TeamEquityDetailsChart']>>(`/api/team/employees/${ids.ivy}/equity-details-chart`, { headers: bearer(manager) });
    expect(reply.status).toBe(200);
    const chart = reply.body.data;
    expect(chart.sharePrice).toBe(18.4);
    const option = chart.grants.find((grant) => grant.id === ids.option);
    // 24 of 48 months vested, at $18.40 − $6.25 = $12.15 a share.
    expect(option?.today).toEqual({ vestedShares: 2400, unvestedShares: 2400, vestedValue: { amount: 2_916_000, currency: 'USD' }, unvestedValue: { amount: 2_916_000, currency: 'USD' } });
    const underwater = chart.grants.find((grant) => grant.id === ids.underwater);
    expect(underwater?.today.vestedValue.amount).toBe(0);
    expect(underwater?.today.unvestedValue.amount).toBe(0);
    const rsu = chart.grants.find((grant) => grant.id === ids.rsu);
    expect(rsu?.today).toMatchObject({ vestedShares: 0, unvestedShares: 1200, unvestedValue: { amount: 1200 * 1840 } });
    expect(chart.months[0]?.month).toBe(optionStart.slice(0, 7));
    const last = chart.months.at(-1);
    expect(last).toMatchObject({ vestedShares: 4800 + 1000 + 1200, unvestedShares: 0 });
    const cliff = chart.months.find((month) => month.grants.find((g) => g.grantId === ids.option)?.vestedShares === 1200);
    expect(cliff?.month).toBe(monthsAgo(12).slice(0, 7));
    expect(chart.months.every((month) => month.vestedValue.amount >= 0 && month.unvestedValue.amount >= 0)).toBe(true);
    for (const month of chart.months) {
      expect(month.vestedShares).toBe(month.grants.reduce((n, g) => n + g.vestedShares, 0));
    }
  });

  it('lists the dated pay history with changes, and what is in force today', async () => {
    const reply = await request<Data<Schemas['TeamCompTimeline']>>(`/api/team/employees/${ids.ivy}/comp-timeline`, { headers: bearer(manager) });
    const timeline = reply.body.data;
    const bases = timeline.entries.filter((entry) => entry.type === 'base_salary');
    expect(bases.map((entry) => [entry.date, entry.amount?.amount, entry.changePercent])).toEqual([
      ['2022-05-01', 14_000_000, null],
      ['2024-05-01', 15_000_000, 7.14],
      ['2999-01-01', 99_000_000, 560],
    ]);
    expect(timeline.current.find((entry) => entry.type === 'base_salary')).toEqual({ type: 'base_salary', amount: { amount: 15_000_000, currency: 'USD' }, effectiveDate: '2024-05-01' });
    expect(timeline.entries.filter((entry) => entry.kind === 'equity_grant')).toHaveLength(3);
    expect(timeline.entries.find((entry) => entry.type === 'bonus_target')?.percentOfBase).toBe(10);
  });

  it('sorts by any column, filters, searches, pages and returns the chosen columns', async () => {
    const byPay = await table(admin, '?columns=name&columns=baseSalary&sort=baseSalary&order=desc&limit=3');
    expect(byPay.body.data.rows.map((row) => row.name)).toEqual(['Rita Root', 'Marco Manager', 'Pool7 Person']);
    expect(byPay.body.page.nextCursor).toBe('3');
    const next = await table(admin, `?columns=name&columns=baseSalary&sort=baseSalary&order=desc&limit=3&cursor=${byPay.body.page.nextCursor}`);
    expect(next.body.data.rows[0]?.name).toBe('Pool6 Person');
    expect(next.body.data.total).toBe(byPay.body.data.total);

    const london = await table(admin, '?location=gb_london&columns=name&columns=location&columns=baseSalary');
    expect(london.body.data.rows).toEqual([{ id: ids.gus, name: 'Gus Greaves', location: { id: 'gb_london', name: 'London' }, baseSalary: { amount: 9_000_000, currency: 'GBP' } }]);
    const search = await table(admin, '?search=icar');
    expect(search.body.data.rows.map((row) => row.id)).toEqual([ids.ivy]);
    const reports = await table(admin, `?manager=${ids.manager}&sort=name`);
    expect(reports.body.data.rows.map((row) => row.name)).toEqual(['Gus Greaves', 'Ivy Icarus', 'Sam Sub']);
    const levels = await table(admin, '?level=m3&level=m4&columns=name&columns=level&sort=level&order=desc');
    expect(levels.body.data.rows.map((row) => row.level?.id)).toEqual(['m4', 'm4', 'm3']);
    const raise = await table(admin, `?search=Icarus&columns=lastRaiseDate&columns=totalCash&columns=grantedShares&columns=vestedShares&columns=equityValue`);
    expect(raise.body.data.rows[0]).toEqual({
      id: ids.ivy,
      lastRaiseDate: '2024-05-01',
      totalCash: { amount: 16_500_000, currency: 'USD' },
      grantedShares: 7000,
      // 24 of 48 months of both options; the RSU is before its cliff.
      vestedShares: 2400 + 500,
      equityValue: { amount: 4800 * 1215 + 1200 * 1840, currency: 'USD' },
    });
    const badCursor = await table(admin, '?cursor=abc');
    expect(badCursor.status).toBe(400);
  });

  it('orders every column by the value it shows, the same across pages, empty values last either way', async () => {
    type Row = Schemas['TeamEmployeeRow'];
    type Key = string | number | null;
    const text = (value: string | null | undefined): Key => (value === null || value === undefined ? null : value.toLowerCase());
    const keys: [Schemas['TeamColumn'], (row: Row) => Key][] = [
      ['name', (row) => text(row.name)],
      ['employeeNumber', (row) => text(row.employeeNumber)],
      ['email', (row) => text(row.email)],
      ['title', (row) => text(row.title)],
      ['department', (row) => text(row.department)],
      ['jobFamily', (row) => text(row.jobFamily?.name)],
      ['level', (row) => text(row.level?.name)],
      ['track', (row) => text(row.track)],
      ['location', (row) => text(row.location?.name)],
      ['country', (row) => text(row.country)],
      ['manager', (row) => text(row.manager?.name)],
      ['startDate', (row) => row.startDate ?? null],
      ['employmentType', (row) => row.employmentType ?? null],
      ['status', (row) => row.status ?? null],
      ['performanceRating', (row) => text(row.performanceRating)],
      // Every amount here is in dollars but Gus's, whose pounds are left out of the comparison below.
      ['baseSalary', (row) => row.baseSalary?.amount ?? null],
      ['totalCash', (row) => row.totalCash?.amount ?? null],
      ['bonusTarget', (row) => row.bonusTarget?.amount ?? null],
      ['compaRatio', (row) => row.compaRatio?.ratio ?? null],
      ['grantedShares', (row) => row.grantedShares ?? null],
      ['vestedShares', (row) => row.vestedShares ?? null],
      ['equityValue', (row) => row.equityValue?.amount ?? null],
      ['lastRaiseDate', (row) => row.lastRaiseDate ?? null],
    ];
    const columns = keys.map(([column]) => `columns=${column}`).join('&');
    for (const [column, keyOf] of keys) {
      for (const order of ['asc', 'desc'] as const) {
        const whole = await table(admin, `?status=all&sort=${column}&order=${order}&${columns}&limit=500`);
        expect(whole.status, column).toBe(200);
        const rows = whole.body.data.rows.filter((row) => column === 'name' || !['baseSalary', 'totalCash', 'bonusTarget'].includes(column) || row.id !== ids.gus);
        const sign = order === 'asc' ? 1 : -1;
        for (const [index, row] of rows.entries()) {
          const before = rows[index - 1];
          if (!before) continue;
          const [a, b] = [keyOf(before), keyOf(row)];
          const label = `${column} ${order}: ${before.name} before ${row.name}`;
          if (a === null) expect(b, label).toBeNull();
          else if (b !== null) {
            const compared = typeof a === 'number' && typeof b === 'number' ? sign * (a - b) : sign * String(a).localeCompare(String(b));
            expect(compared, label).toBeLessThanOrEqual(0);
            if (compared === 0) expect((before.name ?? '').localeCompare(row.name ?? ''), label).toBeLessThanOrEqual(0);
          }
        }
        // Small pages, followed by their cursors, give the same rows in the same order.
        const paged: string[] = [];
        let cursor: string | null = '0';
        while (cursor !== null) {
          const page: Awaited<ReturnType<typeof table>> = await table(admin, `?status=all&sort=${column}&order=${order}&columns=name&limit=7&cursor=${cursor}`);
          expect(page.body.data.total, column).toBe(whole.body.data.total);
          paged.push(...page.body.data.rows.map((row) => row.id));
          cursor = page.body.page.nextCursor;
        }
        expect(paged, `${column} ${order}`).toEqual(whole.body.data.rows.map((row) => row.id));
      }
    }
    // A manager's subtree, money in the company currency (Gus's £90,000 is more than Tia's $100,000).
    const reports = await table(manager, '?sort=baseSalary&order=desc&columns=name&columns=baseSalary&limit=500');
    expect(reports.body.data.rows.map((row) => row.name)).toEqual(['Marco Manager', 'Sam Sub', 'Ivy Icarus', 'Gus Greaves', 'Tia Thin']);
    // Pay outside the pay reach sorts as empty: Olga's is the only salary Wendy sees, the rest follow by name.
    const narrow = await table(widePayNarrow, '?sort=baseSalary&order=desc&columns=name&columns=baseSalary&limit=500');
    const names = narrow.body.data.rows.map((row) => row.name ?? '');
    expect(names[0]).toBe('Olga Outside');
    expect(names.slice(1)).toEqual([...names.slice(1)].sort((a, b) => a.localeCompare(b)));
    expect(narrow.body.data.rows.filter((row) => 'baseSalary' in row).map((row) => [row.name, row.baseSalary?.amount ?? null])).toEqual([
      ['Olga Outside', 16_000_000],
      ['Wendy Wide', null],
    ]);
  });

  it('keeps a company default and personal columns, and refuses a change made on a stale version', async () => {
    const first = await request<Data<Schemas['TeamViewSettingsState']>>('/api/team/settings', { headers: bearer(admin) });
    expect(first.body.data.canEditCompanyDefault).toBe(true);
    const version = first.body.data.company.version;
    const changed = await request<Data<Schemas['TeamViewSettingsState']>>('/api/team/settings/company', {
      method: 'PATCH',
      headers: { ...bearer(admin), 'If-Match': `"${version}"` },
      json: { columns: ['name', 'level', 'baseSalary'], equityDetails: { measure: 'shares', breakdown: 'grant', series: 'vested' } },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe(`"${version + 1}"`);
    expect(changed.body.data.company.settings.columns).toEqual(['name', 'level', 'baseSalary']);
    const stale = await request<ErrorBody>('/api/team/settings/company', { method: 'PATCH', headers: { ...bearer(admin), 'If-Match': `"${version}"` }, json: { columns: ['name'] } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Someone else changed these settings first. Reload and try again.');
    const unversioned = await request<ErrorBody>('/api/team/settings/company', { method: 'PATCH', headers: bearer(admin), json: { columns: ['name'] } });
    expect(unversioned.status).toBe(428);
    const notAllowed = await request<ErrorBody>('/api/team/settings/company', { method: 'PATCH', headers: { ...bearer(manager), 'If-Match': '"1"' }, json: { columns: ['name'] } });
    expect(notAllowed.status).toBe(403);

    // The table follows the settings when no columns are asked for.
    const byDefault = await table(analyst, '?search=Icarus');
    expect(byDefault.body.data.columns.map((column) => column.key)).toEqual(['name', 'level', 'baseSalary']);
    const teamOnlyDefault = await table(teamOnly, '?search=Icarus');
    expect(teamOnlyDefault.body.data.columns.map((column) => column.key)).toEqual(['name', 'level']);

    const mine = await request<Data<Schemas['TeamViewSettingsState']>>('/api/team/settings/me', {
      method: 'PATCH',
      headers: { ...bearer(analyst), 'If-Match': '"0"' },
      json: { columns: ['name', 'department'] },
    });
    expect(mine.status).toBe(200);
    expect(mine.body.data.effective.columns).toEqual(['name', 'department']);
    expect(mine.body.data.effective.equityDetails).toEqual({ measure: 'shares', breakdown: 'grant', series: 'vested' });
    const staleMine = await request('/api/team/settings/me', { method: 'PATCH', headers: { ...bearer(analyst), 'If-Match': '"0"' }, json: { columns: ['name'] } });
    expect(staleMine.status).toBe(409);
    const reset = await request<Data<Schemas['TeamViewSettingsState']>>('/api/team/settings/me', { method: 'PATCH', headers: { ...bearer(analyst), 'If-Match': '"1"' }, json: { columns: null } });
    expect(reset.body.data.effective.columns).toEqual(['name', 'level', 'baseSalary']);
    expect(reset.body.data.personal.version).toBe(2);
    // Someone else's personal settings are theirs alone.
    const admins = await request<Data<Schemas['TeamViewSettingsState']>>('/api/team/settings', { headers: bearer(admin) });
    expect(admins.body.data.personal.version).toBe(0);
  });

  it('gives quartiles per level in the company currency', async () => {
    const reply = await request<Data<Schemas['TeamPayDistribution']>>('/api/team/analytics/pay-distribution', { headers: bearer(admin) });
    expect(reply.status).toBe(200);
    const p5 = reply.body.data.levels.find((entry) => entry.level?.id === 'p5');
    const amounts = Array.from({ length: 8 }, (_, index) => 18_000_000 + index * 100_000);
    expect(p5).toMatchObject({
      count: 8,
      min: { amount: amounts[0], currency: 'USD' },
      p25: { amount: Math.round(percentileInc(amounts, 8, 25)) },
      median: { amount: Math.round(percentileInc(amounts, 8, 50)) },
      p75: { amount: Math.round(percentileInc(amounts, 8, 75)) },
      max: { amount: amounts[7] },
    });
    const order = reply.body.data.levels.map((entry) => entry.level?.id);
    expect(order.indexOf('p3')).toBeLessThan(order.indexOf('p5'));
    expect(order.indexOf('p5')).toBeLessThan(order.indexOf('m3'));
  });

  it('shows median pay by demographic group within level and hides groups below the minimum size', async () => {
    const reply = await request<Data<Schemas['TeamPayEquity']>>('/api/team/analytics/pay-equity?attribute=gender', { headers: bearer(admin) });
    expect(reply.status).toBe(200);
    const p5 = reply.body.data.levels.find((entry) => entry.level?.id === 'p5');
    const women = Array.from({ length: 6 }, (_, index) => 18_000_000 + index * 100_000);
    expect(p5?.groups).toEqual([{ value: 'female', label: 'Female', count: 6, median: { amount: percentileInc(women, 6, 50), currency: 'USD' }, ratioToLevelMedian: expect.any(Number) }]);
    expect(p5?.hiddenGroups).toBe(1);
    expect(reply.body.data.minimumGroupSize).toBe(5);
    expect((await request('/api/team/analytics/pay-equity', { headers: bearer(manager) })).status).toBe(403);
    expect((await request('/api/team/analytics/playground?groupBy=gender', { headers: bearer(manager) })).status).toBe(403);
  });

  it('answers the playground for any grouping and metric the caller may see', async () => {
    const headcount = await request<Data<Schemas['TeamPlayground']>>('/api/team/analytics/playground?groupBy=department&metric=headcount', { headers: bearer(manager) });
    expect(headcount.body.data.rows.map((row) => [row.keys[0]?.label, row.value])).toEqual([
      ['Engineering', 4],
      ['Platform', 1],
    ]);
    const median = await request<Data<Schemas['TeamPlayground']>>('/api/team/analytics/playground?groupBy=level&groupBy=gender&metric=medianBase', { headers: bearer(admin) });
    expect(median.body.data).toMatchObject({ unit: 'money', currency: 'USD', minimumGroupSize: 5 });
    const women = median.body.data.rows.find((row) => row.keys[0]?.id === 'p5' && row.keys[1]?.id === 'female');
    expect(women?.money?.amount).toBe(percentileInc(Array.from({ length: 6 }, (_, index) => 18_000_000 + index * 100_000), 6, 50));
    expect(women?.value).toBe((women?.money?.amount ?? 0) / 100);
    expect(median.body.data.rows.every((row) => row.count >= 5)).toBe(true);
    expect(median.body.data.hiddenGroups).toBeGreaterThan(0);
  });

  it("answers 404 for another company's employees, even with the team view on", async () => {
    const db = await testDb();
    const other = await createTestCompany(db, 'Team View Neighbour');
    await switchOnTeamView(db, other.id);
    const theirs = other.users.admin as TestUser;
    for (const path of ['', '/comp-timeline', '/equity-details-chart']) {
      expect((await request(`/api/team/employees/${ids.ivy}${path}`, { headers: bearer(theirs) })).status, path).toBe(404);
    }
    const rows = await request<TablePage>('/api/team/employees/table', { headers: bearer(theirs) });
    expect(rows.body.data.rows).toEqual([]);
    const overview = await request<Data<Schemas['TeamOverview']>>('/api/team/employees/overview', { headers: bearer(theirs) });
    expect(overview.body.data.headcount).toBe(0);
    // Bad data naming another company's employee as manager shows no manager, not their name.
    const stray = await insertEmployee(db, other.id, { firstName: 'Stray', lastName: 'Report', managerId: ids.ivy });
    const strayRows = await request<TablePage>('/api/team/employees/table?columns=name&columns=manager', { headers: bearer(theirs) });
    expect(strayRows.body.data.rows).toEqual([{ id: stray, name: 'Stray Report', manager: null }]);
  });
});
