import type { ChatOAuthConfig } from '../../config.js';
import { HttpError } from '../../kernel/errors.js';

/**
 * A chat app that a company installs through OAuth: the admin approves it at the app's authorize
 * page, Paybench exchanges the code for a token, lists the workspace's channels and posts to the
 * chosen one. One implementation speaks the common chat-app web API (`conversations.list`,
 * `chat.postMessage`, `auth.revoke` under one base URL); another app plugs in by this interface.
 */
export interface ChatAppProvider {
  /** Stored with the installation, so a change of provider is noticed. */
  readonly id: string;
  authorizeUrl(state: string, redirectUri: string): string;
  exchangeCode(code: string, redirectUri: string): Promise<ChatAppGrant>;
  listChannels(token: string): Promise<ChatChannel[]>;
  postMessage(token: string, channelId: string, text: string): Promise<void>;
  /** Best effort: the token stops working at the app too. */
  revoke(token: string): Promise<void>;
}

export interface ChatAppGrant {
  accessToken: string;
  workspaceId: string | null;
  workspaceName: string | null;
}

export interface ChatChannel {
  id: string;
  name: string;
}

/** The OAuth client of this deployment (`PAYBENCH_CHAT_OAUTH_*`). */
const TIMEOUT_MS = 10_000;
const SCOPES = 'channels:read,groups:read,chat:write';
const MAX_CHANNEL_PAGES = 20;

const unreachable = (what: string): HttpError => new HttpError(502, 'chat_app_unreachable', { message: `The chat app could not be reached to ${what}. Please try again.` });
const refused = (what: string, reason: string): HttpError => new HttpError(502, 'chat_app_refused', { message: `The chat app refused to ${what}: ${reason}.` });

interface ApiAnswer {
  ok?: boolean;
  error?: string;
  [key: string]: unknown;
}

async function call(what: string, url: string, init: RequestInit): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw unreachable(what);
  }
  let body: ApiAnswer;
  try {
    body = (await response.json()) as ApiAnswer;
  } catch {
    throw refused(what, `it answered ${response.status} without JSON`);
  }
  if (!response.ok || body.ok === false) throw refused(what, typeof body.error === 'string' ? body.error : `status ${response.status}`);
  return body;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** The common chat-app web API: OAuth 2 code exchange, then methods under one base URL with the bearer token. */
export function webApiChatProvider(config: ChatOAuthConfig): ChatAppProvider {
  const api = (method: string) => `${config.apiUrl.replace(/\/+$/, '')}/${method}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return {
    id: 'chat_web_api',
    authorizeUrl(state, redirectUri) {
      const url = new URL(config.authorizeUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('scope', SCOPES);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },
    async exchangeCode(code, redirectUri) {
      const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: config.clientId, client_secret: config.clientSecret });
      const answer = await call('install the app', config.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body });
      const accessToken = text(answer.access_token);
      if (!accessToken) throw refused('install the app', 'no access token was given');
      const team = (answer.team ?? {}) as { id?: unknown; name?: unknown };
      return { accessToken, workspaceId: text(team.id), workspaceName: text(team.name) };
    },
    async listChannels(token) {
      const channels: ChatChannel[] = [];
      let cursor = '';
      for (let page = 0; page < MAX_CHANNEL_PAGES; page += 1) {
        const url = new URL(api('conversations.list'));
        url.searchParams.set('types', 'public_channel,private_channel');
        url.searchParams.set('exclude_archived', 'true');
        url.searchParams.set('limit', '200');
        if (cursor) url.searchParams.set('cursor', cursor);
        const answer = await call('list its channels', url.toString(), { headers: bearer(token) });
        for (const entry of Array.isArray(answer.channels) ? (answer.channels as { id?: unknown; name?: unknown }[]) : []) {
          const id = text(entry.id);
          if (id) channels.push({ id, name: text(entry.name) ?? id });
        }
        cursor = text((answer.response_metadata as { next_cursor?: unknown } | undefined)?.next_cursor) ?? '';
        if (!cursor) break;
      }
      return channels.sort((a, b) => a.name.localeCompare(b.name));
    },
    async postMessage(token, channelId, message) {
      await call('post the message', api('chat.postMessage'), {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ channel: channelId, text: message }),
      });
    },
    async revoke(token) {
      await call('disconnect', api('auth.revoke'), { method: 'POST', headers: bearer(token) });
    },
  };
}
