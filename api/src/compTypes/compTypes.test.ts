import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };

describe('comp type settings', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let employee: TestUser;

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, { method: init.method ?? 'GET', headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });
  const put = (types: Schemas['CompTypeInput'][], ifMatch: number, user = admin) => call<Data<Schemas['CompTypeSettings']>>(user, '/api/company/comp-types', { method: 'PUT', ifMatch, json: { types } });

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Comp Types Co');
    admin = company.users.admin as TestUser;
    employee = company.users.employee as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    for (const flag of ['team_view', 'total_rewards']) {
      expect((await request(`/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    }
    const id = await insertEmployee(db, company.id, { firstName: 'Sam', lastName: 'Seller', userId: employee.id });
    await insertPay(db, company.id, id, [
      { type: 'base_salary', amount: 10_000_000, effectiveDate: '2024-01-01' },
      { type: 'bonus_target', amount: 1_000_000, effectiveDate: '2024-01-01' },
      { type: 'commission', amount: 2_000_000, effectiveDate: '2024-01-01' },
    ]);
  });

  it('lists every type under its default title before the company changes anything', async () => {
    const reply = await call<Data<Schemas['CompTypeSettings']>>(employee, '/api/company/comp-types');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('etag')).toBe('"0"');
    expect(reply.body.data.version).toBe(0);
    expect(reply.body.data.types.map((type) => [type.id, type.title, type.category, type.isDisabled])).toEqual([
      ['base_salary', 'Base salary', 'cash', false],
      ['bonus_target', 'Bonus target', 'cash', false],
      ['variable_pay', 'Variable pay', 'cash', false],
      ['commission', 'Commission', 'cash', false],
      ['benefits', 'Benefits', 'cash', false],
      ['one_off_bonus', 'One-off bonus', 'cash', false],
      ['option', 'Stock options', 'equity', false],
      ['rsu', 'RSUs', 'equity', false],
      ['rsa', 'Restricted stock', 'equity', false],
      ['common_stock', 'Common stock', 'equity', false],
    ]);
  });

  it('renames and switches off types under If-Match, refusing a stale version, base salary off and a title taken twice', async () => {
    expect((await put([{ id: 'commission', isDisabled: true }], 0, employee)).status).toBe(403);
    expect((await put([{ id: 'base_salary', isDisabled: true }], 0)).body.errors).toEqual([{ field: 'body.types.0.isDisabled', message: 'base salary is always on' }]);
    expect((await put([{ id: 'variable_pay', title: ' commission ' }], 0)).body.errors).toEqual([{ field: 'body.types.0.title', message: '"commission" is already the title of another type' }]);
    expect((await put([{ id: 'bonus_target', title: '   ' }], 0)).status).toBe(400);

    const saved = await put(
      [
        { id: 'bonus_target', title: '  Annual   bonus ' },
        { id: 'commission', isDisabled: true },
      ],
      0,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.headers.get('etag')).toBe('"1"');
    const byId = new Map(saved.body.data.types.map((type) => [type.id, type]));
    expect(byId.get('bonus_target')).toMatchObject({ title: 'Annual bonus', defaultTitle: 'Bonus target', isDisabled: false });
    expect(byId.get('commission')).toMatchObject({ title: 'Commission', isDisabled: true });

    const stale = await put([{ id: 'rsa', isDisabled: true }], 0);
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect(stale.headers.get('etag')).toBe('"1"');
    expect((await call<Data<Schemas['CompTypeSettings']>>(admin, '/api/company/comp-types')).body.data.types.find((type) => type.id === 'rsa')?.isDisabled).toBe(false);
  });

  it('keeps each company to its own settings', async () => {
    const other = await createTestCompany(db, 'Other Comp Types Co');
    const theirs = await call<Data<Schemas['CompTypeSettings']>>(other.users.admin as TestUser, '/api/company/comp-types');
    expect(theirs.body.data.version).toBe(0);
    expect(theirs.body.data.types.find((type) => type.id === 'bonus_target')?.title).toBe('Bonus target');
  });

  it('names the team table columns by the settings and drops a switched-off type', async () => {
    const table = await call<Data<Schemas['TeamTable']>>(admin, '/api/team/employees/table?columns=name&columns=baseSalary&columns=bonusTarget&columns=commission');
    expect(table.status, JSON.stringify(table.body)).toBe(200);
    expect(table.body.data.columns.map((column) => column.label)).toEqual(['Name', 'Base salary', 'Annual bonus']);
    const settings = await call<Data<Schemas['TeamViewSettingsState']>>(admin, '/api/team/settings');
    expect(settings.body.data.availableColumns.map((column) => column.label)).toContain('Annual bonus');
    expect(settings.body.data.availableColumns.map((column) => column.key)).not.toContain('commission');
  });

  it('shows the renamed bonus on the total rewards statement and leaves the switched-off commission out', async () => {
    const reply = await call<Data<Schemas['TotalRewardsStatement']>>(employee, '/api/total-rewards/statement?asOf=2025-01-01');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const statement = reply.body.data;
    expect(statement.bonus?.items.map((item) => item.label)).toEqual(['Annual bonus']);
    expect(statement.variablePay?.items ?? []).toEqual([]);
    expect(statement.compensation?.items.map((item) => item.label)).toEqual(['Base salary', 'Annual bonus']);
    // Total cash: $100,000 + $10,000, without the $20,000 commission.
    expect(statement.compensation?.totalCash?.local).toEqual({ amount: 11_000_000, currency: 'USD' });
  });
});
