import type { Knex } from 'knex';
import { type BuiltinRoleKey, type PermissionMap, declaredPermissions, grant } from './permissions.js';
import { type RoleRow, insertRoles } from './store.js';
import { newId } from '../db/ids.js';

export interface BuiltinRole {
  key: BuiltinRoleKey;
  name: string;
  description: string;
  permissions: PermissionMap;
}

/**
 * The roles every company starts with. Companies can add their own; these cannot be renamed away.
 * What each grants is declared by the areas with their permissions (`roles` of `ownPermissions`).
 */
const ROLES: readonly Omit<BuiltinRole, 'permissions'>[] = [
  { key: 'admin', name: 'Admin', description: 'Everything: people, pay programs, market data, users, roles and settings.' },
  {
    key: 'compensation_planner',
    name: 'Compensation planner',
    description: 'Runs the pay programs: benchmarking, bands, merit cycles and offers, with every employee’s pay.',
  },
  { key: 'people_manager', name: 'People manager', description: 'Sees and plans pay for their own reports only; reads market data.' },
  { key: 'employee', name: 'Employee', description: 'Reads their own total-rewards statement.' },
  { key: 'analyst', name: 'Read-only analyst', description: 'Reads market data, bands, plans and pay across the company; changes nothing.' },
];

function grantsOf(key: BuiltinRoleKey): PermissionMap {
  const permissions = [...declaredPermissions()];
  if (key === 'admin') return Object.fromEntries(permissions.map(([name]) => [name, grant('edit')]));
  return Object.fromEntries(permissions.flatMap(([name, permission]) => {
    const grants = permission.roles?.[key];
    return grants ? [[name, grants]] : [];
  }));
}

/** The built-in roles with their grants, from the installed areas. */
export function builtinRoles(): BuiltinRole[] {
  return ROLES.map((role) => ({ ...role, permissions: grantsOf(role.key) }));
}

/** Every company starts with the built-in roles. */
export async function seedBuiltinRoles(db: Knex, companyId: string): Promise<Map<string, string>> {
  // A company may be made before the server has loaded the areas (the start-up thread's demo, a script).
  await import('../modules.js');
  const now = new Date().toISOString();
  const rows: RoleRow[] = builtinRoles().map((role) => ({
    id: newId(),
    company_id: companyId,
    key: role.key,
    name: role.name,
    description: role.description,
    is_builtin: true,
    permissions: JSON.stringify(role.permissions),
    version: 1,
    created_at: now,
    updated_at: now,
  }));
  await insertRoles(db, rows);
  return new Map(rows.map((row) => [row.key, row.id]));
}
