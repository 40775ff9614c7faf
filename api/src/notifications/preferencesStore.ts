import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/** A person's preferences as stored: only the events they chose, each channel on or off. */
export type StoredChoices = Partial<Record<string, { email: boolean; inApp: boolean }>>;

export interface PreferencesRow {
  company_id: string;
  user_id: string;
  preferences: string;
  version: number | string;
  updated_at: string | Date;
}

const rowOf = (db: Knex, scope: CompanyScope, userId: string): Knex.QueryBuilder => db('notification_preferences').where({ company_id: scope.companyId, user_id: userId });

export const preferencesRow = (db: Knex, scope: CompanyScope, userId: string) => rowOf(db, scope, userId);

export async function findPreferences(db: Knex, scope: CompanyScope, userId: string): Promise<PreferencesRow | undefined> {
  return (await rowOf(db, scope, userId).first()) as PreferencesRow | undefined;
}

export async function insertPreferences(db: Knex, row: PreferencesRow): Promise<void> {
  await db('notification_preferences').insert(row);
}
