import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { callerForUser } from '../access/authenticate.js';
import { findUserRow } from '../access/usersStore.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { jobKind } from '../jobs/kind.js';
import { queueJobIn } from '../jobs/queue.js';
import { descendantsOf, requireWholeCompany } from '../meritCycles/access.js';
import { type CycleRow, findCycle, inTransaction, rowTree } from '../meritCycles/store.js';
import { emit } from '../platform/events.js';
import { transition } from '../workflow/service.js';
import { type LetterCycleRow, type ReleaseRow, findLetterCycle, findRelease, insertRelease, letterCyclesOf, listLetters, releaseLetters, settleRelease } from './store.js';
import { REWARD_LETTERS_SUBJECT, type RewardLettersAction, type RewardLettersState, rewardLettersWorkflow } from './workflow.js';

/*
 * Releasing a cycle's letters: to everyone or to managers (the declared workflow's moves), or to one
 * branch of the cycle's tree (a manager and everyone below them: their letters only, the state
 * stays), now or planned for a moment that a job keeps. An employee reads a letter once its own
 * `released_at` is set, whichever release set it.
 */

export interface Letters {
  cycle: CycleRow;
  letters: LetterCycleRow;
  state: RewardLettersState;
}

export type Audience = ReleaseRow['audience'];

/** The cycle's letters once rendered; another company's cycle, or one without letters yet, is 404. */
export async function lettersOfCycle(db: Knex, scope: CompanyScope, cycleId: string): Promise<Letters> {
  const cycle = await findCycle(db, scope, cycleId);
  if (!cycle) throw notFound();
  const letters = await findLetterCycle(db, scope, cycle.id);
  if (!letters?.rendered_at) throw notFound('This cycle has no reward letters yet: they are written once the cycle is closed.');
  if (!rewardLettersWorkflow.isState(letters.state)) throw new Error(`reward letters of cycle ${cycle.id} are in an unknown state ${letters.state}`);
  return { cycle, letters, state: letters.state };
}

/** The employees of a manager's branch in the cycle's tree: the manager and everyone below them. 400 when the manager is not in the cycle. */
export async function branchOf(db: Knex, scope: CompanyScope, cycleId: string, managerEmployeeId: string): Promise<string[]> {
  const tree = await rowTree(db, scope, cycleId);
  const managerOf = new Map(tree.map((row) => [row.employee_id, row.manager_id]));
  if (!managerOf.has(managerEmployeeId)) throw badRequest('That manager is not in this cycle.', [{ field: 'body.managerEmployeeId', message: 'is not an employee of this cycle' }]);
  return [managerEmployeeId, ...descendantsOf(managerEmployeeId, managerOf)];
}

const ACTION_OF: Record<Exclude<Audience, 'branch'>, RewardLettersAction> = { all: 'releaseToEmployees', managers: 'releaseToManagers' };

export interface ReleaseRequest {
  audience: Audience;
  managerEmployeeId?: string | undefined;
}

/** 400 when the request does not say which branch, or names one without asking for a branch. */
function checkedRequest(request: ReleaseRequest): ReleaseRequest {
  if (request.audience === 'branch' && !request.managerEmployeeId) throw badRequest('Choose the manager whose branch to release.', [{ field: 'body.managerEmployeeId', message: 'is required to release to a branch' }]);
  if (request.audience !== 'branch' && request.managerEmployeeId) throw badRequest('A manager is named only to release to their branch.', [{ field: 'body.managerEmployeeId', message: 'is only for a branch' }]);
  return request;
}

/**
 * Applies a release in `trx` at the letters' version read: the workflow's move for everyone or
 * managers (every letter becomes readable by its employee on `all`), the branch's letters for a
 * branch. Returns how many letters became readable by their employees.
 */
async function applyRelease(trx: Knex, scope: CompanyScope, caller: Caller, found: Letters, version: number, request: ReleaseRequest): Promise<number> {
  const cycleId = found.cycle.id;
  const now = new Date().toISOString();
  let released = 0;
  let moved: { from: string; to: string } = { from: found.state, to: found.state };
  if (request.audience === 'branch') {
    requireWholeCompany(caller, 'Releasing letters to a branch');
    const branch = await branchOf(trx, scope, cycleId, request.managerEmployeeId as string);
    released = await releaseLetters(trx, scope, cycleId, branch, now);
    if (!released) throw new HttpError(409, 'nothing_to_release', { message: 'Every letter in that branch is released already.' });
    await updateAtVersion(() => letterCyclesOf(trx, scope).where({ cycle_id: cycleId }), version, { updated_at: now }, 'these reward letters');
  } else {
    const action = ACTION_OF[request.audience];
    const subject = { subjectType: REWARD_LETTERS_SUBJECT, subjectId: cycleId, currentState: found.state, version };
    const result = await transition(trx, scope, rewardLettersWorkflow, { subject, action, actor: caller });
    moved = { from: result.from, to: result.state };
    const stamp = action === 'releaseToManagers' ? { released_to_managers_at: now } : { released_at: now };
    await updateAtVersion(() => letterCyclesOf(trx, scope).where({ cycle_id: cycleId }), version, { ...stamp, state: result.state, updated_at: now }, 'these reward letters');
    if (action === 'releaseToEmployees') released = await releaseLetters(trx, scope, cycleId, 'all', now);
  }
  await emit(trx, {
    name: 'rewardLetters.transitioned',
    companyId: scope.companyId,
    actorUserId: caller.userId,
    subjectType: REWARD_LETTERS_SUBJECT,
    subjectId: cycleId,
    payload: { meritCycleId: cycleId, action: request.audience === 'branch' ? 'releaseToBranch' : ACTION_OF[request.audience], from: moved.from, to: moved.to, letters: released, ...(request.managerEmployeeId ? { managerEmployeeId: request.managerEmployeeId } : {}) },
  });
  return released;
}

