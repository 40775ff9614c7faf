import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type Caller, companyScope } from '../access/caller.js';
import { findUserRow } from '../access/usersStore.js';
import { badRequest } from '../http/errors.js';
import type { JobRow } from '../jobs/store.js';
import type { Mailer } from './mailer.js';
import { type CompanySettings, type UserSettings, companySettings, saveCompanySettings, saveUserSettings, userSettings } from './store.js';

const WEBHOOK_TIMEOUT_MS = 5_000;

export const getUserSettings = (db: Knex, caller: Caller) => userSettings(db, companyScope(caller), caller.userId);

export async function putUserSettings(db: Knex, caller: Caller, settings: UserSettings) {
  await saveUserSettings(db, companyScope(caller), caller.userId, settings);
  return settings;
}

export const getCompanySettings = (db: Knex, caller: Caller) => companySettings(db, companyScope(caller));

/** Webhooks leave the server: https only (plain http only where explicitly allowed, for local testing). */
export async function putCompanySettings(db: Knex, caller: Caller, settings: CompanySettings, allowHttp: boolean) {
  if (settings.chatWebhookUrl) {
    const url = new URL(settings.chatWebhookUrl);
    if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
      throw badRequest('The chat webhook must be an https URL', [{ field: 'body.chatWebhookUrl', message: 'must use https' }]);
    }
  }
  await saveCompanySettings(db, companyScope(caller), settings);
  return settings;
}

async function postToChat(url: string, text: string, log: Logger): Promise<void> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    if (!response.ok) log.warn({ status: response.status }, 'chat webhook refused the notification');
  } catch (error) {
    log.warn({ err: error }, 'chat webhook could not be reached');
  }
}

const JOB_TITLES: Record<string, string> = { usersExport: 'Users export', benchmarkExport: 'Market data export' };

/** Tells the owner (by the channels they chose) and the company's chat that a job ended. */
export async function notifyJobEnded(db: Knex, mailer: Mailer, log: Logger, publicUrl: string, job: JobRow): Promise<void> {
  if (job.status !== 'succeeded' && job.status !== 'failed') return;
  const event = job.status === 'succeeded' ? 'jobFinished' : 'jobFailed';
  const scope = { companyId: job.company_id };
  const title = JOB_TITLES[job.type] ?? job.type;
  const text =
    job.status === 'succeeded'
      ? `${title} is ready. Open ${publicUrl}/home to download it.`
      : `${title} failed: ${job.message ?? 'no reason given'}.`;
  const owner = await findUserRow(db, job.owner_user_id);
  const personal = await userSettings(db, scope, job.owner_user_id);
  const company = await companySettings(db, scope);
  if (owner && owner.status === 'active' && personal.email.includes(event)) {
    await mailer.send({ companyId: job.company_id, to: owner.email, subject: `Paybench: ${title} ${job.status === 'succeeded' ? 'is ready' : 'failed'}`, text });
  }
  if (company.chatWebhookUrl && company.chatEvents.includes(event)) {
    await postToChat(company.chatWebhookUrl, `${text} (${owner?.email ?? 'a user'})`, log);
  }
}

export async function outbox(db: Knex, to: string | undefined) {
  const query = db('outbox_emails').orderBy('created_at', 'desc').limit(200);
  if (to) query.where('to_address', to.trim().toLowerCase());
  const rows = (await query) as { id: string; to_address: string; subject: string; text_body: string; status: 'held' | 'sent' | 'failed'; error: string | null; created_at: string | Date }[];
  return rows.map((row) => ({ id: row.id, to: row.to_address, subject: row.subject, text: row.text_body, status: row.status, error: row.error, createdAt: new Date(row.created_at).toISOString() }));
}
