import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { parsePermissions, rolesOfUsers } from '../access/store.js';
import { approverOf, usersById } from '../access/userContacts.js';
import { type StoredChain, type WorkflowRules, type WorkflowSettingsRow, findSettings, insertSettings, parseList, rulesOf, settingsOf } from '../approvalRules/rules.js';
import type { components } from '../contract-types.js';
import { type FieldError, badRequest } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { chainProblems, MAX_REVIEWERS } from '../meritCycles/chainRules.js';
import { branchEmployeesById } from '../people/reads/approvalChains.js';
import { emit } from '../platform/events.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * The workflow settings screen: who approves what, checked and written at one version. The rules
 * are stored in approvalRules/ (the areas that follow them read them there); the checks of chains
 * are the merit cycles' (meritCycles/chainRules.ts). Offer approval rules keep their own document
 * (offers/approvals.ts); the settings screen shows all three.
 */

type Schemas = components['schemas'];
export type WorkflowSettings = Schemas['WorkflowSettings'];
export type WorkflowApprover = Schemas['WorkflowApprover'];
export type MeritChain = Schemas['WorkflowMeritChain'];

// What the chains file reads from here (chainsFile.ts): the chain rules and the stored rules.
export { MAX_REVIEWERS, chainProblems, rulesOf, type StoredChain };
export const MAX_BAND_APPROVERS = 10;

/** Chains with their branch and reviewers named, the whole company's first. */
export async function presentChains(db: Knex, scope: CompanyScope, chains: readonly StoredChain[]): Promise<MeritChain[]> {
  const users = await usersById(db, scope, chains.flatMap((chain) => chain.reviewerUserIds));
  const branches = await branchEmployeesById(db, scope, chains.map((chain) => chain.branchEmployeeId).filter((id): id is string => id !== null));
  return [...chains]
    .sort((a, b) => Number(a.branchEmployeeId !== null) - Number(b.branchEmployeeId !== null))
    .map((chain) => {
      const branch = chain.branchEmployeeId ? branches.get(chain.branchEmployeeId) : undefined;
      return {
        branchEmployeeId: chain.branchEmployeeId,
        branchName: branch?.name ?? null,
        branchEmail: branch?.email ?? null,
        reviewers: chain.reviewerUserIds.map((userId) => approverOf(userId, users)),
      };
    });
}

async function present(db: Knex, scope: CompanyScope, rules: WorkflowRules): Promise<WorkflowSettings> {
  const users = await usersById(db, scope, rules.bandPublicationApprovers);
  return {
    version: rules.version,
    meritChains: await presentChains(db, scope, rules.meritChains),
    bandPublicationApprovers: rules.bandPublicationApprovers.map((userId) => approverOf(userId, users)),
    updatedAt: rules.updatedAt,
  };
}

export async function getWorkflowSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<WorkflowSettings> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return present(db, scope, await rulesOf(db, scope));
}

async function bandApproverProblems(db: Knex, scope: CompanyScope, approverIds: readonly string[]): Promise<FieldError[]> {
  const problems: FieldError[] = [];
  const users = await usersById(db, scope, approverIds);
  const roles = await rolesOfUsers(db, scope, [...users.keys()]);
  const seesBands = (userId: string) => (roles.get(userId) ?? []).some((role) => hasPermission(parsePermissions(role), 'bands', 'view', undefined));
  if (new Set(approverIds).size !== approverIds.length) problems.push({ field: 'body.bandPublicationApproverUserIds', message: 'names an approver twice' });
  approverIds.forEach((userId, at) => {
    const field = `body.bandPublicationApproverUserIds.${at}`;
    const user = users.get(userId);
    if (!user) problems.push({ field, message: `${userId} is not a user of this company` });
    else if (!user.active) problems.push({ field, message: `${user.name} no longer has access` });
    else if (!seesBands(userId)) problems.push({ field, message: `${user.name} cannot see salary bands (the bands permission)` });
  });
  return problems;
}

/** Writes the rules at the version read (0 before the first save), in the caller's transaction. */
export async function storeRules(trx: Knex, caller: Caller, version: number, next: { meritChains?: StoredChain[]; bandPublicationApprovers?: string[] }): Promise<void> {
  const scope = companyScope(caller);
  const current = await findSettings(trx, scope);
  const stored = current ? Number(current.version) : 0;
  if (stored !== version) throw versionConflict('the workflow settings', stored);
  const now = new Date().toISOString();
  const changes = {
    merit_chains: JSON.stringify(next.meritChains ?? parseList<StoredChain>(current?.merit_chains)),
    band_publication_approvers: JSON.stringify(next.bandPublicationApprovers ?? parseList<string>(current?.band_publication_approvers)),
    updated_by: caller.userId,
    updated_at: now,
  };
  if (!current) {
    const row: WorkflowSettingsRow = { company_id: scope.companyId, version: 1, ...changes };
    await insertSettings(trx, row);
  } else {
    await updateAtVersion(() => settingsOf(trx, scope), version, changes, 'the workflow settings');
  }
  await emit(trx, {
    name: 'workflowSettings.updated',
    companyId: scope.companyId,
    actorUserId: caller.userId,
    payload: { version: version + 1, meritChains: JSON.parse(changes.merit_chains) as StoredChain[], bandPublicationApprovers: JSON.parse(changes.band_publication_approvers) as string[] },
  });
}

export async function updateWorkflowSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, input: Schemas['WorkflowSettingsInput']): Promise<WorkflowSettings> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const meritChains = input.meritChains?.map((chain) => ({ branchEmployeeId: chain.branchEmployeeId, reviewerUserIds: chain.reviewerUserIds }));
  const problems = [
    ...(meritChains ? await chainProblems(db, scope, meritChains, 'body.meritChains') : []),
    ...(input.bandPublicationApproverUserIds ? await bandApproverProblems(db, scope, input.bandPublicationApproverUserIds) : []),
  ];
  if (problems.length) throw badRequest('Some approval rules cannot be saved.', problems);
  await db.transaction((trx) => storeRules(trx, caller, version, { meritChains, bandPublicationApprovers: input.bandPublicationApproverUserIds }));
  return getWorkflowSettings({ db, caller });
}
