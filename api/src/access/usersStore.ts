import type { Knex } from 'knex';
import { newId } from '../db/ids.js';
import { type UserRow, normaliseEmail } from './users.js';
import type { CompanyScope } from './caller.js';

export interface CompanyRow {
  id: string;
  key: string;
  name: string;
  domains: string;
  currency: string;
  share_price_micros: number;
  exercise_price_micros: number | null;
  valuation_minor: number | null;
  stock_exchange_mic: string | null;
  is_demo: boolean | number;
  onboarding: string;
  enterprise_tags: string;
  /** The error screen's override (both set, or both null). */
  error_screen_title?: string | null;
  error_screen_description?: string | null;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface FullUserRow extends UserRow {
  manager_user_id: string | null;
  preferences: string;
  onboarding: string;
  signup_details: string;
  terms_accepted_at: string | Date | null;
  last_login_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface ViewAsSessionRow {
  id: string;
  company_id: string;
  admin_user_id: string;
  target_user_id: string | null;
  mode: 'user' | 'company';
  reason: string;
  started_at: string | Date;
  ended_at: string | Date | null;
}

// ── users of a company ───────────────────────────────────────────────────────────────────

export function usersOf(db: Knex, scope: CompanyScope) {
  return db<FullUserRow>('users').where('users.company_id', scope.companyId);
}

/**
 * The company's own people: internal staff (support accounts, internal admins) who sit in a
 * company to help it are never among its users.
 */
export function customerUsersOf(db: Knex, scope: CompanyScope) {
  return usersOf(db, scope).andWhere('users.is_internal_admin', false);
}

export async function findCustomerUser(db: Knex, scope: CompanyScope, id: string): Promise<FullUserRow | undefined> {
  return customerUsersOf(db, scope).where('users.id', id).first();
}

/** The e-mails of some of the company's users, by id. */
export async function emailsOfUsers(db: Knex, scope: CompanyScope, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await usersOf(db, scope).whereIn('users.id', [...new Set(ids)]).select<{ id: string; email: string }[]>('users.id', 'users.email');
  return new Map(rows.map((row) => [row.id, row.email]));
}

export async function findCompanyUser(db: Knex, scope: CompanyScope, id: string): Promise<FullUserRow | undefined> {
  return usersOf(db, scope).where('users.id', id).first();
}

export async function findAnyUserByEmail(db: Knex, email: string): Promise<FullUserRow | undefined> {
  return db<FullUserRow>('users').where({ email: normaliseEmail(email) }).first();
}

export async function findUserRow(db: Knex, id: string): Promise<FullUserRow | undefined> {
  return db<FullUserRow>('users').where({ id }).first();
}

export async function insertUser(db: Knex, row: Partial<FullUserRow> & { id: string; email: string }): Promise<void> {
  const now = new Date().toISOString();
  await db('users').insert({ created_at: now, updated_at: now, ...row, email: normaliseEmail(row.email) });
}

export async function updateUser(db: Knex, id: string, changes: Partial<FullUserRow>): Promise<void> {
  await db('users').where({ id }).update({ ...changes, updated_at: new Date().toISOString() });
}

/** With an external issuer, the first valid token of a new subject creates its account (no company yet). */
export async function provisionExternalUser(db: Knex, subject: string, email: string | undefined): Promise<UserRow | undefined> {
  if (!email) return undefined;
  const existing = await findAnyUserByEmail(db, email);
  if (existing) {
    if (existing.external_subject && existing.external_subject !== subject) return undefined;
    await updateUser(db, existing.id, { external_subject: subject });
    return { ...existing, external_subject: subject };
  }
  const id = newId();
  await insertUser(db, { id, email, external_subject: subject, email_verified: true });
  return findUserRow(db, id);
}

// ── companies ────────────────────────────────────────────────────────────────────────────

export async function findCompany(db: Knex, scope: CompanyScope): Promise<CompanyRow | undefined> {
  return db<CompanyRow>('companies').where({ id: scope.companyId }).first();
}

export async function findCompanyByKey(db: Knex, key: string): Promise<CompanyRow | undefined> {
  return db<CompanyRow>('companies').where({ key }).first();
}

export async function findCompanyById(db: Knex, id: string): Promise<CompanyRow | undefined> {
  return db<CompanyRow>('companies').where({ id }).first();
}

// ── view-as sessions ─────────────────────────────────────────────────────────────────────

export async function findOpenViewAsSession(
  db: Knex,
  adminUserId: string,
  target: { userEmail: string } | { companyKey: string },
): Promise<ViewAsSessionRow | undefined> {
  const query = db<ViewAsSessionRow>('view_as_sessions as s')
    .where('s.admin_user_id', adminUserId)
    .whereNull('s.ended_at')
    .select('s.*');
  if ('userEmail' in target) {
    query.join('users as u', 'u.id', 's.target_user_id').where('u.email', normaliseEmail(target.userEmail)).andWhere('s.mode', 'user');
  } else {
    query.join('companies as c', 'c.id', 's.company_id').where('c.key', target.companyKey).andWhere('s.mode', 'company');
  }
  return query.orderBy('s.started_at', 'desc').first();
}
