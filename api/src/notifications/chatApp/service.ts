import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type Caller, type CompanyScope, companyScope } from '../../access/caller.js';
import { hashToken } from '../../access/tokens.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import { isoTimestamp } from '../../db/timestamps.js';
import type { AppDeps } from '../../deps.js';
import { HttpError, badRequest } from '../../kernel/errors.js';
import { emit } from '../../platform/events.js';
import { keyFor } from '../../kernel/secrets.js';
import { sealText, unsealText } from '../../kernel/secrets.js';
import { type ChatAppProvider, type ChatChannel, webApiChatProvider } from './provider.js';
import { type InstallationView, deleteInstallation, findInstallation, findState, forgetOldStates, insertState, markStateUsed, saveChannel, saveInstallation } from './store.js';

type ChatApp = components['schemas']['ChatApp'];
type Deps = Pick<AppDeps, 'config' | 'db' | 'log'>;

/** How long the admin has to approve the app at the chat app and come back. */
export const STATE_MINUTES = 10;

export const CHAT_APP_MESSAGES = {
  notConfigured: 'The chat app’s OAuth is not configured on this Paybench. Use a chat webhook instead.',
  notInstalled: 'Connect the chat app first.',
  noChannel: 'Choose the channel to post to first.',
  stateUnknown: 'This chat-app authorization was not started by you in this company. Connect the chat app again.',
  stateExpired: `This chat-app authorization expired (it works for ${STATE_MINUTES} minutes). Connect the chat app again.`,
  stateUsed: 'This chat-app authorization was already used. Connect the chat app again.',
  tokenLost: 'The chat app’s token can no longer be read (the secrets key changed). Connect the chat app again.',
  unknownChannel: 'is not a channel the chat app can post to',
} as const;

/** The provider this deployment installs, or undefined without `PAYBENCH_CHAT_OAUTH_*`; tests may put their own. */
export function chatProviderOf(deps: Pick<AppDeps, 'config'>): ChatAppProvider | undefined {
  return deps.config.chatOAuth ? webApiChatProvider(deps.config.chatOAuth) : undefined;
}

function requireProvider(deps: Pick<AppDeps, 'config'>): ChatAppProvider {
  const provider = chatProviderOf(deps);
  if (!provider) throw new HttpError(409, 'chat_app_not_configured', { message: CHAT_APP_MESSAGES.notConfigured });
  return provider;
}

