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
type Moves = Schemas['WorksheetMovesReply']['data'];
type History = Schemas['WorkflowHistoryEntry'][];

/*
 * The cycle that locked itself (issue: the admin's worksheet holds the only reviewer's own pay), and
 * moving many worksheets at once. The company's only whole-company planners are the admin, who owns
 * the cycle and plans Alex's worksheet, and Ravi, the compensation planner, whose pay is on it.
 *
 *   Alex (admin) ── Ravi (compensation planner) ── Bo
 *                └─ Ada
 * Worksheets: the top one (Alex's own row), Alex's (Ravi, Ada), Ravi's (Bo).
 */
describe('merit-cycle review that never waits for nobody', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let ravi: TestUser;
  let nina: TestUser; // a people manager named in the chain, outside the org
  let cycle: Cycle;
  const sheets: Record<'top' | 'alex' | 'ravi', Worksheet> = {} as Record<'top' | 'alex' | 'ravi', Worksheet>;
  const names: Record<string, string> = {};

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, { method: init.method ?? 'GET', headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });
  const cyclePath = (suffix = '') => `/api/v2/meritCycles/${cycle.id}${suffix}`;
  const listAs = async (user: TestUser) => (await call<Data<Worksheet[]>>(user, cyclePath('/worksheets'))).body.data;
  const fresh = async (key: keyof typeof sheets) => {
    const found = (await listAs(admin)).find((worksheet) => worksheet.id === sheets[key].id) as Worksheet;
    sheets[key] = found;
    return found;
  };
  const move = (user: TestUser, worksheet: Worksheet, action: 'submit' | 'approve' | 'sendBack' | 'reopen', comment?: string) =>
    call<Data<Worksheet>>(user, cyclePath(`/worksheets/${worksheet.id}/${action}`), { method: 'POST', ifMatch: worksheet.version, json: comment === undefined ? {} : { comment } });
  const bulk = (user: TestUser, json: Schemas['WorksheetMovesInput']) => call<Data<Moves>>(user, cyclePath('/worksheetMoves'), { method: 'POST', json });
  const history = async (key: keyof typeof sheets) => (await call<Data<History>>(admin, cyclePath(`/worksheets/${sheets[key].id}/history`))).body.data;
  const setChain = async (reviewers: TestUser[]) => {
    cycle = (await call<Data<Cycle>>(admin, cyclePath())).body.data;
    const saved = await call(admin, cyclePath('/approvalChains'), { method: 'PUT', ifMatch: cycle.version, json: { chains: [{ branchEmployeeId: null, reviewerUserIds: reviewers.map((user) => user.id) }] } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  };
  const reviewerIds = (worksheet: Worksheet) => worksheet.reviewers.map((reviewer) => reviewer.userId);
  const offered = (worksheet: Worksheet | undefined) => (worksheet?.availableActions ?? []).map((entry) => entry.action).sort();

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Never Stuck Co');
    admin = company.users.admin as TestUser;
    ravi = company.users.compensation_planner as TestUser;
    nina = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('people_manager') ?? ''] });
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    for (const user of [admin, ravi, nina]) {
      const row = (await db('users').where({ id: user.id }).first('first_name', 'last_name')) as { first_name: string; last_name: string };
      names[user.id] = `${row.first_name} ${row.last_name}`;
    }
    const employee = async (first: string, managerId: string | null, userId: string | null) => {
      const id = await insertEmployee(db, company.id, { firstName: first, lastName: 'Stuck', managerId: managerId ?? undefined, userId: userId ?? undefined, performanceRating: 'meets' });
      await insertPay(db, company.id, id, [{ type: 'base_salary', amount: 10_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
      return id;
    };
    const alex = await employee('Alex', null, admin.id);
    const raviId = await employee('Ravi', alex, ravi.id);
    await employee('Ada', alex, null);
    await employee('Bo', raviId, null);

    const created = await call<Data<Cycle>>(admin, '/api/v2/meritCycles', { method: 'POST', json: { name: 'Never stuck', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' } });
    expect(created.status).toBe(201);
    cycle = created.body.data;
    const launched = await call<Data<Cycle>>(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const list = await listAs(admin);
    sheets.top = list.find((worksheet) => worksheet.planner === null) as Worksheet;
    sheets.alex = list.find((worksheet) => worksheet.planner?.userId === admin.id) as Worksheet;
    sheets.ravi = list.find((worksheet) => worksheet.planner?.userId === ravi.id) as Worksheet;
    expect([sheets.top, sheets.alex, sheets.ravi].map((worksheet) => worksheet?.counts.eligible)).toEqual([1, 2, 1]);
  });

  it('skips a reviewer whose own pay is on the worksheet to the next one, or to the cycle’s owner, and says so in the history', async () => {
    await setChain([ravi, nina]);
    // Submitted through the bulk operation, with an id that is nobody's worksheet beside it.
    const unknown = '01900000-0000-7000-8000-000000000000';
    const submitted = await bulk(admin, { action: 'submit', worksheetIds: [sheets.alex.id, unknown] });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.data).toMatchObject({ moved: 1, refused: 1 });
    expect(submitted.body.data.results).toEqual([
      { worksheetId: sheets.alex.id, name: 'Alex Stuck', moved: true, state: 'in_review', code: null, message: null },
      { worksheetId: unknown, name: '', moved: false, state: null, code: 'not_found', message: 'There is no such worksheet in your reach in this cycle.' },
    ]);
    // Ravi's pay is on Alex's worksheet: Nina, next in the chain, reviews it.
    expect(reviewerIds(await fresh('alex'))).toEqual([nina.id]);
    const skipped = (await history('alex')).find((entry) => entry.action === 'skipReviewers');
    expect(skipped).toMatchObject({ from: 'in_review', to: 'in_review', actor: { userId: admin.id } });
    expect(skipped?.comment).toBe(`Skipped: ${names[ravi.id]} has their own pay on this worksheet. ${names[nina.id]} reviews it.`);
    expect((await move(ravi, sheets.alex, 'approve')).body.message).toBe('Your own pay is on this worksheet; another reviewer reviews it.');

    // Sending back needs the one comment; Nina sends back every worksheet waiting for her (this one).
    const silent = await bulk(nina, { action: 'sendBack' });
    expect(silent.status).toBe(400);
    expect(silent.body.errors).toEqual([{ field: 'body.comment', message: 'is required' }]);
    const back = await bulk(nina, { action: 'sendBack', comment: 'Ada deserves more' });
    expect(back.body.data).toMatchObject({ moved: 1, refused: 0, results: [{ worksheetId: sheets.alex.id, moved: true, state: 'sent_back' }] });
    expect((await history('alex')).at(-1)).toMatchObject({ action: 'sendBack', comment: 'Ada deserves more', actor: { userId: nina.id } });

    // The chain is Ravi alone (the lock of the issue): the admin, who owns the cycle, reviews instead.
    await setChain([ravi]);
    const again = await move(admin, await fresh('alex'), 'submit');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(reviewerIds(again.body.data)).toEqual([admin.id]);
    expect((await history('alex')).at(-1)?.comment).toBe(`Skipped: ${names[ravi.id]} has their own pay on this worksheet. Nobody else in the chain may review it, so ${names[admin.id]}, who owns the cycle, reviews it.`);
    // Ravi may still neither approve nor send back; the admin's inbox has it.
    expect((await move(ravi, again.body.data, 'approve')).status).toBe(403);
    expect((await move(ravi, again.body.data, 'sendBack', 'no')).status).toBe(403);
    expect(offered((await listAs(admin)).find((worksheet) => worksheet.id === sheets.alex.id))).toEqual(['approve', 'sendBack']);
    const approved = await move(admin, again.body.data, 'approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.state).toBe('approved');
  });

  it('approves many worksheets at once, each on its own: one refused does not hold the others back; then the cycle closes', async () => {
    // Ravi plans his own worksheet; the chain (Ravi) leaves nobody but the owner for it. The top worksheet
    // (Alex's own row) is Ravi's to review.
    expect((await move(ravi, await fresh('ravi'), 'submit')).body.data.reviewers.map((reviewer) => reviewer.userId)).toEqual([admin.id]);
    expect(reviewerIds((await move(admin, await fresh('top'), 'submit')).body.data)).toEqual([ravi.id]);
    // "All in reach": for Ravi, the one worksheet he may approve.
    const mine = await bulk(ravi, { action: 'approve' });
    expect(mine.body.data).toEqual({ moved: 1, refused: 0, results: [{ worksheetId: sheets.top.id, name: 'People without a manager', moved: true, state: 'approved', code: null, message: null }] });
    // Named: the top worksheet is approved already, Ravi's moves.
    const named = await bulk(admin, { action: 'approve', worksheetIds: [sheets.ravi.id, sheets.top.id] });
    expect(named.body.data).toMatchObject({ moved: 1, refused: 1 });
    expect(named.body.data.results).toEqual([
      { worksheetId: sheets.ravi.id, name: 'Ravi Stuck', moved: true, state: 'approved', code: null, message: null },
      { worksheetId: sheets.top.id, name: 'People without a manager', moved: false, state: 'approved', code: 'invalid_transition', message: 'An approved worksheet cannot be approved.' },
    ]);
    // Bad input is a 400, never a 500; a planner without the edit permission is refused.
    expect((await bulk(admin, { action: 'reopen' as 'submit' })).status).toBe(400);
    expect((await call(company.users.analyst as TestUser, cyclePath('/worksheetMoves'), { method: 'POST', json: { action: 'approve' } })).status).toBe(403);

    cycle = (await call<Data<Cycle>>(admin, cyclePath())).body.data;
    const closed = await call<Data<Cycle>>(admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'close' } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.data.state).toBe('closed');
  });
});
