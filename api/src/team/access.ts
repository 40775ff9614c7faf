import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { HttpError } from '../kernel/errors.js';
import { type EmployeeReach, employeeReach, reachOfGrants } from '../people/visibility.js';

/** What a caller of the team view may see: the records (`team`) and, within them, the pay (`employeeCompensation`). */
export interface TeamAccess {
  scope: CompanyScope;
  caller: Caller;
  /** Employees whose records the caller sees. */
  records: EmployeeReach;
  /** Employees whose pay the caller sees: both permissions must reach them. */
  pay: EmployeeReach;
  /** Whether the caller may see demographic fields. */
  demographics: boolean;
}

const BREADTH: Record<EmployeeReach['kind'], number> = { none: 0, self: 1, subtree: 2, all: 3 };

/** Both reaches start from the caller's own employee record, so the narrower one is their intersection. */
function narrower(a: EmployeeReach, b: EmployeeReach): EmployeeReach {
  return BREADTH[a.kind] <= BREADTH[b.kind] ? a : b;
}

/** The team view's operations are gated by the router (`x-module: teamview`): only companies with the module get here. */
export async function teamAccess(db: Knex, caller: Caller): Promise<TeamAccess> {
  const scope = companyScope(caller);
  const records = await employeeReach(db, scope, caller, 'team');
  const pay = narrower(records, await employeeReach(db, scope, caller, 'employeeCompensation'));
  return { scope, caller, records, pay, demographics: hasPermission(caller.permissions, 'demographics', 'view', 'all') };
}

/** The same when the caller's grants decide both reaches alone (no own record to read); undefined otherwise. */
export function teamAccessOfGrants(caller: Caller): TeamAccess | undefined {
  const records = reachOfGrants(caller, 'team');
  const pay = reachOfGrants(caller, 'employeeCompensation');
  if (!records || !pay) return undefined;
  return { scope: companyScope(caller), caller, records, pay: narrower(records, pay), demographics: hasPermission(caller.permissions, 'demographics', 'view', 'all') };
}

export const seesPay = (access: TeamAccess): boolean => access.pay.kind !== 'none';

/** Pay analytics without the pay permission are refused outright (the route may be open to `team`). */
export function requirePay(access: TeamAccess, what: string): void {
  if (!seesPay(access)) throw new HttpError(403, 'forbidden', { message: `${what} needs the employeeCompensation permission (view).` });
}

export function requireDemographics(access: TeamAccess, what: string): void {
  if (!access.demographics) throw new HttpError(403, 'forbidden', { message: `${what} needs the demographics permission (view).` });
}
