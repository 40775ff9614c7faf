/**
 * How the PWA talks to the identity provider (spec §7, §8, §9): the numbers, the retries, the
 * silent-token lock, the provider's errors in words, the session-check cookie. Nothing here reads
 * the browser when it loads; `oidc.ts` applies it.
 */
export const PROVIDER = {
  /** Every request to the provider gives up after this long. */
  httpTimeoutSeconds: 10,
  /** The token exchange and refresh (POST oauth/token) are tried this many times in all. */
  tokenAttempts: 3,
  /** Clock leeway when checking a new ID token's times. */
  leewaySeconds: 60,
  /** A kept access token counts as expired this long before it does. */
  earlyExpirySeconds: 60,
  /** One tab at a time renews the token: each wait for the lock lasts 5 s, 10 waits in all. */
  silentLock: { name: 'paybench.token', timeoutMs: 5000, attempts: 10 },
  /** Says a sign-in happened here lately (renewed with every token), so a silent restore is worth trying. */
  sessionCheckCookie: { name: 'paybench.is.authenticated', days: 1 },
} as const;

/** The identity provider's failures the spec names (§8), and anything else. */
export type ProviderErrorCode =
  | 'timeout'
  | 'cancelled'
  | 'mfa_required'
  | 'missing_refresh_token'
  | 'state_mismatch'
  | 'missing_transaction'
  | 'login_required'
  | 'failed';

/** What a person reads for each. */
export const PROVIDER_MESSAGES: Readonly<Record<ProviderErrorCode, string>> = {
  timeout: 'The sign-in service did not answer in time. Please try again.',
  cancelled: 'Sign-in was cancelled: the sign-in window was closed (Popup closed). Please try again.',
  mfa_required: 'Your account needs a second sign-in step (multi-factor authentication). Please sign in again and complete it.',
  missing_refresh_token: 'Your session cannot be renewed on this device. Please sign in again.',
  state_mismatch: 'Invalid state: this answer from the sign-in service does not match the sign-in started here. Please sign in again.',
  missing_transaction: 'This sign-in was not started on this device, or it is already complete. Please sign in again.',
  login_required: 'Your session has ended. Please sign in again.',
  failed: 'Sign-in did not complete. Please try again.',
};

/** A failure of the identity provider, in words (`code` says which). */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly code: ProviderErrorCode,
    message: string = PROVIDER_MESSAGES[code],
  ) {
    super(message);
  }
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/**
 * The client library's failure as one of the spec's. `during` says what was being done: a
 * refresh the provider refuses (`invalid_grant`) means the session is over.
 */
export function providerError(error: unknown, during: 'sign-in' | 'refresh' = 'sign-in'): ProviderError {
  if (error instanceof ProviderError) return error;
  const name = field(error, 'name');
  const message = String(field(error, 'message') ?? '');
  const oauthError = field(error, 'error');
  if (name === 'ErrorTimeout') return new ProviderError('timeout');
  if (message.startsWith('Popup closed')) return new ProviderError('cancelled');
  if (name === 'ErrorResponse' && typeof oauthError === 'string') {
    if (oauthError === 'mfa_required') return new ProviderError('mfa_required');
    if (oauthError === 'login_required' || oauthError === 'interaction_required') return new ProviderError('login_required');
    if (oauthError === 'invalid_grant' && during === 'refresh') return new ProviderError('login_required');
    const said = field(error, 'error_description');
    return new ProviderError('failed', typeof said === 'string' && said ? said : PROVIDER_MESSAGES.failed);
  }
  if (message === 'A refresh_token is required') return new ProviderError('missing_refresh_token');
  if (message === 'No matching state found in storage') return new ProviderError('missing_transaction');
  if (message === 'No state in response' || message === 'State does not match') return new ProviderError('state_mismatch');
  return new ProviderError('failed');
}

/** A failure worth trying again: the network, not the provider's refusal. */
export function isTransient(error: unknown): boolean {
  const name = field(error, 'name');
  if (name === 'ErrorTimeout') return true;
  // fetch rejects with a TypeError when the request never got an answer.
  return error instanceof TypeError;
}

/** Runs `work` up to `attempts` times while it fails with a transient failure; `attempt` counts from 1. */
export async function withRetries<T>(work: (attempt: number) => Promise<T>, attempts: number = PROVIDER.tokenAttempts, retryable: (error: unknown) => boolean = isTransient): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= attempts || !retryable(error)) throw error;
    }
  }
}

/** The part of the browser's Web Locks API the silent-token lock needs. */
export interface LockRequester {
  request<T>(name: string, options: { signal: AbortSignal }, callback: () => Promise<T>): Promise<T>;
}

/**
 * Runs `work` holding the silent-token lock, so one tab renews while the others wait and then read
 * its result. Each wait lasts `timeoutMs`; after `attempts` waits it gives up with `timeout`.
 * Without the Web Locks API (an old browser) it simply runs.
 */
export async function withTokenLock<T>(work: () => Promise<T>, locks: LockRequester | undefined, { name, timeoutMs, attempts }: { name: string; timeoutMs: number; attempts: number } = PROVIDER.silentLock): Promise<T> {
  if (!locks) return work();
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let granted = false;
    try {
      return await locks.request(name, { signal: controller.signal }, () => {
        granted = true;
        clearTimeout(timer);
        return work();
      });
    } catch (error) {
      if (granted) throw error;
      // The wait ran out: wait again, up to the last attempt.
    } finally {
      clearTimeout(timer);
    }
  }
  throw new ProviderError('timeout');
}

/** Whether a token expiring at `expiresAt` (seconds) is still good at `now`, `margin` seconds early. */
export function isFresh(expiresAt: number | undefined, now: number, margin: number = PROVIDER.earlyExpirySeconds): boolean {
  return expiresAt !== undefined && expiresAt - margin > now;
}

/**
 * What is wrong with a new ID token's times at `now` (seconds), allowing `leeway` for clocks that
 * differ; null when nothing is.
 */
export function tokenTimesProblem(claims: { exp?: unknown; iat?: unknown }, now: number, leeway: number = PROVIDER.leewaySeconds): string | null {
  if (typeof claims.exp === 'number' && claims.exp + leeway < now) return 'The sign-in answer has already expired. Check this device’s clock, then sign in again.';
  if (typeof claims.iat === 'number' && claims.iat - leeway > now) return 'The sign-in answer was issued in the future. Check this device’s clock, then sign in again.';
  return null;
}

/** The session-check cookie as `document.cookie` takes it: set for a day, or removed. */
export function sessionCheckCookie(present: boolean, secure: boolean): string {
  const { name, days } = PROVIDER.sessionCheckCookie;
  const life = present ? `true; Max-Age=${days * 24 * 60 * 60}` : '; Max-Age=0';
  return `${name}=${life}; Path=/; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Whether a `document.cookie` string holds the session-check cookie. */
export function hasSessionCheckCookie(cookies: string): boolean {
  return cookies.split(';').some((cookie) => cookie.trim() === `${PROVIDER.sessionCheckCookie.name}=true`);
}
