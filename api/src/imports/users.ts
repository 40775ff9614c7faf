import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { assertMayAssignRoles } from '../access/assignRoles.js';
import { listRoles } from '../access/store.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { normaliseEmail } from '../identity/users.js';
import { type ImportChange, type ImportPlan, RowProblems, summarise } from './plan.js';
import { type ImportedUserRow, companyUsersWithRoles, deleteRolesOfUsers, emailsTakenElsewhere, insertInChunks, updateImportedUser } from './store.js';

type UsersImportRow = components['schemas']['UsersImportRow'];
type Existing = ImportedUserRow & { roles: string[] };

/** A row as it will be stored: trimmed, e-mail lower-cased, roles de-duplicated and sorted. */
interface CleanRow {
  index: number;
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  roles: string[];
  /** The manager's e-mail; '' for none; undefined when the file has no manager column (kept as it is). */
  manager: string | undefined;
}

// Deliberately plain: one @, no spaces, a dot in the domain. Deliverability is the mail server's business.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function clean(row: UsersImportRow, index: number): CleanRow {
  return {
    index,
    line: row.line,
    email: normaliseEmail(row.email),
    firstName: row.firstName.trim(),
    lastName: row.lastName.trim(),
    roles: [...new Set(row.roles.map((role) => role.trim()).filter(Boolean))].sort(),
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
  for (const role of row.roles) if (!ctx.roleKeys.has(role)) add('roles', `"${role}" is not a role of this company`);
  const manager = row.manager;
  if (!manager) return;
  if (!EMAIL.test(manager)) add('manager', `"${raw.manager}" is not an e-mail address`);
  else if (manager === row.email) add('manager', 'a person cannot manage themselves');
  else if (!ctx.firstLine.has(manager) && ctx.known.get(manager)?.status !== 'active') add('manager', `${manager} is neither in the file nor a user of this company`);
}

const sameRoles = (a: string[], b: string[]): boolean => a.length === b.length && [...a].sort().every((key, i) => key === b[i]);

/** Whether the row names a different manager than the user has (a missing column changes nothing). */
function managerChanges(row: CleanRow, existing: Existing, emailOf: Map<string, string>): boolean {
  if (row.manager === undefined) return false;
  const current = existing.manager_user_id ? (emailOf.get(existing.manager_user_id) ?? '') : '';
  return current !== row.manager;
}

function actionFor(row: CleanRow, existing: Existing | undefined, emailOf: Map<string, string>): ImportChange['action'] | undefined {
  if (!existing) return 'create';
  const changed =
    existing.first_name !== row.firstName || existing.last_name !== row.lastName || !sameRoles(existing.roles, row.roles) || managerChanges(row, existing, emailOf);
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
    if (existing?.id === caller.userId && !sameRoles(existing.roles, row.roles)) problems.add(row.index, row.line, 'roles', 'you cannot change your own roles with an import');
    changes.push({ line: row.line, key: row.email, action });
  }
  problems.throwIfAny('users');
  return { rows, known, roleIds, changes };
}

async function apply(trx: Knex, scope: CompanyScope, prepared: Prepared): Promise<void> {
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
      if (sameRoles(existing.roles, row.roles)) continue;
      regranted.push(id);
    }
    for (const key of row.roles) grants.push({ company_id: scope.companyId, user_id: id, role_id: prepared.roleIds.get(key) });
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
}

function changesRoles(prepared: Prepared): boolean {
  const byEmail = new Map(prepared.rows.map((row) => [row.email, row]));
  return prepared.changes.some((change) => {
    const row = byEmail.get(change.key);
    const existing = prepared.known.get(change.key);
    return row !== undefined && (existing ? !sameRoles(existing.roles, row.roles) : row.roles.length > 0);
  });
}

/** Checks every row, then (unless a dry run) applies the plan in one transaction. Running it twice changes nothing. */
export async function importUsers(db: Knex, caller: Caller, input: { rows: UsersImportRow[]; dryRun?: boolean }): Promise<ImportPlan> {
  const scope = companyScope(caller);
  const dryRun = input.dryRun ?? false;
  return db.transaction(async (trx) => {
    const prepared = await prepare(trx, caller, scope, input.rows);
    // A users editor may add and rename people, but handing out roles is a roles decision.
    if (changesRoles(prepared)) assertMayAssignRoles(caller);
    const plan = summarise(dryRun, prepared.changes, prepared.rows.length);
    if (dryRun || !plan.changes.length) return plan;
    await apply(trx, scope, prepared);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'users.imported', subjectType: 'company', subjectId: scope.companyId, payload: { create: plan.create, update: plan.update, unchanged: plan.unchanged } });
    return plan;
  });
}
