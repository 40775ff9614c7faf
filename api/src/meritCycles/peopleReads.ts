import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { EmployeeRow } from '../people/store.js';
import { recordsInForce } from '../people/reads/payInForce.js';

/* What merit cycles (api/src/meritCycles) read of the people tables when a cycle launches: every active employee, their place in the org tree, their leave and the base salary in force. */

/** What a cycle snapshots of an employee at launch. */
export type MeritCycleEmployeeRow = Pick<
  EmployeeRow,
  | 'id'
  | 'employee_number'
  | 'user_id'
  | 'first_name'
  | 'last_name'
  | 'title'
  | 'job_code'
  | 'department'
  | 'job_family_id'
  | 'level_id'
  | 'manager_id'
  | 'country_code'
  | 'location_id'
  | 'currency'
  | 'start_date'
  | 'employment_type'
  | 'performance_rating'
  | 'leave_start_date'
  | 'leave_end_date'
>;

export interface MeritCycleBase {
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** When the base in force was set: the last pay change. */
  effectiveDate: string;
}

/** Every active employee of the company, by last name, first name and id. */
export async function activeEmployeesForMeritCycle(db: Knex, scope: CompanyScope): Promise<MeritCycleEmployeeRow[]> {
  return db('employees')
    .where({ company_id: scope.companyId, status: 'active' })
    .select('id', 'employee_number', 'user_id', 'first_name', 'last_name', 'title', 'job_code', 'department', 'job_family_id', 'level_id', 'manager_id', 'country_code', 'location_id', 'currency', 'start_date', 'employment_type', 'performance_rating', 'leave_start_date', 'leave_end_date')
    .orderBy([{ column: 'last_name' }, { column: 'first_name' }, { column: 'id' }]);
}

/** The base salary in force on `day` of every employee of the company who has one (`payInForce.ts`), with the day it was set. */
export async function baseSalariesForMeritCycle(db: Knex, scope: CompanyScope, day: string): Promise<Map<string, MeritCycleBase>> {
  const rows = (await recordsInForce(db, day).where({ 'c.company_id': scope.companyId, 'c.type': 'base_salary' }).select('c.employee_id', 'c.amount', 'c.currency', 'c.effective_date')) as {
    employee_id: string;
    amount: number | string;
    currency: string;
    effective_date: string;
  }[];
  return new Map(rows.map((row) => [row.employee_id, { amount: Number(row.amount), currency: row.currency, effectiveDate: row.effective_date }]));
}

/** Names of the company's employees among `ids` (those that exist), for approval chains named by org branch. */
export async function employeeNamesForMeritCycle(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const wanted = [...new Set(ids)];
  for (let at = 0; at < wanted.length; at += 500) {
    const rows = (await db('employees').where({ company_id: scope.companyId }).whereIn('id', wanted.slice(at, at + 500)).select('id', 'first_name', 'last_name')) as { id: string; first_name: string; last_name: string }[];
    for (const row of rows) names.set(row.id, [row.first_name, row.last_name].filter(Boolean).join(' '));
  }
  return names;
}
