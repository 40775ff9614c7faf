import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { type CompensationRecordRow, type EmployeeRow, type EquityGrantRow, PAY_COMPONENT_TYPES, type PayComponentType, employeeGrants, employeeRecords, employeesOf, findEmployee, findEmployeeByUser } from '../people/store.js';
import { type EmployeeReach, withinReach } from '../people/visibility.js';

/*
 * What total-rewards statements (api/src/totalRewards) read of the people tables: one employee's
 * record, every pay record they have (the statement picks what is in force with `latestByType`, the
 * one rule of payInForce.ts) and their equity grants; and, for an admin's preview, whom they may
 * pick. Statements never write people data.
 */

/** What a statement reads of its employee. */
export type StatementEmployeeRow = Pick<
  EmployeeRow,
  'id' | 'user_id' | 'first_name' | 'last_name' | 'title' | 'department' | 'country_code' | 'currency' | 'start_date' | 'employment_type' | 'status' | 'termination_date'
>;

const pick = (row: EmployeeRow): StatementEmployeeRow => ({
  id: row.id,
  user_id: row.user_id,
  first_name: row.first_name,
  last_name: row.last_name,
  title: row.title,
  department: row.department,
  country_code: row.country_code,
  currency: row.currency,
  start_date: row.start_date,
  employment_type: row.employment_type,
  status: row.status,
  termination_date: row.termination_date,
});

/** The employee record linked to a sign-in, if there is one. */
export async function statementEmployeeOfUser(db: Knex, scope: CompanyScope, userId: string): Promise<StatementEmployeeRow | undefined> {
  const row = await findEmployeeByUser(db, scope, userId);
  return row && pick(row);
}

/** One of the company's employees, if the id is theirs. */
export async function statementEmployee(db: Knex, scope: CompanyScope, employeeId: string): Promise<StatementEmployeeRow | undefined> {
  const row = await findEmployee(db, scope, employeeId);
  return row && pick(row);
}

/** Every pay record of the employee, oldest first; on one day, base salary first (the order of PAY_COMPONENT_TYPES). */
export async function statementPayRecords(db: Knex, scope: CompanyScope, employeeId: string): Promise<CompensationRecordRow[]> {
  const rank = (type: string) => PAY_COMPONENT_TYPES.indexOf(type as PayComponentType);
  return (await employeeRecords(db, scope, employeeId)).sort((a, b) => a.effective_date.localeCompare(b.effective_date) || rank(a.type) - rank(b.type));
}

/** The employee's equity grants, by grant date. */
export function statementGrants(db: Knex, scope: CompanyScope, employeeId: string): Promise<EquityGrantRow[]> {
  return employeeGrants(db, scope, employeeId);
}

export interface PreviewEmployeeRow {
  id: string;
  first_name: string;
  last_name: string;
  title: string;
  department: string | null;
  country_code: string | null;
}

const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

/** Active employees within the reach whose name, title or e-mail matches, by last name, first name. */
export async function previewEmployees(db: Knex, scope: CompanyScope, reach: EmployeeReach, search: string | undefined, limit: number): Promise<PreviewEmployeeRow[]> {
  const query = withinReach(employeesOf(db, scope), scope, reach).andWhere('employees.status', 'active');
  const text = search?.trim();
  if (text) {
    const like = likePattern(text);
    query.andWhere((q) =>
      q
        .whereRaw("lower(employees.first_name || ' ' || employees.last_name) like ? escape '\\'", [like])
        .orWhereRaw("lower(coalesce(employees.email, '')) like ? escape '\\'", [like])
        .orWhereRaw("lower(employees.title) like ? escape '\\'", [like]),
    );
  }
  return query
    .select<PreviewEmployeeRow[]>('employees.id', 'employees.first_name', 'employees.last_name', 'employees.title', 'employees.department', 'employees.country_code')
    .orderBy([{ column: 'employees.last_name' }, { column: 'employees.first_name' }, { column: 'employees.id' }])
    .limit(limit);
}
