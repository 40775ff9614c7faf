import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { employeesOf } from '../people/store.js';

/*
 * What access requests (api/src/access) read of the people tables: whether each requester has an
 * employee record, and whether it leads anyone, so an admin sees who asks. Nothing is written.
 */

/** Per user with an employee record: true when the record has active reports (a manager). */
export async function leadsByUser(db: Knex, scope: CompanyScope, userIds: string[]): Promise<Map<string, boolean>> {
  if (!userIds.length) return new Map();
  const records = await employeesOf(db, scope).whereIn('employees.user_id', userIds).select<{ id: string; user_id: string }[]>('employees.id', 'employees.user_id');
  const leading = new Set(
    records.length
      ? (await employeesOf(db, scope).andWhere('employees.status', 'active').whereIn('employees.manager_id', records.map((row) => row.id)).distinct<{ manager_id: string }[]>('employees.manager_id')).map((row) => row.manager_id)
      : [],
  );
  const leads = new Map<string, boolean>();
  for (const record of records) leads.set(record.user_id, (leads.get(record.user_id) ?? false) || leading.has(record.id));
  return leads;
}
