import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, testDb } from '../../test/factories.js';
import { callerForUser } from '../access/authenticate.js';
import type { Caller, CompanyScope } from '../access/caller.js';
import { findUserById } from '../access/users.js';
import { newId } from '../db/ids.js';
import type { StateOf } from './definition.js';
import { availableActions, history, transition } from './service.js';
import { sampleCycle } from './test/sampleCycle.js';
import { refusal } from '../../test/waiting.js';

type CycleState = StateOf<typeof sampleCycle>;

async function callerOf(db: Knex, userId: string | undefined): Promise<Caller> {
  const user = await findUserById(db, userId ?? '');
  if (!user) throw new Error('no such test user');
  return callerForUser(db, user, 'apiToken');
}

describe('workflow transitions on a real database', () => {
  let db: Knex;
  let scope: CompanyScope;
  let planner: Caller;
  let admin: Caller;
  let manager: Caller;
  let employee: Caller;
  let otherScope: CompanyScope;
  let outsider: Caller;

  beforeAll(async () => {
    db = await testDb();
    const company = await createTestCompany(db, 'Workflow Co');
    const other = await createTestCompany(db, 'Other Co');
    scope = { companyId: company.id };
    otherScope = { companyId: other.id };
    planner = await callerOf(db, company.users.compensation_planner?.id);
    admin = await callerOf(db, company.users.admin?.id);
    manager = await callerOf(db, company.users.people_manager?.id);
    employee = await callerOf(db, company.users.employee?.id);
    outsider = await callerOf(db, other.users.admin?.id);
  });

  /** A cycle as the module would hold it: its record and where it stands. */
  function newCycle() {
    const cycle = { subjectType: 'sampleCycle', subjectId: newId(), currentState: sampleCycle.initial as CycleState, version: 1, launchedBy: '' };
    const step = async (action: Parameters<typeof sampleCycle.transitionFrom>[1], actor: Caller, comment?: string) => {
      const result = await db.transaction((trx) => transition(trx, scope, sampleCycle, { subject: cycle, action, actor, comment }));
      cycle.currentState = result.state;
      cycle.version += 1;
      return result;
    };
    const rows = async () => Number((await db('workflow_history').where({ subject_id: cycle.subjectId }).count({ n: '*' }).first())?.n);
    return { cycle, step, rows };
  }

  it('walks a cycle from not started to closed and lists its history oldest first', async () => {
    const { cycle, step } = newCycle();
    cycle.launchedBy = planner.userId;
    expect((await step('start', planner)).state).toBe('active');
    expect((await step('pause', planner)).state).toBe('paused');
    expect((await step('resume', planner)).state).toBe('active');
    expect((await step('approve', admin)).state).toBe('approved');
    expect((await step('reopen', planner, '  Two managers asked for changes.  ')).state).toBe('active');
    expect((await step('approve', admin)).state).toBe('approved');
    const closed = await step('close', planner);
    expect(closed).toMatchObject({ state: 'closed', from: 'approved', action: 'close' });

    const entries = await history(db, scope, 'sampleCycle', cycle.subjectId);
    expect(entries.map((entry) => `${entry.from}→${entry.to}`)).toEqual([
      'not_started→active',
      'active→paused',
      'paused→active',
      'active→approved',
      'approved→active',
      'active→approved',
      'approved→closed',
    ]);
    expect(entries[3]).toMatchObject({ workflow: 'sampleMeritCycle', action: 'approve', subjectVersion: 4, comment: null, actor: { userId: admin.userId, name: `${admin.firstName} ${admin.lastName}` } });
    expect(entries[4]?.comment).toBe('Two managers asked for changes.');
    expect(entries.at(-1)?.id).toBe(closed.historyId);
    expect(new Date(entries[0]?.at ?? '').getTime()).toBeLessThanOrEqual(new Date(entries.at(-1)?.at ?? '').getTime());
  });

  it('refuses a transition not declared from the current state with 409, changing nothing', async () => {
    const { cycle, step, rows } = newCycle();
    cycle.launchedBy = planner.userId;
    await step('start', planner);
    await step('approve', admin);
    const before = await rows();
    const error = await refusal(step('pause', admin));
    expect(error).toMatchObject({ status: 409, code: 'invalid_transition', message: 'An approved cycle cannot be paused.' });
    expect(cycle.currentState).toBe('approved');
    expect(await rows()).toBe(before);
    expect(await refusal(step('close', admin).then(() => step('resume', admin)))).toMatchObject({ status: 409, message: 'A closed cycle cannot be resumed.' });
  });

  it('refuses people without the permission, outside its scope, or stopped by the guard, with 403 and no history', async () => {
    const { cycle, step, rows } = newCycle();
    cycle.launchedBy = planner.userId;
    expect(await refusal(step('start', employee))).toMatchObject({ status: 403, code: 'forbidden', message: 'Only people with the compensationPlanning permission (edit) can have a cycle started.' });
    expect(await rows()).toBe(0);
    await step('start', planner);
    // A people manager edits merit plans of their reports only; approving the cycle needs the whole company.
    expect(await refusal(step('approve', manager))).toMatchObject({ status: 403, message: 'Only people with the compensationPlanning permission (edit, whole company) can have a cycle approved.' });
    // Four eyes: the guard refuses whoever launched the cycle.
    expect(await refusal(step('approve', planner))).toMatchObject({ status: 403, message: 'The person who launched a cycle cannot approve it.' });
    expect(cycle.currentState).toBe('active');
    expect(await rows()).toBe(1);
    expect((await availableActions(sampleCycle, cycle, planner)).map((a) => a.action)).toEqual(['pause']);
    expect((await availableActions(sampleCycle, cycle, admin)).map((a) => a.action)).toEqual(['pause', 'approve']);
    expect(await availableActions(sampleCycle, cycle, employee)).toEqual([]);
  });

  it('needs a comment where the transition says so', async () => {
    const { cycle, step, rows } = newCycle();
    cycle.launchedBy = planner.userId;
    await step('start', planner);
    await step('approve', admin);
    const error = await refusal(step('reopen', planner, '   '));
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'A cycle is reopened only with a comment saying why.', errors: [{ field: 'body.comment', message: 'is required' }] });
    expect(await rows()).toBe(2);
  });

  it('writes the history in the caller’s transaction: rolled back with it', async () => {
    const { cycle, rows } = newCycle();
    await expect(
      db.transaction(async (trx) => {
        await transition(trx, scope, sampleCycle, { subject: cycle, action: 'start', actor: planner });
        throw new Error('the module failed to save the cycle');
      }),
    ).rejects.toThrow(/failed to save/);
    expect(await rows()).toBe(0);
  });

  it("keeps companies apart: another company's scope sees no history and its people change nothing", async () => {
    const { cycle, step, rows } = newCycle();
    await step('start', planner);
    expect(await history(db, otherScope, 'sampleCycle', cycle.subjectId)).toEqual([]);
    expect(await history(db, scope, 'sampleCycle', cycle.subjectId)).toHaveLength(1);
    expect(await refusal(step('pause', outsider))).toMatchObject({ status: 404 });
    expect(await rows()).toBe(1);
  });
});
