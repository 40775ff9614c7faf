import type { Logger } from 'pino';
import { companyScope } from '../access/caller.js';
import { findUserRow } from '../access/usersStore.js';
import type { Config } from '../config.js';
import { badRequest } from '../kernel/errors.js';
import { AddressRefused, checkOutboundAddress, guardedFetch } from '../kernel/outbound.js';
import { subscribe } from '../platform/events.js';
import { postViaChatApp } from './chatApp/service.js';
import { type CompanySettings, type UserSettings, companySettings, saveCompanySettings, saveUserSettings, userSettings } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

const WEBHOOK_TIMEOUT_MS = 5_000;

export const getUserSettings = (ctx: Pick<ServiceContext, 'db' | 'caller'>) => userSettings(ctx.db, companyScope(ctx.caller), ctx.caller.userId);

export async function putUserSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, settings: UserSettings) {
  const { db, caller } = ctx;
  await saveUserSettings(db, companyScope(caller), caller.userId, settings);
  return settings;
}

export const getCompanySettings = (ctx: Pick<ServiceContext, 'db' | 'caller'>) => companySettings(ctx.db, companyScope(ctx.caller));

/** What a chat webhook may be: https (plain http too where allowed), on a public address (any where allowed). */
export interface WebhookPolicy {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
}

export const webhookPolicy = (config: Pick<Config, 'allowHttpWebhooks' | 'webhooksAllowPrivateNetworks'>): WebhookPolicy => ({
  allowHttp: config.allowHttpWebhooks,
  allowPrivateNetworks: config.webhooksAllowPrivateNetworks,
});

const ALLOW_PRIVATE = 'set PAYBENCH_WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true to allow private and special-purpose ones';

/** Why the webhook may not be called under the policy (its scheme, or its address by the outbound guard), if it may not. */
async function webhookProblem(text: string, policy: WebhookPolicy): Promise<{ message: string; field: string } | undefined> {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url) return { message: 'The chat webhook must be a URL', field: 'must be a URL' };
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) return { message: 'The chat webhook must be an https URL', field: 'must use https' };
  const refused = await checkOutboundAddress(url, { allowPrivateNetworks: policy.allowPrivateNetworks });
  if (refused instanceof AddressRefused) {
    return { message: `The chat webhook cannot be used: ${refused.message}; Paybench does not call such addresses (${ALLOW_PRIVATE}).`, field: 'is a loopback, private or special-purpose address' };
  }
  if (refused) return { message: `The chat webhook cannot be used: ${url.hostname} could not be found.`, field: 'could not be found' };
  return undefined;
}

/** Webhooks leave the server: https only, and never to the server's own networks (each allowed only for local testing). */
export async function putCompanySettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, settings: CompanySettings, policy: WebhookPolicy) {
  const { db, caller } = ctx;
  const problem = settings.chatWebhookUrl ? await webhookProblem(settings.chatWebhookUrl, policy) : undefined;
  if (problem) throw badRequest(problem.message, [{ field: 'body.chatWebhookUrl', message: problem.field }]);
  await saveCompanySettings(db, companyScope(caller), settings);
  return settings;
}

/** Posts through the outbound guard: a webhook saved before, or whose name now resolves elsewhere, is checked again. */
async function postToChat(url: string, text: string, policy: WebhookPolicy, log: Logger): Promise<void> {
  try {
    const scheme = new URL(url).protocol;
    if (scheme !== 'https:' && !(policy.allowHttp && scheme === 'http:')) return log.warn({ scheme }, 'chat webhook is not https; not called');
    const response = await guardedFetch(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }), signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS) },
      { allowPrivateNetworks: policy.allowPrivateNetworks },
    );
    await response.body?.cancel();
    if (!response.ok) log.warn({ status: response.status }, 'chat webhook refused the notification');
  } catch (error) {
    if (error instanceof AddressRefused) return log.warn({ reason: error.message }, 'chat webhook address refused; not called');
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
    if (!(await postViaChatApp(deps, scope, message, log)) && company.chatWebhookUrl) await postToChat(company.chatWebhookUrl, message, webhookPolicy(config), log);
  }
});

export async function outbox(ctx: Pick<ServiceContext, 'db'>, to: string | undefined) {
  const { db } = ctx;
  const query = db('outbox_emails').orderBy('created_at', 'desc').limit(200);
  if (to) query.where('to_address', to.trim().toLowerCase());
  const rows = (await query) as { id: string; to_address: string; subject: string; text_body: string; status: 'held' | 'sent' | 'failed'; error: string | null; created_at: string | Date }[];
  return rows.map((row) => ({ id: row.id, to: row.to_address, subject: row.subject, text: row.text_body, status: row.status, error: row.error, createdAt: new Date(row.created_at).toISOString() }));
}
