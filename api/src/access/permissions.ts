import type { Logger } from 'pino';
import type { components } from '../contract-types.js';
import { type ApiModule, installedModules } from '../kernel/modules.js';

export type Authority = components['schemas']['Authority'];
export type PermissionGrant = components['schemas']['PermissionGrant'];
export type PermissionMap = components['schemas']['PermissionMap'];

/**
 * Every permission a role can grant, by name. The area that owns a permission adds it from its
 * `module.ts` and declares what it means there (`ownPermissions`):
 *
 *     declare module '../access/permissions.js' {
 *       interface Permissions { bands: true }
 *     }
 *
 * `view` reads, `edit` changes (and implies view). Scopes: `all` (the whole company), `reports`
 * (the holder's management subtree), `self` (their own records), `zones` (salary bands: the pay
 * zones that name the holder, bands/zoneAccess.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in each module
export interface Permissions {}

export type PermissionName = keyof Permissions & string;

export type PermissionGroupId = 'benchmarking' | 'people' | 'pay' | 'administration';

/** The built-in roles every company starts with (access/builtinRoles.ts). */
export type BuiltinRoleKey = 'admin' | 'compensation_planner' | 'people_manager' | 'employee' | 'analyst';

/** What an area says about a permission it owns. */
export interface PermissionDeclaration {
  /** Its name in words, as screens and e-mails show it. */
  label: string;
  group: PermissionGroupId;
  /** Its place in its group on screens and in lists (in tens). */
  order: number;
  description: string;
  scopes: readonly string[];
  /** What the built-in roles grant of it; the admin holds every permission with edit over `all`. */
  roles?: { readonly [Role in Exclude<BuiltinRoleKey, 'admin'>]?: PermissionGrant[] };
}

/** A grant of a permission to a built-in role: edit or view, over `all` unless told. */
export const grant = (authority: Authority, scope = 'all'): PermissionGrant[] => [{ authority, scope }];

const GROUP_NAMES: Record<PermissionGroupId, string> = {
  benchmarking: 'Market data',
  people: 'People',
  pay: 'Pay programs',
  administration: 'Administration',
};
const GROUPS = Object.keys(GROUP_NAMES) as PermissionGroupId[];

let known: { modules: readonly ApiModule[]; permissions: ReadonlyMap<PermissionName, PermissionDeclaration> } | undefined;

/** Every declared permission, in group order and then each one's order (the order screens list them). */
export function declaredPermissions(): ReadonlyMap<PermissionName, PermissionDeclaration> {
  const modules = installedModules();
  if (known?.modules !== modules) {
    const entries = modules.flatMap((module) => Object.entries(module.ownPermissions ?? {}) as [PermissionName, PermissionDeclaration][]);
    entries.sort(([, a], [, b]) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group) || a.order - b.order);
    known = { modules, permissions: new Map(entries) };
  }
  return known.permissions;
}

export const permissionNames = (): PermissionName[] => [...declaredPermissions().keys()];
export const isPermissionName = (name: string): name is PermissionName => declaredPermissions().has(name as PermissionName);
/** A permission's name in words; an unknown one as it is. */
export const permissionLabel = (name: string): string => declaredPermissions().get(name as PermissionName)?.label ?? name;

export function permissionGroups(): components['schemas']['PermissionGroup'][] {
  const permissions = [...declaredPermissions()];
  return GROUPS.map((group) => ({
    id: group,
    name: GROUP_NAMES[group],
    permissions: permissions
      .filter(([, permission]) => permission.group === group)
      .map(([name, permission]) => ({ name, label: permission.label, description: permission.description, scopes: [...permission.scopes] })),
  }));
}

/**
 * The permission check of the product specification (§5): the authority must be edit or view;
 * the person's permissions must exist; the permission must be granted; edit needs an edit entry
 * while view is met by edit or view; a requested scope must equal the entry's scope or `all`.
 * Unsupported authorities and missing permissions are logged as errors.
 */
export function hasPermission(
  permissions: PermissionMap | undefined,
  name: string,
  authority: string,
  scope: string | undefined,
  log?: Logger,
): boolean {
  if (authority !== 'edit' && authority !== 'view') {
    log?.error({ authority, permission: name }, 'unsupported permission authority');
    return false;
  }
  if (!permissions) {
    log?.error({ permission: name }, 'permissions unavailable for the permission check');
    return false;
  }
  const grants = permissions[name] ?? [];
  return grants.some(
    (grant) =>
      (authority === 'view' || grant.authority === 'edit') && (scope === undefined || grant.scope === scope || grant.scope === 'all'),
  );
}

/** Merges the grants of several roles; per permission and scope, edit absorbs view. */
export function resolvePermissions(roleMaps: PermissionMap[]): { resolved: PermissionMap; all: PermissionMap } {
  const all: PermissionMap = {};
  for (const map of roleMaps) {
    for (const [name, grants] of Object.entries(map)) {
      all[name] = [...(all[name] ?? []), ...grants];
    }
  }
  const resolved: PermissionMap = {};
  for (const [name, grants] of Object.entries(all)) {
    const byScope = new Map<string, Authority>();
    for (const grant of grants) {
      if (byScope.get(grant.scope) !== 'edit') byScope.set(grant.scope, grant.authority);
    }
    resolved[name] = [...byScope].map(([scope, authority]) => ({ authority, scope }));
  }
  return { resolved, all };
}

/** Rejects names and scopes a role may not grant; returns field messages. */
export function invalidGrants(map: PermissionMap): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const [name, grants] of Object.entries(map)) {
    const definition = declaredPermissions().get(name as PermissionName);
    if (!definition) {
      problems.push({ field: `body.permissions.${name}`, message: `is not a permission; use one of: ${permissionNames().join(', ')}` });
      continue;
    }
    grants.forEach((grant, index) => {
      if (!definition.scopes.includes(grant.scope)) {
        problems.push({ field: `body.permissions.${name}.${index}.scope`, message: `must be one of: ${definition.scopes.join(', ')}` });
      }
    });
  }
  return problems;
}
