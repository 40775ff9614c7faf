import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { assertMayAssignRoles } from '../access/assignRoles.js';
import { listRoles } from '../access/store.js';
import type { SecuredContext } from '../kernel/operations.js';
import { type Invitee, type PreparedInvitations, peopleWaitingForInvitation, prepareInvitations } from '../identity/invitationService.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { normaliseEmail } from '../access/users.js';
import { EMAIL } from '../kernel/files/cells.js';
import { type ImportChange, type ImportPlan, RowProblems, insertInChunks, summarise } from '../kernel/importPlan.js';
import { type ImportedUserRow, companyUsersWithRoles, deleteRolesOfUsers, emailsTakenElsewhere, updateImportedUser } from './store.js';

type UsersImportRow = components['schemas']['UsersImportRow'];
type Existing = ImportedUserRow & { roles: string[] };

/** A row as it will be stored: trimmed, e-mail lower-cased, roles de-duplicated and sorted. */
interface CleanRow {
  index: number;
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  /** Role keys the person holds afterwards; undefined when the file has no roles column (kept as they are). */
  roles: string[] | undefined;
  /** The manager's e-mail; '' for none; undefined when the file has no manager column (kept as it is). */
  manager: string | undefined;
}

function clean(row: UsersImportRow, index: number): CleanRow {
  return {
    index,
    line: row.line,
    email: normaliseEmail(row.email),
    firstName: row.firstName.trim(),
    lastName: row.lastName.trim(),
    roles: row.roles === undefined ? undefined : [...new Set(row.roles.map((role) => role.trim()).filter(Boolean))].sort(),
    manager: row.manager === undefined ? undefined : normaliseEmail(row.manager),
  };
}

function checkRow(row: CleanRow, raw: UsersImportRow, ctx: { roleKeys: Set<string>; firstLine: Map<string, number>; firstIndex: Map<string, number>; known: Map<string, Existing>; elsewhere: Set<string> }, problems: RowProblems): void {
  const add = (field: string, message: string) => problems.add(row.index, row.line, field, message);
  if (!row.email) add('email', 'is required');
  else if (!EMAIL.test(row.email)) add('email', `"${raw.email}" is not an e-mail address`);
  else if (ctx.firstIndex.get(row.email) !== row.index) add('email', `${row.email} is already on line ${ctx.firstLine.get(row.email)}`);
  else if (ctx.elsewhere.has(row.email)) add('email', `${row.email} already has an account in another company`);
  if (!row.firstName) add('firstName', 'is required');
  if (!row.lastName) add('lastName', 'is required');
  for (const role of row.roles ?? []) if (!ctx.roleKeys.has(role)) add('roles', `"${role}" is not a role of this company`);
  const manager = row.manager;
  if (!manager) return;
  if (!EMAIL.test(manager)) add('manager', `"${raw.manager}" is not an e-mail address`);
  else if (manager === row.email) add('manager', 'a person cannot manage themselves');
  else if (!ctx.firstLine.has(manager) && ctx.known.get(manager)?.status !== 'active') add('manager', `${manager} is neither in the file nor a user of this company`);
}

const sameRoles = (a: string[], b: string[]): boolean => a.length === b.length && [...a].sort().every((key, i) => key === b[i]);

/** Whether the row gives the user other roles than they hold (a missing column changes nothing). */
const rolesChange = (row: CleanRow, existing: Existing): boolean => row.roles !== undefined && !sameRoles(existing.roles, row.roles);

/** Whether the row names a different manager than the user has (a missing column changes nothing). */
function managerChanges(row: CleanRow, existing: Existing, emailOf: Map<string, string>): boolean {
  if (row.manager === undefined) return false;
  const current = existing.manager_user_id ? (emailOf.get(existing.manager_user_id) ?? '') : '';
  return current !== row.manager;
}

function actionFor(row: CleanRow, existing: Existing | undefined, emailOf: Map<string, string>): ImportChange['action'] | undefined {
  if (!existing) return 'create';
  const changed =
    existing.first_name !== row.firstName || existing.last_name !== row.lastName || rolesChange(row, existing) || managerChanges(row, existing, emailOf);
  return changed ? 'update' : undefined;
}

/** Everyone's manager e-mail once the file is applied: the file's value where it has one, else what is stored. */
function managersAfter(rows: CleanRow[], known: Map<string, Existing>, emailOf: Map<string, string>): Map<string, string> {
  const managers = new Map<string, string>();
  for (const user of known.values()) {
    const manager = user.manager_user_id ? emailOf.get(user.manager_user_id) : undefined;
    if (manager) managers.set(user.email, manager);
  }
  for (const row of rows) {
    if (row.manager === undefined) continue;
    if (row.manager) managers.set(row.email, row.manager);
    else managers.delete(row.email);
  }
  return managers;
}

