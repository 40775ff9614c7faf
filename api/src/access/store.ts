import type { Knex } from 'knex';
import type { UserRow } from './users.js';
import type { CompanyScope } from './caller.js';
import type { FlagName } from './flags.js';
import type { PermissionMap } from './permissions.js';
import { writeAtVersion } from '../kernel/versions.js';

export interface RoleRow {
  id: string;
  company_id: string;
  key: string;
  name: string;
  description: string;
  is_builtin: boolean | number;
  permissions: string;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface ApiTokenRow {
  id: string;
  company_id: string | null;
  user_id: string;
  name: string;
  token_hash: string;
  token_prefix: string;
  created_at: string | Date;
  expires_at: string | Date | null;
  last_used_at: string | Date | null;
  revoked_at: string | Date | null;
}

export const parsePermissions = (row: Pick<RoleRow, 'permissions'>): PermissionMap => JSON.parse(row.permissions) as PermissionMap;

// ── roles (company-owned) ────────────────────────────────────────────────────────────────

export function rolesOf(db: Knex, scope: CompanyScope) {
  return db<RoleRow>('roles').where('roles.company_id', scope.companyId);
}

export async function listRoles(db: Knex, scope: CompanyScope): Promise<(RoleRow & { user_count: number })[]> {
  const counts = db('user_roles')
    .join('users', 'users.id', 'user_roles.user_id')
    .where('user_roles.company_id', scope.companyId)
    .andWhere('users.status', 'active')
    .andWhere('users.is_internal_admin', false)
    .select('user_roles.role_id')
    .count({ user_count: '*' })
    .groupBy('user_roles.role_id')
    .as('counts');
  const rows = await rolesOf(db, scope)
    .leftJoin(counts, 'counts.role_id', 'roles.id')
    .select('roles.*', 'counts.user_count')
    .orderBy([{ column: 'roles.is_builtin', order: 'desc' }, { column: 'roles.name' }]);
  return rows.map((row: RoleRow & { user_count: number | string | null }) => ({ ...row, user_count: Number(row.user_count ?? 0) }));
}

export async function findRole(db: Knex, scope: CompanyScope, id: string): Promise<RoleRow | undefined> {
  return rolesOf(db, scope).where('roles.id', id).first();
}

export async function findRolesByKeys(db: Knex, scope: CompanyScope, keys: string[]): Promise<RoleRow[]> {
  return keys.length ? rolesOf(db, scope).whereIn('roles.key', keys) : [];
}

export async function findRolesByIds(db: Knex, scope: CompanyScope, ids: string[]): Promise<RoleRow[]> {
  return ids.length ? rolesOf(db, scope).whereIn('roles.id', ids) : [];
}

export async function insertRoles(db: Knex, rows: RoleRow[]): Promise<void> {
  if (rows.length) await db('roles').insert(rows);
}

/** Optimistic update: true when the row still had `version`. */
export async function updateRole(
  db: Knex,
  scope: CompanyScope,
  id: string,
  version: number,
  changes: Pick<RoleRow, 'name' | 'description' | 'permissions' | 'updated_at'>,
): Promise<boolean> {
  return writeAtVersion(() => rolesOf(db, scope).where({ id }), version, changes);
}

/** Roles each user holds, for many users at once. */
export async function rolesOfUsers(db: Knex, scope: CompanyScope, userIds: string[]): Promise<Map<string, RoleRow[]>> {
  const result = new Map<string, RoleRow[]>();
  if (!userIds.length) return result;
  const rows = await db('user_roles')
    .join('roles', 'roles.id', 'user_roles.role_id')
    .where('user_roles.company_id', scope.companyId)
    .whereIn('user_roles.user_id', userIds)
    .select<(RoleRow & { user_id: string })[]>('roles.*', 'user_roles.user_id')
    .orderBy('roles.name');
  for (const row of rows) result.set(row.user_id, [...(result.get(row.user_id) ?? []), row]);
  return result;
}

export async function replaceUserRoles(db: Knex, scope: CompanyScope, userId: string, roleIds: string[]): Promise<void> {
  await db('user_roles').where({ company_id: scope.companyId, user_id: userId }).delete();
  if (roleIds.length) {
    await db('user_roles').insert(roleIds.map((roleId) => ({ company_id: scope.companyId, user_id: userId, role_id: roleId })));
  }
}

// ── flags (company-owned) ────────────────────────────────────────────────────────────────

export async function flagOverrides(db: Knex, scope: CompanyScope): Promise<Map<FlagName, boolean>> {
  const rows = await db('company_flags')
    .where({ company_id: scope.companyId })
    .select<{ flag: FlagName; enabled: boolean | number }[]>('flag', 'enabled');
  return new Map(rows.map((row) => [row.flag, Boolean(row.enabled)]));
}

export async function setFlag(db: Knex, scope: CompanyScope, flag: FlagName, enabled: boolean, actorId: string): Promise<void> {
  const row = { company_id: scope.companyId, flag, enabled, updated_by: actorId, updated_at: new Date().toISOString() };
  await db('company_flags').insert(row).onConflict(['company_id', 'flag']).merge(['enabled', 'updated_by', 'updated_at']);
}

// ── API tokens (owned by a user) ─────────────────────────────────────────────────────────

/** Whose credential: an API token by its hash, or a user by id or by an external issuer's subject. */
export type CredentialKey = { tokenHash: string } | { userId: string } | { externalSubject: string };

export type CallerRole = Pick<RoleRow, 'id' | 'key' | 'name' | 'permissions'>;

/** What a caller is built from, read together. */
export interface CallerRows {
  token: Pick<ApiTokenRow, 'id' | 'revoked_at' | 'expires_at'> | undefined;
  /** The active user (undefined when the token's user is not active). */
  user: UserRow | undefined;
  roles: CallerRole[];
  flags: Map<FlagName, boolean>;
}

/** A column `alias`: a JSON array of objects, ordered, from a correlated subquery; `[]` when it has no rows. */
function jsonArray(db: Knex, alias: string, fields: Record<string, string>, from: string, orderBy: string): Knex.Raw {
  const pairs = Object.entries(fields).map(([name, column]) => `'${name}', ${column}`).join(', ');
  return db.client.config.client === 'pg'
    ? db.raw(`coalesce((select json_agg(json_build_object(${pairs}) order by ${orderBy}) ${from}), '[]')::text as ${alias}`)
    : db.raw(`(select json_group_array(json_object(${pairs}) order by ${orderBy}) ${from}) as ${alias}`);
}

/**
 * The token (if the key is one), its active user, the user's roles and their company's flag
 * overrides in one query: one round trip per authenticated request where nothing can be kept.
 */
export async function callerRows(db: Knex, key: CredentialKey): Promise<CallerRows | undefined> {
  const roles = jsonArray(db, 'roles_json', { id: 'r.id', key: 'r.key', name: 'r.name', permissions: 'r.permissions' }, 'from user_roles ur join roles r on r.id = ur.role_id where ur.company_id = u.company_id and ur.user_id = u.id', 'r.name');
  const flags = jsonArray(db, 'flags_json', { flag: 'f.flag', enabled: 'f.enabled' }, 'from company_flags f where f.company_id = u.company_id', 'f.flag');
  const query =
    'tokenHash' in key
      ? db('api_tokens as t')
          .leftJoin('users as u', (join) => join.on('u.id', 't.user_id').andOnVal('u.status', 'active'))
          .where('t.token_hash', key.tokenHash)
          .select('t.id as token_id', 't.revoked_at as token_revoked_at', 't.expires_at as token_expires_at')
      : db('users as u').where('userId' in key ? { 'u.id': key.userId } : { 'u.external_subject': key.externalSubject }).andWhere('u.status', 'active');
  type Row = UserRow & { token_id?: string; token_revoked_at?: string | Date | null; token_expires_at?: string | Date | null; roles_json: string; flags_json: string };
  const row = await query.select('u.*', roles, flags).first<Row | undefined>();
  if (!row) return undefined;
  const { token_id: tokenId, token_revoked_at: revokedAt, token_expires_at: expiresAt, roles_json: rolesJson, flags_json: flagsJson, ...user } = row;
  return {
    token: tokenId ? { id: tokenId, revoked_at: revokedAt ?? null, expires_at: expiresAt ?? null } : undefined,
    user: user.id ? user : undefined,
    roles: JSON.parse(rolesJson) as CallerRole[],
    flags: new Map((JSON.parse(flagsJson) as { flag: FlagName; enabled: boolean | number }[]).map((entry) => [entry.flag, Boolean(entry.enabled)])),
  };
}

export async function touchToken(db: Knex, id: string): Promise<void> {
  await db('api_tokens').where({ id }).update({ last_used_at: new Date().toISOString() });
}

export async function tokensOfUser(db: Knex, userId: string): Promise<ApiTokenRow[]> {
  return db<ApiTokenRow>('api_tokens').where({ user_id: userId }).orderBy('created_at', 'desc');
}

export async function insertToken(db: Knex, row: ApiTokenRow): Promise<void> {
  await db('api_tokens').insert(row);
}

export async function revokeToken(db: Knex, userId: string, id: string): Promise<ApiTokenRow | undefined> {
  await db('api_tokens').where({ id, user_id: userId }).whereNull('revoked_at').update({ revoked_at: new Date().toISOString() });
  return db<ApiTokenRow>('api_tokens').where({ id, user_id: userId }).first();
}
