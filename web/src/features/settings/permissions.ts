import type { components } from '../../../../openapi.d.ts';

type Person = components['schemas']['Person'];

/**
 * The spec's permission check (§5), for what a screen offers; the server checks again on every call.
 * Edit needs an edit grant; view is met by edit or view; a scope must match the grant's or be `all`.
 */
export function can(person: Person | undefined, permission: string, authority: 'edit' | 'view', scope?: string): boolean {
  const grants = person?.permissionsV3[permission];
  if (!grants) return false;
  return grants.some((grant) => (authority === 'edit' ? grant.authority === 'edit' : true) && (scope === undefined || grant.scope === scope || grant.scope === 'all'));
}
