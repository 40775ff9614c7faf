import type { Knex } from 'knex';
import type { CompanyScope } from './caller.js';
import { usersOf } from './usersStore.js';

/*
 * The company's users as the approval screens name them (chains, band-set approvers, zone owners):
 * a name, an e-mail and whether they still have access. Read in batches of 500 ids or addresses.
 */

export interface UserContact {
  id: string;
  name: string;
  email: string;
  active: boolean;
}

/** A user named as an approver; one since removed is still shown, as "A removed user". */
export interface NamedApprover {
  userId: string;
  name: string;
  email: string;
}

type UserRowPart = { id: string; first_name: string | null; last_name: string | null; email: string; status: string };

const contactOf = (row: UserRowPart): UserContact => ({ id: row.id, name: [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email, email: row.email, active: row.status === 'active' });

/** The company's users among `ids` (those that exist). */
export async function usersById(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<Map<string, UserContact>> {
  const wanted = [...new Set(ids)];
  const found = new Map<string, UserContact>();
  for (let at = 0; at < wanted.length; at += 500) {
    const rows = (await usersOf(db, scope).whereIn('users.id', wanted.slice(at, at + 500)).select('users.id', 'users.first_name', 'users.last_name', 'users.email', 'users.status')) as UserRowPart[];
    for (const row of rows) found.set(row.id, contactOf(row));
  }
  return found;
}

/** The company's users by e-mail (lower case). */
export async function usersByEmail(db: Knex, scope: CompanyScope, emails: readonly string[]): Promise<Map<string, UserContact>> {
  const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
  const found = new Map<string, UserContact>();
  for (let at = 0; at < wanted.length; at += 500) {
    const rows = (await usersOf(db, scope).whereIn('users.email', wanted.slice(at, at + 500)).select('users.id', 'users.first_name', 'users.last_name', 'users.email', 'users.status')) as UserRowPart[];
    for (const row of rows) found.set(row.email.toLowerCase(), contactOf(row));
  }
  return found;
}

export const approverOf = (userId: string, users: ReadonlyMap<string, UserContact>): NamedApprover => {
  const user = users.get(userId);
  return { userId, name: user?.name ?? 'A removed user', email: user?.email ?? '' };
};
