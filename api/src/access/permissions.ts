import type { Logger } from 'pino';
import type { components } from '../contract-types.js';

export type Authority = components['schemas']['Authority'];
export type PermissionGrant = components['schemas']['PermissionGrant'];
export type PermissionMap = components['schemas']['PermissionMap'];

interface PermissionDefinition {
  /** Its name in words, as screens and e-mails show it. */
  label: string;
  group: 'benchmarking' | 'people' | 'pay' | 'administration';
  description: string;
  scopes: string[];
}

/**
 * Every permission a role can grant. `view` reads, `edit` changes (and implies view).
 * Scopes: `all` (the whole company), `reports` (the holder's management subtree), `self` (their own records),
 * `zones` (salary bands: the pay zones that name the holder, bands/zoneAccess.ts).
 */
export const PERMISSIONS = {
  benchmarking: {
    label: 'Market data',
    group: 'benchmarking',
    description: 'view: query market data and export it; edit: save and share report queries, change benchmarking settings.',
    scopes: ['all'],
  },
  team: {
    label: 'Employees',
    group: 'people',
    description: 'view: see employees (job, manager, location) in the team view; edit: change their records and import people data.',
    scopes: ['all', 'reports'],
  },
  employeeCompensation: {
    label: 'Employee pay',
    group: 'people',
    description: 'view: see salaries, bonuses and equity of employees in scope; edit: change them.',
    scopes: ['all', 'reports'],
  },
  demographics: {
    label: 'Demographics',
    group: 'people',
    description: 'view: see demographic fields for pay-equity analysis.',
    scopes: ['all'],
  },
  bands: {
    label: 'Salary bands',
    group: 'pay',
    description: 'view: see salary bands, pay zones and surveys; edit: build and publish them. Scope zones: only the pay zones that name the holder.',
    scopes: ['all', 'zones'],
  },
  compensationPlanning: {
    label: 'Compensation planning',
    group: 'pay',
    description: 'view: see merit cycles and worksheets in scope; edit: plan and submit recommendations.',
    scopes: ['all', 'reports'],
  },
  offers: {
    label: 'Offers',
    group: 'pay',
    description: 'view: see offers to candidates; edit: create and send offers and offer letters.',
    scopes: ['all'],
  },
  totalRewards: {
    label: 'Total rewards',
    group: 'pay',
    description: 'view: read total-rewards statements in scope; edit: configure what statements show.',
    scopes: ['all', 'self'],
  },
  dataLab: {
    label: 'Data lab',
    group: 'pay',
    description: 'view: use the data lab (insights, bookmarks, the insights agent, pulse-survey results); edit: create and close pulse surveys, share bookmarks.',
    scopes: ['all'],
  },
  users: {
    label: 'Users',
    group: 'administration',
    description: 'view: list the company’s users; edit: add, import and remove users.',
    scopes: ['all'],
  },
  roles: {
    label: 'Roles',
    group: 'administration',
    description: 'view: see roles and who holds them; edit: create and change roles and assign them.',
    scopes: ['all'],
  },
  companySettings: {
    label: 'Company settings',
    group: 'administration',
    description: 'view: see company settings (currency, share price, valuation); edit: change them.',
    scopes: ['all'],
  },
  integrations: {
    label: 'Integrations',
    group: 'administration',
    description: 'view: see connected HR and equity systems; edit: connect, configure and sync them.',
    scopes: ['all'],
  },
} as const satisfies Record<string, PermissionDefinition>;

export type PermissionName = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as PermissionName[];
export const isPermissionName = (name: string): name is PermissionName => Object.hasOwn(PERMISSIONS, name);
/** A permission's name in words; an unknown one as it is. */
export const permissionLabel = (name: string): string => (isPermissionName(name) ? PERMISSIONS[name].label : name);

const GROUP_NAMES: Record<PermissionDefinition['group'], string> = {
  benchmarking: 'Market data',
  people: 'People',
  pay: 'Pay programs',
  administration: 'Administration',
};

export function permissionGroups(): components['schemas']['PermissionGroup'][] {
  return (Object.keys(GROUP_NAMES) as PermissionDefinition['group'][]).map((group) => ({
    id: group,
    name: GROUP_NAMES[group],
    permissions: PERMISSION_NAMES.filter((name) => PERMISSIONS[name].group === group).map((name) => ({
      name,
      label: PERMISSIONS[name].label,
      description: PERMISSIONS[name].description,
      scopes: [...PERMISSIONS[name].scopes],
    })),
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
    const definition = (PERMISSIONS as Record<string, PermissionDefinition>)[name];
    if (!definition) {
      problems.push({ field: `body.permissions.${name}`, message: `is not a permission; use one of: ${PERMISSION_NAMES.join(', ')}` });
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
