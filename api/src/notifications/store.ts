import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';

export type UserSettings = components['schemas']['UserNotificationSettings'];
export type CompanySettings = components['schemas']['CompanyNotificationSettings'];

export const DEFAULT_USER_SETTINGS: UserSettings = { email: ['jobFailed'], inApp: ['jobFinished', 'jobFailed', 'accessChanged'] };
export const DEFAULT_COMPANY_SETTINGS: CompanySettings = { chatWebhookUrl: null, chatEvents: [] };

const COMPANY_KEY = '';

async function read<T>(db: Knex, scope: CompanyScope, userId: string, fallback: T): Promise<T> {
  const row = await db('notification_settings').where({ company_id: scope.companyId, user_id: userId }).first<{ settings: string } | undefined>();
  return row ? (JSON.parse(row.settings) as T) : fallback;
}

async function write(db: Knex, scope: CompanyScope, userId: string, settings: unknown): Promise<void> {
  await db('notification_settings')
    .insert({ company_id: scope.companyId, user_id: userId, settings: JSON.stringify(settings), updated_at: new Date().toISOString() })
    .onConflict(['company_id', 'user_id'])
    .merge(['settings', 'updated_at']);
}

export const userSettings = (db: Knex, scope: CompanyScope, userId: string) => read(db, scope, userId, DEFAULT_USER_SETTINGS);
export const saveUserSettings = (db: Knex, scope: CompanyScope, userId: string, settings: UserSettings) => write(db, scope, userId, settings);
export const companySettings = (db: Knex, scope: CompanyScope) => read(db, scope, COMPANY_KEY, DEFAULT_COMPANY_SETTINGS);
export const saveCompanySettings = (db: Knex, scope: CompanyScope, settings: CompanySettings) => write(db, scope, COMPANY_KEY, settings);
