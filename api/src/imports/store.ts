import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { chunks } from '../kernel/importPlan.js';

export interface ImportedUserRow {
  id: string;
  company_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  status: string;
  manager_user_id: string | null;
}

/** Every user of the company with the role keys they hold, keyed by e-mail. */
export async function companyUsersWithRoles(db: Knex, scope: CompanyScope): Promise<Map<string, ImportedUserRow & { roles: string[] }>> {
  const users = await db<ImportedUserRow>('users')
    .where('company_id', scope.companyId)
    .select('id', 'company_id', 'email', 'first_name', 'last_name', 'status', 'manager_user_id');
  const held = await db('user_roles')
    .join('roles', 'roles.id', 'user_roles.role_id')
    .where('user_roles.company_id', scope.companyId)
    .select<{ user_id: string; key: string }[]>('user_roles.user_id', 'roles.key');
  const rolesByUser = new Map<string, string[]>();
  for (const row of held) rolesByUser.set(row.user_id, [...(rolesByUser.get(row.user_id) ?? []), row.key]);
  return new Map(users.map((user) => [user.email, { ...user, roles: rolesByUser.get(user.id) ?? [] }]));
}

/** E-mails among `emails` that already belong to someone outside the company (e-mails are unique across companies). */
export async function emailsTakenElsewhere(db: Knex, scope: CompanyScope, emails: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of chunks(emails)) {
    const rows = await db('users')
      .whereIn('email', part)
      .andWhere((q) => q.whereNot('company_id', scope.companyId).orWhereNull('company_id'))
      .select<{ email: string }[]>('email');
    for (const row of rows) taken.add(row.email);
  }
  return taken;
}

export async function deleteRolesOfUsers(db: Knex, scope: CompanyScope, userIds: string[]): Promise<void> {
  for (const part of chunks(userIds)) await db('user_roles').where('company_id', scope.companyId).whereIn('user_id', part).delete();
}

export async function updateImportedUser(
  db: Knex,
  scope: CompanyScope,
  id: string,
  fields: { first_name?: string; last_name?: string; manager_user_id?: string | null },
  now: string,
): Promise<void> {
  await db('users').where({ id, company_id: scope.companyId }).update({ ...fields, updated_at: now });
}

