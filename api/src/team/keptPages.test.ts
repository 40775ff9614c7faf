import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from './test/fixtures.js';

type Schemas = components['schemas'];
type TablePage = { data: Schemas['TeamTable']; page: Schemas['Page'] };

/**
 * Team table pages are kept per node until the next commit that writes data. Whatever changes what
 * a page shows — through the API, or straight in the database by another connection (another node,
 * a script) — shows on the very next read.
 */
describe('team table pages kept between writes', () => {
  let company: TestCompany;
  let admin: TestUser;
  let ada: string;

  const page = async (user: TestUser) => {
    const reply = await request<TablePage>('/api/team/employees/table?columns=name&columns=title&columns=baseSalary&sort=name', { headers: bearer(user) });
    expect(reply.status).toBe(200);
    return reply.body.data;
  };
  const adaRow = async (user: TestUser) => (await page(user)).rows.find((row) => row.id === ada);

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'Kept Pages Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    const flag = await request(`/api/internal/companies/${company.id}/release-flags/team_view`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    expect(flag.status).toBe(200);
    ada = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Kept', title: 'Engineer' });
    await insertPay(db, company.id, ada, [{ type: 'base_salary', amount: 9_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
  });

  it('shows a pay change made through the API on the next read', async () => {
    expect((await adaRow(admin))?.baseSalary).toEqual({ amount: 9_000_000, currency: 'USD' });
    expect((await adaRow(admin))?.baseSalary).toEqual({ amount: 9_000_000, currency: 'USD' });
    const raise = await request(`/api/employees/${ada}/compensation`, { method: 'POST', headers: bearer(admin), json: { type: 'base_salary', amount: { amount: 9_500_000, currency: 'USD' }, effectiveDate: '2025-01-01' } });
    expect(raise.status).toBe(201);
    expect((await adaRow(admin))?.baseSalary).toEqual({ amount: 9_500_000, currency: 'USD' });
  });

  it('shows a change written straight into the database by another connection on the next read', async () => {
    expect((await adaRow(admin))?.title).toBe('Engineer');
    const db = await testDb();
    await db('employees').where({ id: ada, company_id: company.id }).update({ title: 'Staff Engineer' });
    expect((await adaRow(admin))?.title).toBe('Staff Engineer');
  });

  it('answers each reach its own page: a role without pay gets no pay column, and gets it back when the role changes', async () => {
    const db = await testDb();
    const created = await request<{ data: Schemas['Role'] }>('/api/roles', { method: 'POST', headers: bearer(admin), json: { name: 'Kept pages reader', permissions: { team: [{ authority: 'view', scope: 'all' }] } } });
    expect(created.status).toBe(200);
    const reader = await createTestUser(db, { companyId: company.id, roleIds: [created.body.data.id] });
    const withoutPay = await page(reader);
    expect(withoutPay.columns.map((column) => column.key)).not.toContain('baseSalary');
    expect(withoutPay.rows.find((row) => row.id === ada)?.baseSalary).toBeUndefined();
    // The same question from the admin is answered with pay (positive control of the columns asked).
    expect((await adaRow(admin))?.baseSalary).toEqual({ amount: 9_500_000, currency: 'USD' });
    const adminRole = (await db('roles').where({ company_id: company.id, key: 'admin' }).first('id')) as { id: string };
    const changed = await request(`/api/users/${reader.id}/roles`, { method: 'PUT', headers: bearer(admin), json: { roleIds: [adminRole.id] } });
    expect(changed.status).toBe(200);
    expect((await page(reader)).rows.find((row) => row.id === ada)?.baseSalary).toEqual({ amount: 9_500_000, currency: 'USD' });
  });

  it('names the pay columns by the company\'s comp types as they are now: a rename shows on the next read', async () => {
    const column = async () => (await page(admin)).columns.find((entry) => entry.key === 'baseSalary');
    const before = await column();
    expect(before?.label).not.toBe('Kept base pay');
    const current = await request<{ data: Schemas['CompTypeSettings'] }>('/api/company/comp-types', { headers: bearer(admin) });
    expect(current.status).toBe(200);
    const renamed = await request('/api/company/comp-types', {
      method: 'PUT',
      headers: { ...bearer(admin), 'If-Match': `"${current.body.data.version}"` },
      json: { types: [{ id: 'base_salary', title: 'Kept base pay' }] },
    });
    expect(renamed.status).toBe(200);
    expect((await column())?.label).toBe('Kept base pay');
  });

  it("answers a table asked for without columns in each caller's own columns, though their reach is the same", async () => {
    const db = await testDb();
    const other = await createTestUser(db, { companyId: company.id, roleIds: [(await db('roles').where({ company_id: company.id, key: 'admin' }).first('id')).id as string] });
    const columnsOf = async (user: TestUser) => {
      const reply = await request<TablePage>('/api/team/employees/table', { headers: bearer(user) });
      expect(reply.status).toBe(200);
      return reply.body.data.columns.map((entry) => entry.key);
    };
    const mine = await request('/api/team/settings/me', { method: 'PATCH', headers: { ...bearer(admin), 'If-Match': '"0"' }, json: { columns: ['name', 'title'] } });
    expect(mine.status).toBe(200);
    expect(await columnsOf(admin)).toEqual(['name', 'title']);
    // The other admin has no columns of their own: the company's default, which has more.
    const theirs = await columnsOf(other);
    expect(theirs).not.toEqual(['name', 'title']);
    expect(theirs).toContain('baseSalary');
    expect(await columnsOf(admin)).toEqual(['name', 'title']);
  });
});
