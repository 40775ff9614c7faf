import type { components } from '../contract-types.js';
import type { RoleRow } from './store.js';
import { parsePermissions } from './store.js';
import type { FullUserRow } from './usersStore.js';
import { isoTimestampOrNull } from '../db/timestamps.js';


export function presentRole(row: RoleRow & { user_count?: number }): components['schemas']['Role'] {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    isBuiltin: Boolean(row.is_builtin),
    permissions: parsePermissions(row),
    userCount: row.user_count ?? 0,
    version: Number(row.version),
  };
}

/** `managerEmail`: the e-mail of the user's manager, when they have one (the caller looks it up). */
export function presentUser(row: FullUserRow, roles: RoleRow[], managerEmail: string | null = null): components['schemas']['User'] {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    status: row.status === 'removed' ? 'removed' : 'active',
    isCandidate: Boolean(row.is_candidate),
    emailVerified: Boolean(row.email_verified),
    roles: roles.map((role) => ({ id: role.id, key: role.key, name: role.name })),
    lastLoginAt: isoTimestampOrNull(row.last_login_at),
    createdAt: new Date(row.created_at).toISOString(),
    manager: row.manager_user_id ? managerEmail : null,
  };
}
