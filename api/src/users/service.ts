import type { Knex } from 'knex';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { versionConflict } from '../kernel/versions.js';
import type { SecuredContext, ServiceContext } from '../kernel/operations.js';
import { normaliseEmail } from '../access/users.js';
import { assertMayAssignRoles } from '../access/assignRoles.js';
import { type CompanyScope, companyScope } from '../access/caller.js';
import { type PermissionMap, invalidGrants } from '../access/permissions.js';
import { presentRole, presentUser } from '../access/present.js';
import {
  findRole,
  findRolesByIds,
  findRolesByKeys,
  insertRoles,
  parsePermissions,
  listRoles,
  rolesOfUsers,
  replaceUserRoles,
  updateRole,
} from '../access/store.js';
import { type FullUserRow, customerUsersOf, emailsOfUsers, findAnyUserByEmail, findCustomerUser, insertUser, updateUser } from '../access/usersStore.js';

type RoleInput = components['schemas']['RoleInput'];

async function withRoles(db: Knex, scope: CompanyScope, rows: FullUserRow[]) {
  const roles = await rolesOfUsers(db, scope, rows.map((row) => row.id));
  const managers = await emailsOfUsers(db, scope, rows.flatMap((row) => (row.manager_user_id ? [row.manager_user_id] : [])));
  return rows.map((row) => presentUser(row, roles.get(row.id) ?? [], row.manager_user_id ? (managers.get(row.manager_user_id) ?? null) : null));
}

export async function roles(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  return (await listRoles(db, companyScope(caller))).map(presentRole);
}

/** Whether two permission maps grant the same, whatever the order of names and grants. */
function samePermissions(a: PermissionMap, b: PermissionMap): boolean {
  const canonical = (map: PermissionMap) =>
    JSON.stringify(
      Object.entries(map)
        .filter(([, grants]) => grants.length > 0)
        .map(([name, grants]) => [name, grants.map((grant) => `${grant.authority}:${grant.scope}`).sort()] as const)
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return canonical(a) === canonical(b);
}

const roleKey = (name: string): string =>
  name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 48) || 'role';

/** Create (no id) or update (id + version, refused with 409 if someone changed it first). */
export async function saveRole(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: RoleInput) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const problems = invalidGrants(input.permissions);
  if (problems.length) throw badRequest('The role grants permissions that do not exist', problems);
  const now = new Date().toISOString();
  const role = await db.transaction(async (trx) => {
    if (!input.id) {
      const taken = new Set((await listRoles(trx, scope)).map((row) => row.key));
      let key = roleKey(input.name);
      for (let n = 2; taken.has(key); n += 1) key = `${roleKey(input.name)}_${n}`;
      const id = newId();
      const row = { id, company_id: scope.companyId, key, name: input.name.trim(), description: input.description ?? '', is_builtin: false, permissions: JSON.stringify(input.permissions), version: 1, created_at: now, updated_at: now };
      await insertRoles(trx, [row]);
      return row;
    }
    const existing = await findRole(trx, scope, input.id);
    if (!existing) throw notFound();
    if (existing.is_builtin && existing.key === 'admin') {
      throw new HttpError(409, 'builtin_role', { message: 'The Admin role cannot be changed, so a company always has someone who can manage it.' });
    }
    if (existing.is_builtin && !samePermissions(parsePermissions(existing), input.permissions)) {
      throw new HttpError(409, 'builtin_role', { message: `${existing.name} is a built-in role and keeps its permissions. Duplicate it to make a role of your own.` });
    }
    if (input.version === undefined) {
      throw new HttpError(428, 'precondition_required', { message: 'Send the version of the role you last read.', errors: [{ field: 'body.version', message: 'is required with id' }] });
    }
    const changes = { name: input.name.trim(), description: input.description ?? existing.description, permissions: JSON.stringify(input.permissions), updated_at: now };
    if (!(await updateRole(trx, scope, input.id, input.version, changes))) {
      throw versionConflict('this role', (await findRole(trx, scope, input.id))?.version);
    }
    return { ...existing, ...changes, version: input.version + 1 };
  });
  await emit(db, { companyId: scope.companyId, actorUserId: caller.userId, name: input.id ? 'role.updated' : 'role.created', subjectType: 'role', subjectId: role.id, payload: { permissions: input.permissions } });
  const counted = (await listRoles(db, scope)).find((row) => row.id === role.id);
  return presentRole(counted ?? role);
}

export async function usersInRole(ctx: Pick<ServiceContext, 'db' | 'caller'>, roleId: string) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  if (!(await findRole(db, scope, roleId))) throw notFound();
  const rows = await customerUsersOf(db, scope)
    .join('user_roles', 'user_roles.user_id', 'users.id')
    .where('user_roles.role_id', roleId)
    .andWhere('users.status', 'active')
    .select('users.*')
    .orderBy('users.email');
  return withRoles(db, scope, rows);
}

export interface UserListQuery {
  search?: string;
  role?: string;
  status: 'active' | 'removed';
  limit: number;
  cursor?: string;
}

