import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { notFound } from '../kernel/errors.js';
import { type PreviewEmployeeRow, type StatementEmployeeRow, previewEmployees, statementEmployee, statementEmployeeOfUser } from './peopleReads.js';
import { type EmployeeReach, employeeReach, isWithinReach } from '../people/visibility.js';

/** Whose statement a request reads, and as whom. */
export interface StatementSubject {
  scope: CompanyScope;
  employee: StatementEmployeeRow;
  viewer: 'self' | 'preview';
}

const BREADTH: Record<EmployeeReach['kind'], number> = { none: 0, self: 1, subtree: 2, all: 3 };

/**
 * Whose statements a caller may preview: `totalRewards` (the whole company, or themselves) or the
 * pay they may see (`employeeCompensation`: the company, or their reports). Both start from the
 * caller's own record, so the wider one covers the other.
 */
export async function previewReach(db: Knex, scope: CompanyScope, caller: Caller): Promise<EmployeeReach> {
  const statements = await employeeReach(db, scope, caller, 'totalRewards');
  const pay = await employeeReach(db, scope, caller, 'employeeCompensation');
  return BREADTH[pay.kind] > BREADTH[statements.kind] ? pay : statements;
}

/** The caller's own statement: 404 when their sign-in has no employee record. */
export async function ownSubject(db: Knex, caller: Caller): Promise<StatementSubject> {
  const scope = companyScope(caller);
  const employee = await statementEmployeeOfUser(db, scope, caller.userId);
  if (!employee) throw notFound('Your sign-in is not linked to an employee record, so there is no statement to show.');
  return { scope, employee, viewer: 'self' };
}

/** An employee's statement by id: their own, or within the caller's preview reach; anyone else is 404, as another company's id is. */
export async function subjectById(db: Knex, caller: Caller, employeeId: string): Promise<StatementSubject> {
  const scope = companyScope(caller);
  const employee = await statementEmployee(db, scope, employeeId);
  if (!employee) throw notFound();
  if (employee.user_id === caller.userId) return { scope, employee, viewer: 'self' };
  if (!(await isWithinReach(db, scope, await previewReach(db, scope, caller), employeeId))) throw notFound();
  return { scope, employee, viewer: 'preview' };
}

export async function previewCandidates(db: Knex, caller: Caller, search: string | undefined, limit: number): Promise<PreviewEmployeeRow[]> {
  const scope = companyScope(caller);
  return previewEmployees(db, scope, await previewReach(db, scope, caller), search, limit);
}
