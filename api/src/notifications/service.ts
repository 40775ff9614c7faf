import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type Caller, companyScope } from '../access/caller.js';
import { findUserRow } from '../access/usersStore.js';
import { badRequest } from '../http/errors.js';
import { subscribe } from '../platform/events.js';
import { postViaChatApp } from './chatApp/service.js';
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

/** Tells the owner (by the channels they chose) and the company's chat (the installed app, else the webhook) that a job ended. */
export const notifyJobEnded = subscribe('job.ended', 'notifications.jobEnded', async (event, deps) => {
  const { db, mailer, log, config } = deps;
  const ended = event.payload;
  const ownerId = event.actorUserId;
  if (!event.companyId || !ownerId) return;
  const kind = ended.status === 'succeeded' ? 'jobFinished' : 'jobFailed';
  const scope = { companyId: event.companyId };
  const text = ended.status === 'succeeded' ? `${ended.title} is ready. Open ${config.publicUrl}/home to download it.` : `${ended.title} failed: ${ended.message || 'no reason given'}.`;
  const owner = await findUserRow(db, ownerId);
  const personal = await userSettings(db, scope, ownerId);
  const company = await companySettings(db, scope);
  if (owner && owner.status === 'active' && personal.email.includes(kind)) {
    await mailer.send({ companyId: event.companyId, to: owner.email, subject: `Paybench: ${ended.title} ${ended.status === 'succeeded' ? 'is ready' : 'failed'}`, text });
  }
  if (company.chatEvents.includes(kind)) {
    // The installed chat app when the company has one with a channel; otherwise the webhook.
    const message = `${text} (${owner?.email ?? 'a user'})`;
    if (!(await postViaChatApp(deps, scope, message, log)) && company.chatWebhookUrl) await postToChat(company.chatWebhookUrl, message, log);
  }
});

export async function outbox(db: Knex, to: string | undefined) {
  const query = db('outbox_emails').orderBy('created_at', 'desc').limit(200);
  if (to) query.where('to_address', to.trim().toLowerCase());
  const rows = (await query) as { id: string; to_address: string; subject: string; text_body: string; status: 'held' | 'sent' | 'failed'; error: string | null; created_at: string | Date }[];
  return rows.map((row) => ({ id: row.id, to: row.to_address, subject: row.subject, text: row.text_body, status: row.status, error: row.error, createdAt: new Date(row.created_at).toISOString() }));
}