/** Users by e-mail; the cursor is the last e-mail of the previous page. */
export async function listUsers(ctx: Pick<ServiceContext, 'db' | 'caller'>, query: UserListQuery) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const builder = customerUsersOf(db, scope).where('users.status', query.status).andWhere('users.is_candidate', false);
  if (query.search) {
    const like = `%${query.search.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    builder.andWhere((q) =>
      q
        .whereRaw("lower(users.email) like ? escape '\\'", [like])
        .orWhereRaw("lower(users.first_name || ' ' || users.last_name) like ? escape '\\'", [like]),
    );
  }
  if (query.role) {
    builder.whereIn('users.id', db('user_roles').join('roles', 'roles.id', 'user_roles.role_id').where('roles.key', query.role).andWhere('roles.company_id', scope.companyId).select('user_roles.user_id'));
  }
  if (query.cursor) builder.andWhere('users.email', '>', query.cursor);
  const rows = await builder.select('users.*').orderBy('users.email').limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return { users: await withRoles(db, scope, page), nextCursor: rows.length > query.limit ? (page.at(-1)?.email ?? null) : null };
}

export async function userFilterValues(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<components['schemas']['UserFilterValues']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const roleCounts = await listRoles(db, scope);
  const statuses = await customerUsersOf(db, scope).andWhere('users.is_candidate', false).select('users.status').count({ count: '*' }).groupBy('users.status');
  return {
    roles: roleCounts.map((role) => ({ key: role.key, name: role.name, count: role.user_count })),
    statuses: (['active', 'removed'] as const).map((status) => ({
      status,
      count: Number((statuses as { status: string; count: number | string }[]).find((row) => row.status === status)?.count ?? 0),
    })),
  };
}

export async function guests(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const rows = await customerUsersOf(db, scope).andWhere('users.is_candidate', true).andWhere('users.status', 'active').orderBy('users.email');
  return withRoles(db, scope, rows);
}

export async function getUser(ctx: Pick<ServiceContext, 'db' | 'caller'>, userId: string) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await findCustomerUser(db, scope, userId);
  if (!row) throw notFound();
  return (await withRoles(db, scope, [row]))[0];
}

async function rolesByKeys(db: Knex, scope: CompanyScope, keys: string[]): Promise<string[]> {
  const found = await findRolesByKeys(db, scope, keys);
  const missing = keys.filter((key) => !found.some((role) => role.key === key));
  if (missing.length) throw badRequest(`Unknown role: ${missing.join(', ')}`, missing.map((key) => ({ field: 'body.roleKeys', message: `${key} is not a role of this company` })));
  return found.map((role) => role.id);
}

export async function createUser(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: components['schemas']['UserInput']) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  // As when provisioning: a candidate sees their offer only and holds no company role.
  if (input.isCandidate && input.roleKeys?.length) throw badRequest('Candidates hold no roles.', [{ field: 'body.roleKeys', message: 'must be empty for a candidate' }]);
  if (input.roleKeys) assertMayAssignRoles(caller);
  const email = normaliseEmail(input.email);
  return db.transaction(async (trx) => {
    const existing = await findAnyUserByEmail(trx, email);
    if (existing) throw new HttpError(409, 'email_taken', { message: `${email} already has an account.` });
    const roleIds = await rolesByKeys(trx, scope, input.roleKeys ?? (input.isCandidate ? [] : ['employee']));
    const id = newId();
    await insertUser(trx, { id, email, company_id: scope.companyId, first_name: input.firstName.trim(), last_name: input.lastName.trim(), is_candidate: input.isCandidate ?? false });
    await replaceUserRoles(trx, scope, id, roleIds);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'user.created', subjectType: 'user', subjectId: id, payload: {} });
    const row = await findCustomerUser(trx, scope, id);
    if (!row) throw notFound();
    return (await withRoles(trx, scope, [row]))[0];
  });
}

/** Removes a user: their tokens stop working and, once that is committed, their sockets close on every node. */
export async function removeUser(ctx: SecuredContext, userId: string) {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  if (userId === caller.userId) throw new HttpError(409, 'cannot_remove_self', { message: 'You cannot remove yourself.' });
  const removed = await deps.db.transaction(async (trx) => {
    const row = await findCustomerUser(trx, scope, userId);
    if (!row) throw notFound();
    const now = new Date().toISOString();
    await updateUser(trx, userId, { status: 'removed', last_logout_at: now });
    await trx('api_tokens').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: now });
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'user.removed', subjectType: 'user', subjectId: userId, payload: {} });
    return (await withRoles(trx, scope, [{ ...row, status: 'removed' }]))[0];
  });
  ctx.afterCommit(async () => deps.realtime.disconnect({ userId }));
  return removed;
}

export async function setRoles(ctx: Pick<ServiceContext, 'db' | 'caller'>, userId: string, roleIds: string[]) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  assertMayAssignRoles(caller);
  return db.transaction(async (trx) => {
    const row = await findCustomerUser(trx, scope, userId);
    if (!row) throw notFound();
    if (row.is_candidate && roleIds.length) throw new HttpError(409, 'candidate', { message: 'Candidates hold no company role.' });
    const found = await findRolesByIds(trx, scope, roleIds);
    const missing = roleIds.filter((id) => !found.some((role) => role.id === id));
    if (missing.length) throw badRequest('Unknown role', missing.map((id) => ({ field: 'body.roleIds', message: `${id} is not a role of this company` })));
    await replaceUserRoles(trx, scope, userId, roleIds);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'user.roles.set', subjectType: 'user', subjectId: userId, payload: { roles: found.map((role) => role.key) } });
    return (await withRoles(trx, scope, [row]))[0];
  });
}
