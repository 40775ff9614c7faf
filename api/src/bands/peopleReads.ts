import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { type EmployeeReach, withinReach } from '../people/visibility.js';
import type { EmployeeRow } from '../people/store.js';
import { recordsInForce } from '../people/reads/payInForce.js';

/* What salary bands (api/src/bands) read of the people tables: active employees' job and place, and base pay in force. */

/** What bands read of an employee: their job, place, team (for out-of-band lists by team) and pay currency, never more. */
export type BandEmployeeRow = Pick<EmployeeRow, 'id' | 'first_name' | 'last_name' | 'title' | 'job_code' | 'job_family_id' | 'level_id' | 'country_code' | 'location_id' | 'currency' | 'department' | 'manager_id'>;

/** Every active employee of the company, by last name, first name and id. */
export async function activeEmployeesForBands(db: Knex, scope: CompanyScope): Promise<BandEmployeeRow[]> {
  return db('employees')
    .where({ 'employees.company_id': scope.companyId, 'employees.status': 'active' })
    .select('id', 'first_name', 'last_name', 'title', 'job_code', 'job_family_id', 'level_id', 'country_code', 'location_id', 'currency', 'department', 'manager_id')
    .orderBy([{ column: 'last_name' }, { column: 'first_name' }, { column: 'id' }]);
}

/** Active employees per family × level (those with both), for counting who maps to a company job. */
export async function activeCountsByFamilyLevel(db: Knex, scope: CompanyScope): Promise<{ jobFamilyId: string; levelId: string; count: number }[]> {
  const rows = (await db('employees')
    .where({ company_id: scope.companyId, status: 'active' })
    .whereNotNull('job_family_id')
    .whereNotNull('level_id')
    .groupBy('job_family_id', 'level_id')
    .select('job_family_id', 'level_id')
    .count({ count: '*' })) as { job_family_id: string; level_id: string; count: number | string }[];
  return rows.map((row) => ({ jobFamilyId: row.job_family_id, levelId: row.level_id, count: Number(row.count) }));
}

/** The ids of the active employees within the reach; null means all of them (no filter needed). */
export async function activeIdsWithinReach(db: Knex, scope: CompanyScope, reach: EmployeeReach): Promise<Set<string> | null> {
  if (reach.kind === 'all') return null;
  if (reach.kind === 'none') return new Set();
  const rows = (await withinReach(db('employees').where({ 'employees.company_id': scope.companyId, 'employees.status': 'active' }).select('employees.id'), scope, reach)) as { id: string }[];
  return new Set(rows.map((row) => row.id));
}

export interface BandBaseSalary {
  /** Minor units of the currency. */
  amount: number;
  currency: string;
}

/**
 * The base salary in force on a day of each of these employees who has one (`payInForce.ts`): one
 * company-wide read of the records in force, kept for the ids asked for (no join, so the plan does
 * not depend on the planner's statistics of a freshly imported company).
 */
export async function baseSalariesInForce(db: Knex, scope: CompanyScope, employeeIds: ReadonlySet<string>, day: string): Promise<Map<string, BandBaseSalary>> {
  const salaries = new Map<string, BandBaseSalary>();
  if (employeeIds.size === 0) return salaries;
  const rows = (await recordsInForce(db, day).where({ 'c.company_id': scope.companyId, 'c.type': 'base_salary' }).select('c.employee_id', 'c.amount', 'c.currency')) as {
    employee_id: string;
    amount: number | string;
    currency: string;
  }[];
  for (const row of rows) if (employeeIds.has(row.employee_id)) salaries.set(row.employee_id, { amount: Number(row.amount), currency: row.currency });
  return salaries;
}
