import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/*
 * What pay transparency (api/src/payTransparency) reads of the people tables: the employee record
 * a sign-in is linked to, names, and who receives the yearly notice of the right to information.
 * The category of workers and its pay are pay equity's (people/reads/payEquity.ts).
 */

export interface PayTransparencyEmployee {
  employeeId: string;
  name: string;
  userId: string | null;
}

interface EmployeeRow {
  id: string;
  first_name: string;
  last_name: string;
  user_id: string | null;
}

const presentEmployee = (row: EmployeeRow): PayTransparencyEmployee => ({
  employeeId: row.id,
  name: [row.first_name, row.last_name].filter(Boolean).join(' ') || 'Unnamed employee',
  userId: row.user_id,
});

const EMPLOYEE_COLUMNS = ['id', 'first_name', 'last_name', 'user_id'];

/** The employee record a sign-in is linked to (not a terminated one), if any. */
export async function employeeOfUser(db: Knex, scope: CompanyScope, userId: string): Promise<PayTransparencyEmployee | undefined> {
  const row = (await db('employees')
    .where({ company_id: scope.companyId, user_id: userId })
    .whereNot('status', 'terminated')
    .orderBy('id')
    .first(EMPLOYEE_COLUMNS)) as EmployeeRow | undefined;
  return row ? presentEmployee(row) : undefined;
}

export async function employeeNames(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = (await db('employees').where({ company_id: scope.companyId }).whereIn('id', [...new Set(ids)]).select(EMPLOYEE_COLUMNS)) as EmployeeRow[];
  return new Map(rows.map((row) => [row.id, presentEmployee(row).name]));
}

/** Everyone who receives the yearly notice: employees not gone, linked to an active sign-in of the company. */
export async function noticeRecipients(db: Knex, scope: CompanyScope): Promise<{ userId: string; email: string }[]> {
  const rows = (await db('employees as e')
    .join('users as u', 'u.id', 'e.user_id')
    .where({ 'e.company_id': scope.companyId, 'u.company_id': scope.companyId, 'u.status': 'active', 'u.is_candidate': false })
    .whereIn('e.status', ['active', 'starting'])
    .distinct('u.id', 'u.email')
    .orderBy('u.id')) as { id: string; email: string }[];
  return rows.map((row) => ({ userId: row.id, email: row.email }));
}