/** Where the chat app sends the admin back: the notifications screen, which finishes the install. */
export const redirectUriOf = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}/settings/notifications`;

/** The credential a state is bound to: the sign-in session, else the API token, else the person. */
const credentialOf = (caller: Caller): string => (caller.signInSession ? `session:${caller.signInSession}` : caller.apiTokenId ? `token:${caller.apiTokenId}` : `user:${caller.userId}`);

function present(configured: boolean, row: InstallationView | undefined): ChatApp {
  if (!row) return { configured, installed: false, workspaceName: null, channel: null, installedAt: null, installedBy: null };
  const installer = [row.installer_first_name, row.installer_last_name].filter(Boolean).join(' ');
  return {
    configured,
    installed: true,
    workspaceName: row.workspace_name,
    channel: row.channel_id ? { id: row.channel_id, name: row.channel_name ?? row.channel_id } : null,
    installedAt: isoTimestamp(row.installed_at),
    installedBy: installer || null,
  };
}

export async function chatAppOf(ctx: { deps: Deps; caller: Caller }): Promise<ChatApp> {
  const { deps, caller } = ctx;
  return present(Boolean(chatProviderOf(deps)), await findInstallation(deps.db, companyScope(caller)));
}

/** A one-time state bound to the caller's sign-in and company, and the chat app's page to approve the app. */
export async function authorizeChatApp(ctx: { deps: Deps; caller: Caller }): Promise<components['schemas']['ChatAppAuthorization']> {
  const { deps, caller } = ctx;
  const provider = requireProvider(deps);
  const scope = companyScope(caller);
  const state = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + STATE_MINUTES * 60_000);
  await forgetOldStates(deps.db, scope, new Date(now.getTime() - 24 * 3600_000).toISOString());
  await insertState(deps.db, {
    id: newId(),
    company_id: scope.companyId,
    user_id: caller.userId,
    credential: credentialOf(caller),
    state_hash: hashToken(state),
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    used_at: null,
  });
  return { url: provider.authorizeUrl(state, redirectUriOf(deps.config.publicUrl)), expiresAt: expiresAt.toISOString() };
}

/** The state must be this caller's, in this company, unexpired and unused; it is spent before the code is exchanged. */
async function spendState(db: Knex, scope: CompanyScope, caller: Caller, state: string): Promise<void> {
  const row = await findState(db, scope, hashToken(state));
  const field = [{ field: 'body.state', message: 'is not accepted' }];
  if (!row || row.user_id !== caller.userId || row.credential !== credentialOf(caller)) throw new HttpError(400, 'chat_app_state_invalid', { message: CHAT_APP_MESSAGES.stateUnknown, errors: field });
  if (row.used_at) throw new HttpError(400, 'chat_app_state_used', { message: CHAT_APP_MESSAGES.stateUsed, errors: field });
  if (new Date(row.expires_at).getTime() <= Date.now()) throw new HttpError(400, 'chat_app_state_expired', { message: CHAT_APP_MESSAGES.stateExpired, errors: field });
  if (!(await markStateUsed(db, scope, row.id, new Date().toISOString()))) throw new HttpError(400, 'chat_app_state_used', { message: CHAT_APP_MESSAGES.stateUsed, errors: field });
}

export async function completeChatAppInstall(ctx: { deps: Deps; caller: Caller }, input: components['schemas']['ChatAppCallback']): Promise<ChatApp> {
  const { deps, caller } = ctx;
  const provider = requireProvider(deps);
  const scope = companyScope(caller);
  await spendState(deps.db, scope, caller, input.state);
  const grant = await provider.exchangeCode(input.code, redirectUriOf(deps.config.publicUrl));
  const now = new Date().toISOString();
  // The installation and its event are one change.
  await deps.db.transaction(async (trx) => {
    await saveInstallation(trx, {
      company_id: scope.companyId,
      provider: provider.id,
      workspace_id: grant.workspaceId,
      workspace_name: grant.workspaceName,
      token_sealed: sealText(keyFor(deps), grant.accessToken),
      channel_id: null,
      channel_name: null,
      installed_by: caller.userId,
      installed_at: now,
      updated_at: now,
    });
    await emit(trx, { name: 'chatApp.installed', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'chatApp', subjectId: scope.companyId, payload: { provider: provider.id, workspaceName: grant.workspaceName } });
  });
  return present(true, await findInstallation(deps.db, scope));
}

interface Installed {
  provider: ChatAppProvider;
  token: string;
  row: InstallationView;
}

async function installed(deps: Deps, scope: CompanyScope): Promise<Installed> {
  const provider = requireProvider(deps);
  const row = await findInstallation(deps.db, scope);
  if (!row) throw new HttpError(409, 'chat_app_not_installed', { message: CHAT_APP_MESSAGES.notInstalled });
  const token = unsealText(keyFor(deps), row.token_sealed);
  if (token === undefined) throw new HttpError(409, 'chat_app_token_lost', { message: CHAT_APP_MESSAGES.tokenLost });
  return { provider, token, row };
}

export async function chatAppChannels(ctx: { deps: Deps; caller: Caller }): Promise<ChatChannel[]> {
  const { deps, caller } = ctx;
  const { provider, token } = await installed(deps, companyScope(caller));
  return provider.listChannels(token);
}

export async function chooseChatAppChannel(ctx: { deps: Deps; caller: Caller }, channelId: string): Promise<ChatApp> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const { provider, token } = await installed(deps, scope);
  const channel = (await provider.listChannels(token)).find((entry) => entry.id === channelId);
  if (!channel) throw badRequest(`${channelId} ${CHAT_APP_MESSAGES.unknownChannel}`, [{ field: 'body.channelId', message: CHAT_APP_MESSAGES.unknownChannel }]);
  await deps.db.transaction(async (trx) => {
    await saveChannel(trx, scope, channel, new Date().toISOString());
    await emit(trx, { name: 'chatApp.channelChosen', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'chatApp', subjectId: scope.companyId, payload: { channelId: channel.id, channelName: channel.name } });
  });
  return present(true, await findInstallation(deps.db, scope));
}

export async function testChatApp(ctx: { deps: Deps; caller: Caller }): Promise<components['schemas']['ChatAppTestResult']> {
  const { deps, caller } = ctx;
  const { provider, token, row } = await installed(deps, companyScope(caller));
  if (!row.channel_id) throw new HttpError(409, 'chat_app_no_channel', { message: CHAT_APP_MESSAGES.noChannel });
  const text = `Test message from Paybench, sent by ${[caller.firstName, caller.lastName].filter(Boolean).join(' ') || caller.email}. Notifications will arrive in this channel.`;
  await provider.postMessage(token, row.channel_id, text);
  return { channel: { id: row.channel_id, name: row.channel_name ?? row.channel_id }, text, sentAt: new Date().toISOString() };
}

/** The token is forgotten here whatever the chat app answers; revoking it there is a courtesy. */
export async function disconnectChatApp(ctx: { deps: Deps; caller: Caller }): Promise<ChatApp> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const row = await findInstallation(deps.db, scope);
  const provider = chatProviderOf(deps);
  const token = row ? unsealText(keyFor(deps), row.token_sealed) : undefined;
  await deps.db.transaction(async (trx) => {
    await deleteInstallation(trx, scope);
    if (row) await emit(trx, { name: 'chatApp.disconnected', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'chatApp', subjectId: scope.companyId, payload: {} });
  });
  if (provider && token) {
    await provider.revoke(token).catch((error: unknown) => deps.log.warn({ err: error }, 'the chat app did not revoke its token'));
  }
  return present(Boolean(provider), undefined);
}

/**
 * Posts a notification through the installed app when the company has one with a channel. False
 * when it has none (the webhook, if any, is the way then); failures are logged, not thrown.
 */
export async function postViaChatApp(deps: Deps, scope: CompanyScope, text: string, log: Logger): Promise<boolean> {
  const provider = chatProviderOf(deps);
  if (!provider) return false;
  const row = await findInstallation(deps.db, scope);
  if (!row?.channel_id) return false;
  const token = unsealText(keyFor(deps), row.token_sealed);
  if (token === undefined) {
    log.warn({ companyId: scope.companyId }, 'the chat app token cannot be unsealed; connect the chat app again');
    return true;
  }
  try {
    await provider.postMessage(token, row.channel_id, text);
  } catch (error) {
    log.warn({ err: error }, 'the chat app refused the notification');
  }
  return true;
}
