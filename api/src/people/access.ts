import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { HttpError, badRequest, type FieldError } from '../kernel/errors.js';
import { type EmployeeReach, employeeReach } from './visibility.js';

/** What a caller may read of the people data: whom, whose pay, and whether demographics. */
export interface ReadAccess {
  team: EmployeeReach;
  pay: EmployeeReach;
  demographics: boolean;
}

export async function readAccess(db: Knex, scope: CompanyScope, caller: Caller): Promise<ReadAccess> {
  return {
    team: await employeeReach(db, scope, caller, 'team'),
    pay: await employeeReach(db, scope, caller, 'employeeCompensation'),
    demographics: hasPermission(caller.permissions, 'demographics', 'view', undefined),
  };
}

/** 403 in the catalogue's words when a change touches fields guarded by another permission. */
export function requirePermission(caller: Caller, permission: 'demographics' | 'employeeCompensation', what: string): void {
  if (!hasPermission(caller.permissions, permission, 'edit', undefined)) {
    throw new HttpError(403, 'forbidden', { message: `Changing ${what} needs the ${permission} permission (edit).` });
  }
}

/** Refuses the request with every field problem named; the message lists them too. */
export function throwIfInvalid(errors: FieldError[]): void {
  if (!errors.length) return;
  throw badRequest(errors.map((error) => `${error.field} ${error.message}`).join('; '), errors);
}

export const today = (): string => new Date().toISOString().slice(0, 10);
