import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { usersById } from '../access/userContacts.js';
import { type StoredChain, defaultMeritChains } from '../approvalRules/rules.js';
import type { FieldError } from '../kernel/errors.js';
import { branchEmployeesById } from '../people/reads/approvalChains.js';

/*
 * The rules of approval chains, wherever chains are set: typed in on a cycle (chains.ts), in the
 * company's defaults or read from a file (workflowSettings/), and the defaults a new cycle copies.
 */

export const MAX_REVIEWERS = 10;

/** The checks every set of chains passes (typed in, or read from a file): real branches and reviewers, no branch twice. */
export async function chainProblems(db: Knex, scope: CompanyScope, chains: readonly StoredChain[], field: string): Promise<FieldError[]> {
  const problems: FieldError[] = [];
  const users = await usersById(db, scope, chains.flatMap((chain) => chain.reviewerUserIds));
  const branches = await branchEmployeesById(db, scope, chains.map((chain) => chain.branchEmployeeId).filter((id): id is string => id !== null));
  const seen = new Set<string>();
  chains.forEach((chain, index) => {
    const key = chain.branchEmployeeId ?? '';
    if (seen.has(key)) problems.push({ field: `${field}.${index}.branchEmployeeId`, message: chain.branchEmployeeId ? 'names a branch that already has a chain' : 'is a second company-wide chain' });
    seen.add(key);
    if (chain.branchEmployeeId && !branches.has(chain.branchEmployeeId)) problems.push({ field: `${field}.${index}.branchEmployeeId`, message: 'is not an employee of the company' });
    if (new Set(chain.reviewerUserIds).size !== chain.reviewerUserIds.length) problems.push({ field: `${field}.${index}.reviewerUserIds`, message: 'names a reviewer twice' });
    if (chain.reviewerUserIds.length > MAX_REVIEWERS) problems.push({ field: `${field}.${index}.reviewerUserIds`, message: `has more than ${MAX_REVIEWERS} reviewers` });
    chain.reviewerUserIds.forEach((userId, position) => {
      const user = users.get(userId);
      if (!user) problems.push({ field: `${field}.${index}.reviewerUserIds.${position}`, message: 'is not a user of the company' });
      else if (!user.active) problems.push({ field: `${field}.${index}.reviewerUserIds.${position}`, message: `${user.name} no longer has access` });
    });
  });
  return problems;
}

/** The default chains a new merit cycle starts with: those whose branch is still an employee, with reviewers still users. */
export async function chainsForNewCycle(db: Knex, scope: CompanyScope): Promise<StoredChain[]> {
  const chains = await defaultMeritChains(db, scope);
  const users = await usersById(db, scope, chains.flatMap((chain) => chain.reviewerUserIds));
  const branches = await branchEmployeesById(db, scope, chains.map((chain) => chain.branchEmployeeId).filter((id): id is string => id !== null));
  return chains
    .filter((chain) => chain.branchEmployeeId === null || branches.has(chain.branchEmployeeId))
    .map((chain) => ({ ...chain, reviewerUserIds: chain.reviewerUserIds.filter((userId) => users.get(userId)?.active) }))
    .filter((chain) => chain.reviewerUserIds.length > 0);
}
