import type { components } from '../../../../openapi.d.ts';

type PermissionGroup = components['schemas']['PermissionGroup'];
type Grant = components['schemas']['PermissionGrant'];

/** "1 person", "3 people". */
export const people = (count: number): string => `${count.toLocaleString('en-US')} ${count === 1 ? 'person' : 'people'}`;

/** An authority in words. */
export const authorityWords = (authority: string): string => (authority === 'edit' ? 'can see and change' : 'can see');

/** A scope in words, as the end of a sentence about whose records. */
export const scopeWords = (scope: string): string =>
  scope === 'all' ? 'for the whole company' : scope === 'reports' ? 'for their reports' : scope === 'self' ? 'for themselves' : `for ${scope}`;

/** A permission's name in words, from the permission groups (the key itself only when unknown). */
export function permissionName(groups: readonly PermissionGroup[] | undefined, name: string): string {
  for (const group of groups ?? []) {
    const found = group.permissions.find((permission) => permission.name === name);
    if (found) return found.label;
  }
  return name;
}

/** "Employee pay: can see and change, for their reports". */
export function grantWords(groups: readonly PermissionGroup[] | undefined, name: string, grants: readonly Grant[]): string {
  return `${permissionName(groups, name)}: ${grants.map((grant) => `${authorityWords(grant.authority)} ${scopeWords(grant.scope)}`).join('; ')}`;
}
