import { describe, expect, it } from 'vitest';
import { createTestCompany, testDb } from '../../test/factories.js';
import { callerForUser } from '../access/authenticate.js';
import { asTenant } from '../db/rowSecurity.js';
import { findUserById } from '../access/users.js';
import { history, transition } from './service.js';
import { sampleCycle } from './test/sampleCycle.js';

// Postgres only: the history is under row-level security like every company-owned table.

describe('workflow history under row-level security', () => {
  it('a tenant transaction writes its history and sees no other company’s', async () => {
    const db = await testDb();
    const a = await createTestCompany(db, 'Workflow A');
    const b = await createTestCompany(db, 'Workflow B');
    const user = await findUserById(db, a.users.compensation_planner?.id ?? '');
    if (!user) throw new Error('no planner');
    const planner = await callerForUser(db, user, 'apiToken');
    const subject = { subjectType: 'sampleCycle', subjectId: 'cycle-rls', currentState: 'not_started' as const, launchedBy: planner.userId };
    await asTenant(db, a.id, (trx) => transition(trx, { companyId: a.id }, sampleCycle, { subject, action: 'start', actor: planner }));
    await asTenant(db, b.id, async (trx) => {
      expect(await trx('workflow_history').where({ subject_id: 'cycle-rls' })).toEqual([]);
      expect(await history(trx, { companyId: a.id }, 'sampleCycle', 'cycle-rls')).toEqual([]);
    });
    expect(await asTenant(db, a.id, (trx) => history(trx, { companyId: a.id }, 'sampleCycle', 'cycle-rls'))).toHaveLength(1);
  });
});
