import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { type EmployeeReach, withinReach } from '../people/visibility.js';

/*
 * What pulse surveys (api/src/pulseSurveys) read of the people tables: who can answer (active
 * employees linked to an active sign-in of the company), the groups they fall in, and managers'
 * subtrees. Nothing of pay.
 */

export interface PulseSurveyPerson {
  employeeId: string;
  userId: string;
  department: string | null;
  locationId: string | null;
  levelId: string | null;
}

/** Everyone who could answer a survey of the company: active employees with an active sign-in. */
export async function pulseSurveyPeople(db: Knex, scope: CompanyScope): Promise<PulseSurveyPerson[]> {
  const rows = (await db('employees as e')
    .join('users as u', 'u.id', 'e.user_id')
    .where({ 'e.company_id': scope.companyId, 'e.status': 'active', 'u.company_id': scope.companyId, 'u.status': 'active' })
    .select('e.id', 'e.user_id', 'e.department', 'e.location_id', 'e.level_id')
    .orderBy('e.id')) as { id: string; user_id: string; department: string | null; location_id: string | null; level_id: string | null }[];
  return rows.map((row) => ({ employeeId: row.id, userId: row.user_id, department: row.department, locationId: row.location_id, levelId: row.level_id }));
}

/** The org tree (every employee of the company, whatever their status, with their manager), for managers' subtrees. */
export async function pulseSurveyOrg(db: Knex, scope: CompanyScope): Promise<{ employeeId: string; managerId: string | null }[]> {
  const rows = (await db('employees').where({ company_id: scope.companyId }).select('id', 'manager_id').orderBy('id')) as { id: string; manager_id: string | null }[];
  return rows.map((row) => ({ employeeId: row.id, managerId: row.manager_id }));
}

export interface PulseSurveyManager {
  employeeId: string;
  name: string;
}

/** Active employees within `reach` who manage at least one active employee, by name. */
export async function pulseSurveyManagers(db: Knex, scope: CompanyScope, reach: EmployeeReach): Promise<PulseSurveyManager[]> {
  const query = db('employees')
    .where({ company_id: scope.companyId, status: 'active' })
    .whereExists(function managesSomeone() {
      this.select(db.raw('1')).from('employees as r').whereRaw('r.manager_id = employees.id').andWhere({ 'r.company_id': scope.companyId, 'r.status': 'active' });
    });
  const rows = (await withinReach(query, scope, reach)
    .select('id', 'first_name', 'last_name')
    .orderBy([{ column: 'last_name' }, { column: 'first_name' }, { column: 'id' }])) as { id: string; first_name: string; last_name: string }[];
  return rows.map((row) => ({ employeeId: row.id, name: [row.first_name, row.last_name].filter(Boolean).join(' ') }));
}

/** Names of the company's employees among `ids`, for showing a survey's target. */
export async function pulseSurveyEmployeeNames(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = (await db('employees').where({ company_id: scope.companyId }).whereIn('id', [...new Set(ids)]).select('id', 'first_name', 'last_name')) as { id: string; first_name: string; last_name: string }[];
  return new Map(rows.map((row) => [row.id, [row.first_name, row.last_name].filter(Boolean).join(' ')]));
}
