import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { employeeNamesForMeritCycle } from './peopleReads.js';
import { requireWholeCompany } from './access.js';
// The one check of chains, typed in here, in the company's defaults or read from a file.
import { chainProblems } from './chainRules.js';
import { parse } from './config.js';
import { requireCycle } from './cycles.js';
import { actorOf } from './present.js';
import { type ChainRow, type CycleRow, cyclesOf, listChains, replaceChains, userNames, inTransaction } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * Approval chains: ordered reviewers per org branch (the employee at its root), and one company-wide
 * default (no branch). A worksheet takes the chain of the nearest branch at or above its planner
 * when it is submitted. Chains change while the cycle is a draft or active, at the cycle's version.
 */

type Schemas = components['schemas'];
type ApprovalChain = Schemas['ApprovalChain'];
type ChainInput = Schemas['ApprovalChainInput'];

async function presentChains(db: Knex, scope: CompanyScope, rows: ChainRow[]): Promise<ApprovalChain[]> {
  const reviewers = rows.map((row) => parse<string[]>(row.reviewers));
  const users = await userNames(db, scope, reviewers.flat());
  const branches = await employeeNamesForMeritCycle(db, scope, rows.map((row) => row.branch_employee_id).filter((id): id is string => id !== null));
  return rows.map((row, index) => ({
    id: row.id,
    branchEmployeeId: row.branch_employee_id,
    branchName: row.branch_employee_id ? (branches.get(row.branch_employee_id) ?? null) : null,
    reviewers: (reviewers[index] ?? []).map((userId) => actorOf(userId, users)),
    version: Number(row.version),
  }));
}

export async function listApprovalChains(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<ApprovalChain[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const cycle = await requireCycle(db, scope, cycleId);
  return presentChains(db, scope, await listChains(db, scope, cycle.id));
}


async function changeChains(db: Knex, caller: Caller, cycleId: string, ifMatch: string, next: (cycle: CycleRow, current: ChainRow[], trx: Knex) => Promise<ChainInput[]>): Promise<ApprovalChain[]> {
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await inTransaction(db, async (trx) => {
    const cycle = await requireCycle(trx, scope, cycleId);
    requireWholeCompany(caller, 'Changing approval chains');
    if (Number(cycle.version) !== version) throw versionConflict('this cycle', Number(cycle.version));
    if (cycle.state !== 'draft' && cycle.state !== 'active') throw new HttpError(409, 'cycle_locked', { message: `A ${cycle.state} cycle's approval chains do not change.` });
    const current = await listChains(trx, scope, cycle.id);
    const chains = await next(cycle, current, trx);
    const now = new Date().toISOString();
    const previous = new Map(current.map((row) => [row.branch_employee_id ?? '', row]));
    await replaceChains(
      trx,
      scope,
      cycle.id,
      chains.map((chain) => {
        const before = previous.get(chain.branchEmployeeId ?? '');
        const reviewers = JSON.stringify(chain.reviewerUserIds);
        return {
          id: before?.id ?? newId(),
          company_id: scope.companyId,
          cycle_id: cycle.id,
          branch_employee_id: chain.branchEmployeeId,
          reviewers,
          version: before ? (before.reviewers === reviewers ? Number(before.version) : Number(before.version) + 1) : 1,
          updated_by: caller.userId,
          created_at: before?.created_at ?? now,
          updated_at: now,
        };
      }),
    );
    await updateAtVersion(() => cyclesOf(trx, scope).where({ id: cycle.id }), version, { updated_at: now }, 'this cycle');
  });
  return listApprovalChains({ db, caller }, cycleId);
}

/** Bulk replace: the chains given are the cycle's chains. */
export async function replaceApprovalChains(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, ifMatch: string, chains: ChainInput[]): Promise<ApprovalChain[]> {
  const { db, caller } = ctx;
  return changeChains(db, caller, cycleId, ifMatch, async (_cycle, _current, trx) => {
    const problems = await chainProblems(trx, companyScope(caller), chains, 'body.chains');
    if (problems.length) throw badRequest('Some approval chains cannot be saved.', problems);
    return chains;
  });
}

/** Adds a reviewer to (at a position) or removes one from the named chains, or every chain. */
export async function changeReviewers(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  cycleId: string,
  ifMatch: string,
  input: { action: 'add' | 'remove'; reviewerUserId: string; position?: number; branchEmployeeIds?: string[] },
): Promise<ApprovalChain[]> {
  const { db, caller } = ctx;
  return changeChains(db, caller, cycleId, ifMatch, async (_cycle, current, trx) => {
    const named = input.branchEmployeeIds ? new Set(input.branchEmployeeIds) : null;
    const chains: ChainInput[] = current.map((row) => ({ branchEmployeeId: row.branch_employee_id, reviewerUserIds: parse<string[]>(row.reviewers) }));
    if (named) {
      for (const branch of named) if (!chains.some((chain) => chain.branchEmployeeId === branch) && input.action === 'add') chains.push({ branchEmployeeId: branch, reviewerUserIds: [] });
    }
    const next = chains
      .map((chain) => {
        if (named && !named.has(chain.branchEmployeeId ?? '')) return chain;
        const without = chain.reviewerUserIds.filter((userId) => userId !== input.reviewerUserId);
        if (input.action === 'remove') return { ...chain, reviewerUserIds: without };
        const at = Math.min(without.length, (input.position ?? without.length + 1) - 1);
        return { ...chain, reviewerUserIds: [...without.slice(0, at), input.reviewerUserId, ...without.slice(at)] };
      })
      // A chain left without reviewers is no chain (the default applies again).
      .filter((chain) => chain.reviewerUserIds.length > 0);
    const problems = await chainProblems(trx, companyScope(caller), next, 'body.chains');
    if (problems.length) {
      const reviewer = problems.find((problem) => problem.field.includes('reviewerUserIds'));
      throw badRequest('The reviewers cannot be changed so.', reviewer ? [{ field: 'body.reviewerUserId', message: reviewer.message }] : problems);
    }
    return next;
  });
}