/** The release job: one planned release, carried out at its moment as the planner who planned it. */
export interface ReleaseJobInput {
  releaseId: string;
}

export const releaseLettersJob = jobKind<ReleaseJobInput>({ type: 'rewardLettersRelease', title: 'Reward letters release' }, () => async ({ job, db, progress }) => {
  const scope = { companyId: job.companyId };
  const release = await findRelease(db, scope, job.input.releaseId);
  if (!release || release.status !== 'scheduled') return { releaseId: job.input.releaseId, skipped: true };
  const planner = await findUserRow(db, release.created_by);
  let outcome: { status: 'done' | 'failed'; message: string };
  try {
    outcome = await inTransaction(db, async (trx) => {
      if (!planner || planner.company_id !== scope.companyId) throw new HttpError(403, 'forbidden', { message: 'The person who planned this release is no longer in the company.' });
      const caller = await callerForUser(trx, planner, 'apiToken');
      const found = await lettersOfCycle(trx, scope, release.cycle_id);
      const request = { audience: release.audience, managerEmployeeId: release.branch_employee_id ?? undefined };
      // Everyone released already by hand meanwhile: only letters still closed are opened, and that is no failure.
      const released =
        release.audience === 'all' && found.state === 'released'
          ? await releaseLetters(trx, scope, release.cycle_id, 'all', new Date().toISOString())
          : await applyRelease(trx, scope, caller, found, Number(found.letters.version), request);
      const done = { status: 'done' as const, message: `${released} ${released === 1 ? 'letter' : 'letters'} released` };
      // Settled with the release itself: a retried job finds it done.
      if (!(await settleRelease(trx, scope, { id: release.id, status: done.status, outcome: done.message, jobId: job.id }))) throw new Error('the planned release changed while it was carried out');
      return done;
    });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // Refused (the move is no longer allowed, the branch is released already): nothing of it is kept but the reason.
    outcome = { status: 'failed', message: error.message };
    await settleRelease(db, scope, { id: release.id, status: 'failed', outcome: error.message, jobId: job.id });
  }
  await progress(100, outcome.message);
  return { releaseId: release.id, ...outcome };
});

/** Releases now, or plans the release for `releaseAt` (a future moment), at the letters' version read. */
export async function releaseOrPlan(db: Knex, caller: Caller, cycleId: string, ifMatch: string, request: ReleaseRequest & { releaseAt?: string | undefined }): Promise<{ planned: boolean }> {
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  checkedRequest(request);
  const releaseAt = request.releaseAt ? new Date(request.releaseAt) : null;
  if (releaseAt && releaseAt.getTime() <= Date.now()) throw badRequest('A planned release is for a moment still to come; leave the date out to release now.', [{ field: 'body.releaseAt', message: 'must be in the future' }]);
  await inTransaction(db, async (trx) => {
    const found = await lettersOfCycle(trx, scope, cycleId);
    if (Number(found.letters.version) !== version) throw versionConflict('these reward letters', Number(found.letters.version));
    if (!releaseAt) {
      await applyRelease(trx, scope, caller, found, version, request);
      return;
    }
    requireWholeCompany(caller, 'Planning a release of reward letters');
    if (request.audience === 'branch') await branchOf(trx, scope, cycleId, request.managerEmployeeId as string);
    const now = new Date().toISOString();
    const row: ReleaseRow = {
      id: newId(),
      company_id: scope.companyId,
      cycle_id: cycleId,
      audience: request.audience,
      branch_employee_id: request.managerEmployeeId ?? null,
      release_at: releaseAt.toISOString(),
      status: 'scheduled',
      outcome: null,
      job_id: null,
      created_by: caller.userId,
      created_at: now,
      updated_at: now,
    };
    await insertRelease(trx, row);
    // The job becomes visible with the plan, and no worker takes it before its moment.
    await queueJobIn(trx, releaseLettersJob, { companyId: scope.companyId, ownerUserId: caller.userId, input: { releaseId: row.id }, runAfter: row.release_at as string, message: `Planned for ${row.release_at as string}` });
    await updateAtVersion(() => letterCyclesOf(trx, scope).where({ cycle_id: cycleId }), version, { updated_at: now }, 'these reward letters');
  });
  return { planned: releaseAt !== null };
}

/** Calls off a planned release before its moment (its job then finds it cancelled and does nothing). */
export async function cancelRelease(db: Knex, caller: Caller, cycleId: string, releaseId: string, ifMatch: string): Promise<void> {
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  requireWholeCompany(caller, 'Calling off a planned release');
  await inTransaction(db, async (trx) => {
    const found = await lettersOfCycle(trx, scope, cycleId);
    if (Number(found.letters.version) !== version) throw versionConflict('these reward letters', Number(found.letters.version));
    const release = await findRelease(trx, scope, releaseId);
    if (!release || release.cycle_id !== cycleId) throw notFound();
    if (!(await settleRelease(trx, scope, { id: releaseId, status: 'cancelled', outcome: 'Called off before its moment.' }))) {
      throw new HttpError(409, 'release_not_scheduled', { message: 'This release is no longer planned: it has happened or was called off.' });
    }
    await updateAtVersion(() => letterCyclesOf(trx, scope).where({ cycle_id: cycleId }), version, { updated_at: new Date().toISOString() }, 'these reward letters');
  });
}

/** Whether any letter of the cycle is released to its employee (a released letter never changes). */
export async function anyReleased(db: Knex, scope: CompanyScope, cycleId: string): Promise<boolean> {
  return (await listLetters(db, scope, cycleId)).some((letter) => letter.released_at !== null);
}
