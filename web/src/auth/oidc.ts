import { UserManager, WebStorageStateStore } from 'oidc-client-ts';

const origin = window.location.origin;

/**
 * The built-in provider speaks standard OpenID Connect, so the PWA uses a well-kept client
 * library: code + PKCE, refresh tokens (offline_access), tokens in local storage, renewal 60 s
 * before expiry (the library's own defaults cover the clock leeway).
 */
export const userManager = new UserManager({
  authority: origin,
  client_id: 'paybench-web',
  redirect_uri: `${origin}/auth0/callback`,
  post_logout_redirect_uri: `${origin}/logout`,
  response_type: 'code',
  scope: 'openid profile email offline_access',
  userStore: new WebStorageStateStore({ store: window.localStorage }),
  automaticSilentRenew: true,
  accessTokenExpiringNotificationTimeInSeconds: 60,
  loadUserInfo: false,
});

export const SESSION_EXPIRED_REASON = 'paybench.sessionExpiredReason';
export const VIEW_AS_KEY = 'paybench.viewAs';
export const COMPANY_AS_KEY = 'paybench.companyAs';

export async function accessToken(): Promise<string | undefined> {
  const user = await userManager.getUser();
  return user && !user.expired ? user.access_token : undefined;
}