/** The chain from `email` back to itself through managers, if there is one. */
function managementCycle(email: string, managers: Map<string, string>): string[] | undefined {
  const chain = [email];
  const seen = new Set(chain);
  for (let current = managers.get(email); current; current = managers.get(current)) {
    chain.push(current);
    if (current === email) return chain;
    if (seen.has(current)) return undefined; // a cycle further up, reported on its own rows
    seen.add(current);
  }
  return undefined;
}

/** New people ordered so that a manager created by the file is inserted before their reports. */
function managersFirst(created: CleanRow[]): CleanRow[] {
  const byEmail = new Map(created.map((row) => [row.email, row]));
  const depth = new Map<string, number>();
  const depthOf = (row: CleanRow): number => {
    const known = depth.get(row.email);
    if (known !== undefined) return known;
    let value = 0;
    for (let manager = row.manager ? byEmail.get(row.manager) : undefined; manager; manager = manager.manager ? byEmail.get(manager.manager) : undefined) {
      const above = depth.get(manager.email);
      if (above !== undefined) {
        value += above + 1;
        break;
      }
      value += 1;
    }
    depth.set(row.email, value);
    return value;
  };
  return [...created].sort((a, b) => depthOf(a) - depthOf(b));
}

interface Prepared {
  rows: CleanRow[];
  known: Map<string, Existing>;
  roleIds: Map<string, string>;
  changes: ImportChange[];
}

/** Reads what the company has, checks every row against it, and works out the plan. Throws 400 with every problem. */
async function prepare(db: Knex, caller: Caller, scope: CompanyScope, input: UsersImportRow[]): Promise<Prepared> {
  const rows = input.map(clean);
  const firstLine = new Map<string, number>();
  const firstIndex = new Map<string, number>();
  for (const row of rows) {
    if (firstLine.has(row.email)) continue;
    firstLine.set(row.email, row.line);
    firstIndex.set(row.email, row.index);
  }
  const known = await companyUsersWithRoles(db, scope);
  const roleIds = new Map((await listRoles(db, scope)).map((role) => [role.key, role.id]));
  const elsewhere = await emailsTakenElsewhere(db, scope, [...firstLine.keys()].filter((email) => EMAIL.test(email) && !known.has(email)));
  const roleKeys = new Set(roleIds.keys());
  const problems = new RowProblems();
  rows.forEach((row, index) => checkRow(row, input[index] as UsersImportRow, { roleKeys, firstLine, firstIndex, known, elsewhere }, problems));
  problems.throwIfAny('users');
  const emailOf = new Map([...known.values()].map((user) => [user.id, user.email]));
  const managers = managersAfter(rows, known, emailOf);
  for (const row of rows) {
    const cycle = managementCycle(row.email, managers);
    if (cycle) problems.add(row.index, row.line, 'manager', `would make a management cycle: ${cycle.join(' → ')}`);
  }
  problems.throwIfAny('users');
  const changes: ImportChange[] = [];
  for (const row of rows) {
    const existing = known.get(row.email);
    const action = actionFor(row, existing, emailOf);
    if (!action) continue;
    // Taking your own admin role away in a file is almost always a mistake, and locks you out.
    if (existing?.id === caller.userId && rolesChange(row, existing)) problems.add(row.index, row.line, 'roles', 'you cannot change your own roles with an import');
    const removed = existing && row.roles ? existing.roles.filter((key) => !row.roles?.includes(key)).sort() : [];
    changes.push({ line: row.line, key: row.email, action, ...(removed.length ? { removesRoles: removed } : {}) });
  }
  problems.throwIfAny('users');
  return { rows, known, roleIds, changes };
}

/** Writes the plan; the ids of everyone in the file, by e-mail. */
async function apply(trx: Knex, scope: CompanyScope, prepared: Prepared): Promise<Map<string, string>> {
  const now = new Date().toISOString();
  const byEmail = new Map(prepared.rows.map((row) => [row.email, row]));
  // New people get their ids first, so a manager created by this file can be pointed at.
  const idOf = new Map([...prepared.known.values()].map((user) => [user.email, user.id]));
  for (const change of prepared.changes) if (!idOf.has(change.key)) idOf.set(change.key, newId());
  const managerOf = (row: CleanRow): string | null => (row.manager ? (idOf.get(row.manager) ?? null) : null);
  const created: CleanRow[] = [];
  const grants: Record<string, unknown>[] = [];
  const regranted: string[] = [];
  for (const change of prepared.changes) {
    const row = byEmail.get(change.key);
    const id = idOf.get(change.key);
    if (!row || !id) continue;
    const existing = prepared.known.get(row.email);
    if (!existing) {
      created.push(row);
    } else {
      const fields = {
        ...(existing.first_name !== row.firstName || existing.last_name !== row.lastName ? { first_name: row.firstName, last_name: row.lastName } : {}),
        ...(row.manager !== undefined && managerOf(row) !== existing.manager_user_id ? { manager_user_id: managerOf(row) } : {}),
      };
      if (Object.keys(fields).length) await updateImportedUser(trx, scope, id, fields, now);
      if (!rolesChange(row, existing)) continue;
      regranted.push(id);
    }
    for (const key of row.roles ?? []) grants.push({ company_id: scope.companyId, user_id: id, role_id: prepared.roleIds.get(key) });
  }
  // Managers before their reports: each row's manager exists when it is inserted, so no second pass of updates.
  const users = managersFirst(created).map((row) => ({
    id: idOf.get(row.email),
    company_id: scope.companyId,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    manager_user_id: managerOf(row),
    created_at: now,
    updated_at: now,
  }));
  await insertInChunks(trx, 'users', users);
  await deleteRolesOfUsers(trx, scope, regranted);
  await insertInChunks(trx, 'user_roles', grants);
  return idOf;
}

