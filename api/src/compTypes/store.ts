import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { StoredChoice } from './catalog.js';

export interface CompTypeSettingsRow {
  company_id: string;
  types: string;
  updated_by: string | null;
  version: number | string;
  updated_at: string | Date;
}

export const settingsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('comp_type_settings').where('comp_type_settings.company_id', scope.companyId);

export async function findSettings(db: Knex, scope: CompanyScope): Promise<CompTypeSettingsRow | undefined> {
  return (await settingsOf(db, scope).first()) as CompTypeSettingsRow | undefined;
}

export async function insertSettings(db: Knex, row: CompTypeSettingsRow): Promise<void> {
  await db('comp_type_settings').insert(row);
}

export function parseChoices(text: string): Record<string, StoredChoice> {
  const parsed = JSON.parse(text) as unknown;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, StoredChoice>) : {};
}
