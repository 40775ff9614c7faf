import type { Knex } from 'knex';

/** A sign-in identity as the identity layer sees it (the people module owns the rest). */
export interface UserRow {
  id: string;
  company_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  email_verified: boolean | number;
  is_internal_admin: boolean | number;
  is_candidate: boolean | number;
  status: string;
  external_subject: string | null;
  last_logout_at: string | Date | null;
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export async function findUserByEmail(db: Knex, email: string): Promise<UserRow | undefined> {
  return db<UserRow>('users').where({ email: normaliseEmail(email), status: 'active' }).first();
}

/** Whether an address has an account (in any company, of any status) and a password yet: one indexed lookup. */
export async function passwordStateByEmail(db: Knex, email: string): Promise<{ hasPassword: boolean; active: boolean } | undefined> {
  const row = await db('users')
    .where({ email: normaliseEmail(email) })
    .first<{ has_password: boolean | number; status: string } | undefined>(db.raw('password_hash is not null as has_password'), 'status');
  return row ? { hasPassword: Boolean(row.has_password), active: row.status === 'active' } : undefined;
}

export async function findUserById(db: Knex, id: string): Promise<UserRow | undefined> {
  return db<UserRow>('users').where({ id, status: 'active' }).first();
}

export async function recordLogin(db: Knex, id: string): Promise<void> {
  await db('users').where({ id }).update({ last_login_at: new Date().toISOString() });
}