function changesRoles(prepared: Prepared): boolean {
  const byEmail = new Map(prepared.rows.map((row) => [row.email, row]));
  return prepared.changes.some((change) => {
    const row = byEmail.get(change.key);
    const existing = prepared.known.get(change.key);
    return row !== undefined && (existing ? rolesChange(row, existing) : (row.roles ?? []).length > 0);
  });
}

/** Up to this many invitations are handed to the mail server before the import answers; more go on after it. */
const INVITATIONS_BEFORE_ANSWER = 100;

/** Who of the file gets an invitation: everyone it creates, and people in it still waiting for one (no password, no open link). */
async function invitees(trx: Knex, scope: CompanyScope, prepared: Prepared, idOf: Map<string, string>): Promise<Invitee[]> {
  const existing = prepared.rows.flatMap((row) => {
    const known = prepared.known.get(row.email);
    return known && known.status === 'active' ? [known.id] : [];
  });
  const waiting = await peopleWaitingForInvitation(trx, scope, existing);
  const created = new Set(prepared.changes.filter((change) => change.action === 'create').map((change) => change.key));
  const seen = new Set<string>();
  const out: Invitee[] = [];
  for (const row of prepared.rows) {
    const id = idOf.get(row.email) ?? prepared.known.get(row.email)?.id;
    if (!id || seen.has(id) || !(created.has(row.email) || waiting.has(id))) continue;
    seen.add(id);
    out.push({ id, email: row.email, firstName: row.firstName, isCandidate: false });
  }
  return out;
}

/**
 * Checks every row, then (unless a dry run) applies the plan in one transaction. Running it twice
 * changes nothing. With `invite`, the people it creates (and those in the file still waiting for an
 * invitation) are e-mailed a one-time link once it is committed.
 */
export async function importUsers(ctx: SecuredContext, input: { rows: UsersImportRow[]; dryRun?: boolean; invite?: boolean }): Promise<ImportPlan> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const dryRun = input.dryRun ?? false;
  const invite = input.invite ?? false;
  const { plan, invitations } = await deps.db.transaction(async (trx): Promise<{ plan: ImportPlan; invitations?: PreparedInvitations }> => {
    const prepared = await prepare(trx, caller, scope, input.rows);
    // A users editor may add and rename people, but handing out roles is a roles decision.
    if (changesRoles(prepared)) assertMayAssignRoles(caller);
    const plan = summarise(dryRun, prepared.changes, prepared.rows.length);
    if (dryRun) {
      if (!invite) return { plan };
      // New people have no ids before the import; the count is what matters.
      const waiting = await invitees(trx, scope, prepared, new Map(prepared.changes.filter((c) => c.action === 'create').map((c) => [c.key, c.key])));
      return { plan: { ...plan, invited: waiting.length } };
    }
    const idOf = plan.changes.length ? await apply(trx, scope, prepared) : new Map<string, string>();
    const people = invite ? await invitees(trx, scope, prepared, idOf) : [];
    if (!plan.changes.length && !people.length) return { plan: invite ? { ...plan, invited: 0 } : plan };
    const invitations = people.length ? await prepareInvitations(trx, ctx, scope, people) : undefined;
    await emit(trx, {
      companyId: scope.companyId,
      actorUserId: caller.userId,
      name: 'users.imported',
      subjectType: 'company',
      subjectId: scope.companyId,
      payload: { create: plan.create, update: plan.update, unchanged: plan.unchanged, invited: people.length },
    });
    return { plan: invite ? { ...plan, invited: people.length } : plan, invitations };
  });
  if (invitations) {
    const { log } = ctx;
    // A large file's e-mails go on after the answer, so the import does not wait on the mail server.
    if (invitations.sent.length <= INVITATIONS_BEFORE_ANSWER) ctx.afterCommit(() => invitations.send());
    else ctx.afterCommit(async () => void invitations.send().catch((error: unknown) => log.error({ err: error }, 'import invitations failed')));
  }
  return plan;
}
