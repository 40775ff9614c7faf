import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { insertEmployee } from './test/fixtures.js';

type TablePage = { data: components['schemas']['TeamTable'] };

/**
 * The positive control of keptPages.test.ts on Postgres: pages really are kept. A write made with
 * the database's triggers switched off (`session_replication_role = replica`, as only a superuser
 * can) sends no notification, so the kept page goes on being served; the next ordinary write
 * notifies, and the page is read afresh.
 */
describe('team table pages on Postgres', () => {
  let company: TestCompany;
  let admin: TestUser;
  let ada: string;

  const adaTitle = async () => {
    const reply = await request<TablePage>('/api/team/employees/table?columns=name&columns=title', { headers: bearer(admin) });
    expect(reply.status).toBe(200);
    return reply.body.data.rows.find((row) => row.id === ada)?.title;
  };

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'Kept Pages PG Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/team_view`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    ada = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Kept', title: 'Engineer' });
  });

  it('keeps a page until a write notifies the data channel', async () => {
    const db = await testDb();
    const unnoticed = (title: string) =>
      db.transaction(async (trx) => {
        await trx.raw('set local session_replication_role = replica');
        await trx('employees').where({ id: ada, company_id: company.id }).update({ title });
      });
    // Other tests write to the same server meanwhile, and any write anywhere refreshes every kept
    // page: a few tries find a moment when nothing else was written between the two reads.
    let kept = false;
    for (let attempt = 0; attempt < 20 && !kept; attempt += 1) {
      await db('employees').where({ id: ada, company_id: company.id }).update({ title: `Engineer ${attempt}` });
      expect(await adaTitle()).toBe(`Engineer ${attempt}`);
      await unnoticed(`Unnoticed ${attempt}`);
      kept = (await adaTitle()) === `Engineer ${attempt}`;
    }
    expect(kept).toBe(true);
    // An ordinary write notifies: the page is read afresh and shows what the database holds.
    await db('employees').where({ id: ada, company_id: company.id }).update({ department: 'Research' });
    expect(await adaTitle()).toMatch(/^Unnoticed \d+$/);
  });
});
