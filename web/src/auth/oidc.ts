import { type SigninRedirectArgs, type SigninSilentArgs, type User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { leaveSession } from './leave';
import { PROVIDER, ProviderError, hasSessionCheckCookie, isFresh, isTransient, providerError, sessionCheckCookie, tokenTimesProblem, withRetries, withTokenLock } from './policy';

export { COMPANY_AS_KEY, SESSION_EXPIRED_REASON, VIEW_AS_KEY } from './keys';

const origin = window.location.origin;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Sign-in transactions (state and PKCE verifier) and the signed-in user live in local storage. */
const stateStore = new WebStorageStateStore({ store: window.localStorage });

function setSessionCheckCookie(present: boolean): void {
  document.cookie = sessionCheckCookie(present, window.location.protocol === 'https:');
}

/** Whether someone got a token in this browser within the last day (the session-check cookie). */
export const hasRecentSession = (): boolean => hasSessionCheckCookie(document.cookie);

/**
 * The standard OpenID Connect client (code + PKCE, refresh tokens via offline_access, tokens in
 * local storage), with the spec's rules on top: the token exchange and refresh tried up to 3 times
 * when the network fails, one tab renewing at a time (the silent-token lock), the provider's
 * failures in words, the new ID token's times checked with a 60 s leeway, and the session-check
 * cookie kept for a day from the last token.
 */
class SessionManager extends UserManager {
  private initiated = false;
  private readonly initiatedListeners = new Set<(initiated: boolean) => void>();

  /** Whether this page has sent the person to the provider (one redirect at a time). */
  get loginInitiated(): boolean {
    return this.initiated;
  }

  /** Coming back to this page from the provider (the browser's Back keeps the page as it was): a new sign-in may start. */
  resetLoginInitiated(): void {
    this.initiated = false;
    for (const listener of this.initiatedListeners) listener(false);
  }

  /** Follows `loginInitiated`; returns the unsubscribe function. */
  onLoginInitiated(listener: (initiated: boolean) => void): () => void {
    this.initiatedListeners.add(listener);
    return () => this.initiatedListeners.delete(listener);
  }

  override async signinRedirect(args?: SigninRedirectArgs): Promise<void> {
    if (this.initiated) return;
    this.initiated = true;
    for (const listener of this.initiatedListeners) listener(true);
    try {
      await super.signinRedirect(args);
    } catch (error) {
      this.resetLoginInitiated();
      throw providerError(error);
    }
  }

  override async signinRedirectCallback(url: string = window.location.href): Promise<User> {
    // The transaction is read (and removed) before the exchange; kept here so a retry can use it.
    const stateId = new URL(url).searchParams.get('state');
    const transaction = stateId ? await stateStore.get(stateId) : null;
    try {
      const user = await withRetries(async (attempt) => {
        if (attempt > 1 && stateId && transaction) await stateStore.set(stateId, transaction);
        return super.signinRedirectCallback(url);
      });
      const problem = tokenTimesProblem(user.profile, nowSeconds());
      if (problem) {
        await super.removeUser();
        throw new ProviderError('failed', problem);
      }
      setSessionCheckCookie(true);
      return user;
    } catch (error) {
      const failure = providerError(error);
      if (failure.code === 'login_required') leaveSession('expired');
      throw failure;
    }
  }

  /**
   * Renews the tokens with the refresh token, holding the silent-token lock: a tab that waited
   * finds the token another tab just renewed and uses it.
   */
  override async signinSilent(args?: SigninSilentArgs): Promise<User | null> {
    const locks = typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : undefined;
    try {
      const user = await withTokenLock(async () => {
        const current = await this.getUser();
        if (current && isFresh(current.expires_at, nowSeconds())) return current;
        if (!current?.refresh_token) throw new ProviderError('missing_refresh_token');
        return withRetries(() => super.signinSilent(args));
      }, locks);
      if (user) setSessionCheckCookie(true);
      return user;
    } catch (error) {
      throw isTransient(error) ? error : providerError(error, 'refresh');
    }
  }

  override async removeUser(): Promise<void> {
    setSessionCheckCookie(false);
    await super.removeUser();
  }
}

export const userManager = new SessionManager({
  authority: origin,
  client_id: 'paybench-web',
  redirect_uri: `${origin}/auth0/callback`,
  post_logout_redirect_uri: `${origin}/logout`,
  response_type: 'code',
  scope: 'openid profile email offline_access',
  userStore: stateStore,
  stateStore,
  requestTimeoutInSeconds: PROVIDER.httpTimeoutSeconds,
  silentRequestTimeoutInSeconds: PROVIDER.httpTimeoutSeconds,
  automaticSilentRenew: true,
  accessTokenExpiringNotificationTimeInSeconds: PROVIDER.earlyExpirySeconds,
  loadUserInfo: false,
});

window.addEventListener('pageshow', (event) => {
  if (event.persisted) userManager.resetLoginInitiated();
});

/**
 * The bearer token for a call: the kept one while it has more than the early-expiry margin left,
 * else a renewed one. A session the provider no longer renews goes to /logout; without a network
 * the kept token is sent anyway (the device's kept answers still show).
 */
export async function accessToken(): Promise<string | undefined> {
  const user = await userManager.getUser();
  if (!user) return undefined;
  if (isFresh(user.expires_at, nowSeconds())) return user.access_token;
  try {
    return (await userManager.signinSilent())?.access_token ?? user.access_token;
  } catch (error) {
    if (isTransient(error) || (error instanceof ProviderError && error.code === 'timeout')) return user.access_token;
    leaveSession('expired');
    return undefined;
  }
}
