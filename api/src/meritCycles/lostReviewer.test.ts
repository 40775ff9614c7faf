import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { switchOnPlanning } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Cycle = Schemas['MeritCycle'];
type Worksheet = Schemas['Worksheet'];
type History = Schemas['WorkflowHistoryEntry'][];

/*
 * A reviewer who loses access after a worksheet was submitted to them (their planning role taken
 * away, then removed from the company) is skipped to the next reviewer, then to the cycle's owner,
 * each recorded in the worksheet's history by whoever took the access away.
 *
 *   Alex (admin, owns the cycle) ── Ada, Bo        chain: Ravi, then Nina (compensation planners)
 */
describe('a reviewer who loses access after submission', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let ravi: TestUser;
  let nina: TestUser;
  let cycle: Cycle;
  let sheet: Worksheet;
  const names: Record<string, string> = {};

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, { method: init.method ?? 'GET', headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });
  const cyclePath = (suffix = '') => `/api/v2/meritCycles/${cycle.id}${suffix}`;
  const fresh = async () => ((await call<Data<Worksheet[]>>(admin, cyclePath('/worksheets'))).body.data.find((worksheet) => worksheet.id === sheet.id) as Worksheet);
  const history = async () => (await call<Data<History>>(admin, cyclePath(`/worksheets/${sheet.id}/history`))).body.data;
  const reviewerIds = (worksheet: Worksheet) => worksheet.reviewers.map((reviewer) => reviewer.userId);
  /** The change reaches worksheets through the event outbox, after the commit: waits for it. */
  const reviewersBecome = async (expected: string[]) => {
    await expect.poll(async () => reviewerIds(await fresh()), { timeout: 20_000, interval: 250 }).toEqual(expected);
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Lost Reviewer Co');
    admin = company.users.admin as TestUser;
    ravi = company.users.compensation_planner as TestUser;
    nina = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('compensation_planner') ?? ''] });
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    for (const user of [admin, ravi, nina]) {
      const row = (await db('users').where({ id: user.id }).first('first_name', 'last_name')) as { first_name: string; last_name: string };
      names[user.id] = `${row.first_name} ${row.last_name}`;
    }
    const employee = async (first: string, managerId: string | null, userId: string | null) => {
      const id = await insertEmployee(db, company.id, { firstName: first, lastName: 'Lost', managerId: managerId ?? undefined, userId: userId ?? undefined, performanceRating: 'meets' });
      await insertPay(db, company.id, id, [{ type: 'base_salary', amount: 9_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
      return id;
    };
    const alex = await employee('Alex', null, admin.id);
    await employee('Ada', alex, null);
    await employee('Bo', alex, null);

    const created = await call<Data<Cycle>>(admin, '/api/v2/meritCycles', { method: 'POST', json: { name: 'Lost reviewer', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' } });
    expect(created.status).toBe(201);
    cycle = created.body.data;
    const launched = await call<Data<Cycle>>(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    cycle = launched.body.data;
    const chains = await call(admin, cyclePath('/approvalChains'), { method: 'PUT', ifMatch: cycle.version, json: { chains: [{ branchEmployeeId: null, reviewerUserIds: [ravi.id, nina.id] }] } });
    expect(chains.status, JSON.stringify(chains.body)).toBe(200);
    sheet = (await call<Data<Worksheet[]>>(admin, cyclePath('/worksheets'))).body.data.find((worksheet) => worksheet.planner?.userId === admin.id) as Worksheet;
  });

  it('skips to the next reviewer when the role goes, to the owner when the last one is removed, and says so in the history', async () => {
    const submitted = await call<Data<Worksheet>>(admin, cyclePath(`/worksheets/${sheet.id}/submit`), { method: 'POST', ifMatch: sheet.version, json: {} });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(reviewerIds(submitted.body.data)).toEqual([ravi.id, nina.id]);
    expect(submitted.body.data.reviewStep).toBe(1);

    // Ravi becomes a plain employee: the worksheet waiting on him goes on to Nina.
    const employeeRole = company.roleIds.get('employee') ?? '';
    const demoted = await call(admin, `/api/users/${ravi.id}/roles`, { method: 'PUT', json: { roleIds: [employeeRole] } });
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    await reviewersBecome([nina.id]);
    const moved = await fresh();
    expect(moved.state).toBe('in_review');
    expect(moved.reviewStep).toBe(1);
    expect((await history()).at(-1)).toMatchObject({
      action: 'skipReviewers',
      from: 'in_review',
      to: 'in_review',
      actor: { userId: admin.id },
      comment: `Skipped: ${names[ravi.id]} can no longer review worksheets. ${names[nina.id]} reviews it now.`,
    });
    expect((await call(ravi, cyclePath(`/worksheets/${sheet.id}/approve`), { method: 'POST', ifMatch: moved.version, json: {} })).status).toBe(403);

    // Nina is removed from the company: nobody of the chain is left, so Alex, who owns the cycle, reviews it.
    const removed = await call(admin, `/api/users/${nina.id}`, { method: 'DELETE' });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await reviewersBecome([admin.id]);
    expect((await history()).at(-1)?.comment).toBe(
      `Skipped: ${names[nina.id]} can no longer review worksheets. Nobody else in the chain may review it, so ${names[admin.id]}, who owns the cycle, reviews it.`,
    );
    const waiting = await fresh();
    expect(waiting.availableActions.map((entry) => entry.action).sort()).toEqual(['approve', 'sendBack']);
    const approved = await call<Data<Worksheet>>(admin, cyclePath(`/worksheets/${sheet.id}/approve`), { method: 'POST', ifMatch: waiting.version, json: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.state).toBe('approved');
  }, 90_000);
});
