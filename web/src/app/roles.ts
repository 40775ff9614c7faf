import type { components } from '../../../openapi.d.ts';

type Person = components['schemas']['Person'];

/**
 * The spec's role check (§6): roles come from `companyRolesV2`, and a role check tests membership,
 * by the role's key (`admin`, `compensation_planner`, …). What a person may do is decided by
 * permissions (`features/settings/permissions.ts`), never by a role's name; this answers "is this
 * person one of the company's admins", for words and analytics.
 */
export function hasRole(person: Pick<Person, 'companyRolesV2'> | undefined, roleKey: string): boolean {
  return person?.companyRolesV2.some((role) => role.key === roleKey) ?? false;
}
