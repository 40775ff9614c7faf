import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';
import { type EmployeeReach, withinReach } from '../../people/visibility.js';
import type { EmployeeRow } from '../../people/store.js';
import { recordsInForce } from '../../people/reads/payInForce.js';

/* What levelling (market/levelling) reads of the people tables. */

/** What levelling reads of an employee: their job, place and currency, never more. */
export type LevellingEmployeeRow = Pick<
  EmployeeRow,
  'id' | 'employee_number' | 'first_name' | 'last_name' | 'title' | 'job_family_id' | 'level_id' | 'location_id' | 'country_code' | 'currency' | 'version'
>;

/** Active employees within the reach, by id, one page after the cursor. */
export async function employeesInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, limit: number, after: string | undefined): Promise<LevellingEmployeeRow[]> {
  const query = db('employees')
    .where('employees.company_id', scope.companyId)
    .andWhere('employees.status', 'active')
    .select('id', 'employee_number', 'first_name', 'last_name', 'title', 'job_family_id', 'level_id', 'location_id', 'country_code', 'currency', 'version')
    .orderBy('employees.id')
    .limit(limit);
  if (after) query.andWhere('employees.id', '>', after);
  return withinReach(query, scope, reach);
}

/** Which of these employees are within the reach (for a second permission on the same page). */
export async function idsWithinReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, ids: string[]): Promise<Set<string>> {
  if (reach.kind === 'all') return new Set(ids);
  if (reach.kind === 'none' || ids.length === 0) return new Set();
  const rows = (await withinReach(db('employees').where('employees.company_id', scope.companyId).whereIn('employees.id', ids).select('employees.id'), scope, reach)) as { id: string }[];
  return new Set(rows.map((row) => row.id));
}

export interface BaseSalary {
  /** Minor units of the currency. */
  amount: number;
  currency: string;
  effectiveDate: string;
}

/** The base salary in force on a day (`payInForce.ts`). */
export async function baseSalariesOn(db: Knex, scope: CompanyScope, employeeIds: string[], day: string): Promise<Map<string, BaseSalary>> {
  const salaries = new Map<string, BaseSalary>();
  if (employeeIds.length === 0) return salaries;
  const rows = (await recordsInForce(db, day)
    .where({ 'c.company_id': scope.companyId, 'c.type': 'base_salary' })
    .whereIn('c.employee_id', employeeIds)
    .select('c.employee_id', 'c.amount', 'c.currency', 'c.effective_date')) as { employee_id: string; amount: number | string; currency: string; effective_date: string }[];
  for (const row of rows) salaries.set(row.employee_id, { amount: Number(row.amount), currency: row.currency, effectiveDate: row.effective_date });
  return salaries;
}
