import { hash } from 'node:crypto';
import { createLocalJWKSet } from 'jose';
import type { Context, Middleware } from 'koa';
import mount from 'koa-mount';
import Provider, { type Configuration, errors, type KoaContextWithOIDC, type TokenLike } from 'oidc-provider';
import type { AppDeps } from '../../deps.js';
import { HttpError } from '../../kernel/errors.js';
import { secretsKey } from '../../kernel/secrets.js';
import { findUserById } from '../../access/users.js';
import { endSession, knexAdapterFactory } from './adapter.js';
import { apiAudience, CLI_CLIENT_ID, clientName, firstPartyClients, SCOPES, WEB_CLIENT_ID } from './clients.js';
import { interactionRoutes } from './interactions.js';
import { INVITATION_PATH, invitationRoutes } from './invitationRoutes.js';
import { loadCookieKeys, loadSigningKeys, publicJwk } from './keys.js';
import { RESET_PATH, resetRoutes } from './resetRoutes.js';
import { enterpriseCallback, SSO_CALLBACK_PATH } from '../sso/signIn.js';
import { VERIFY_PATH, verifyRoutes } from './verifyRoutes.js';
import {
  AUTO_SUBMIT_SCRIPT,
  autoSignOutPage,
  deviceCodePage,
  deviceConfirmPage,
  deviceDonePage,
  errorPage,
  logoutPage,
  type Page,
  providerForm,
  signedOutPage,
  useAppFonts,
} from './pages.js';
import type { IdentityProvider } from '../../access/identityProvider.js';
import { accessTokenVerifier, SESSION_CLAIM } from './verify.js';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ACCESS_TOKEN_TTL = HOUR;
const SESSION_TTL = 14 * DAY;
/** CLI refresh tokens: an absolute lifetime, carried over on every rotation. */
const CLI_REFRESH_TOKEN_TTL = 30 * DAY;

/** The hosted-provider paths the PWA and the CLI expect. */
const ROUTES = {
  authorization: '/authorize',
  token: '/oauth/token',
  end_session: '/v2/logout',
  device_authorization: '/oauth/device/code',
  code_verification: '/oauth/device',
  jwks: '/.well-known/jwks.json',
  userinfo: '/userinfo',
  revocation: '/oauth/revoke',
};

/** Paths oidc-provider serves (including resume and confirm steps); everything else passes by untouched. */
export const PROVIDER_PATH =
  /^\/(?:authorize(?:\/[^/]+)?|oauth\/(?:token|revoke|device(?:\/[^/]+)?)|v2\/logout(?:\/confirm|\/success)?|userinfo|\.well-known\/(?:openid-configuration|oauth-authorization-server|jwks\.json))\/?$/;
export const INTERACTION_PATH = /^\/interaction\//;

function render(ctx: KoaContextWithOIDC, page: Page): void {
  ctx.status = page.status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page.html;
}

/** Lets the page's one inline script run: the policy names its hash (the rest stays 'self' only). */
function allowScript(ctx: KoaContextWithOIDC, script: string): void {
  const policy = ctx.response.get('content-security-policy');
  if (!policy) return;
  const digest = `'sha256-${hash('sha256', script, 'base64')}'`;
  ctx.set('Content-Security-Policy', policy.replace(/script-src ([^;]*)/, `script-src $1 ${digest}`));
}

/**
 * Sign-out without the "Sign out of Paybench?" question when the web app asks for it with a valid ID
 * token of the person signed in on this browser (signing out in the app, or after being signed out
 * elsewhere): the question guards against a sign-out another site starts, which lacks that token.
 */
async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
  const accountId = (ctx.oidc.session as { accountId?: string } | undefined)?.accountId;
  const fromTheApp = ctx.oidc.client?.clientId === WEB_CLIENT_ID && accountId !== undefined && hint?.payload?.sub === accountId;
  if (!fromTheApp) return render(ctx, logoutPage(providerForm(form)));
  allowScript(ctx, AUTO_SUBMIT_SCRIPT);
  render(ctx, autoSignOutPage(providerForm(form)));
}

/** The messages of oidc-provider's device-flow re-render errors, by error class name. */
function deviceError(error: Error | undefined): string | undefined {
  if (!error) return undefined;
  switch (error.name) {
    case 'NoCodeError':
      return 'Enter the code shown in your terminal.';
    case 'NotFoundError':
      return 'That code is not right. Check the code in your terminal and try again.';
    case 'ExpiredError':
      return 'That code has expired. Start again from your terminal.';
    case 'AlreadyUsedError':
      return 'That code has already been used. Start again from your terminal.';
    case 'AbortedError':
      return 'Sign-in was cancelled. Start again from your terminal if you want to connect it.';
    default:
      return 'Something went wrong. Start again from your terminal.';
  }
}

function configuration(deps: AppDeps, publicUrl: string, jwks: Configuration['jwks'], cookieKeys: string[]): Partial<Configuration> {
  const audience = apiAudience(publicUrl);
  const homeUrl = `${publicUrl}/`;
  const webOrigin = new URL(publicUrl).origin;

  return {
    adapter: knexAdapterFactory(deps.db),
    clients: firstPartyClients(publicUrl),
    jwks,
    cookies: {
      keys: cookieKeys,
      names: { session: 'pb_session', interaction: 'pb_interaction', resume: 'pb_interaction_resume' },
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    routes: ROUTES,
    scopes: [...SCOPES],
    // `screen_hint=signup` opens the sign-up page instead of sign-in, as hosted providers do.
    extraParams: ['screen_hint'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // The access token is for the API, so the ID token carries the profile (as hosted providers do).
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    clientAuthMethods: ['none'],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    async findAccount(_ctx, sub) {
      const user = await findUserById(deps.db, sub);
      if (!user) return undefined;
      return {
        accountId: user.id,
        claims: () => ({
          sub: user.id,
          email: user.email,
          email_verified: Boolean(user.email_verified),
          given_name: user.first_name,
          family_name: user.last_name,
          name: `${user.first_name} ${user.last_name}`.trim(),
        }),
      };
    },
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const user = await findUserById(deps.db, token.accountId);
      if (!user) return undefined;
      // Naming the session lets a logout through the API end it, like the provider's own sign-out.
      return token.sessionUid ? { email: user.email, [SESSION_CLAIM]: token.sessionUid } : { email: user.email };
    },
    // The web app's tokens end with the browser session (signing out ends them); the CLI's outlive it.
    async expiresWithSession(ctx, token) {
      return ctx.oidc.client?.clientId === WEB_CLIENT_ID || !token.scopes.has('offline_access');
    },
    // OpenID Connect drops offline_access unless prompt=consent; the web app's refresh tokens are
    // bound to the browser session anyway, so it gets them like it would from a hosted provider.
    async issueRefreshToken(_ctx, client, code) {
      if (!client.grantTypeAllowed('refresh_token')) return false;
      return client.clientId === WEB_CLIENT_ID || code.scopes.has('offline_access');
    },
    clientBasedCORS: (_ctx, origin, client) => client.clientId === WEB_CLIENT_ID && origin === webOrigin,
    async renderError(ctx, out) {
      const message = out.error_description ?? 'The sign-in request could not be completed.';
      render(ctx, errorPage(homeUrl, message, ctx.status >= 400 ? ctx.status : 400));
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: MINUTE,
      DeviceCode: 10 * MINUTE,
      IdToken: HOUR,
      Interaction: HOUR,
      Session: SESSION_TTL,
      Grant: CLI_REFRESH_TOKEN_TTL + DAY,
      RefreshToken: (ctx: KoaContextWithOIDC, token: TokenLike, client) => {
        const lifetime = client.clientId === CLI_CLIENT_ID ? CLI_REFRESH_TOKEN_TTL : SESSION_TTL;
        const rotated = ctx.oidc.entities.RotatedRefreshToken;
        return rotated ? Math.max(1, rotated.remainingTTL) : lifetime;
      },
    },
    features: {
      devInteractions: { enabled: false },
      // The API does not check DPoP proofs, so sender-constrained tokens would be accepted as plain bearers.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource,
        postLogoutSuccessSource: async (ctx) => render(ctx, signedOutPage(homeUrl)),
      },
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        userCodeInputSource: async (ctx, form, _out, error) => {
          const code = typeof ctx.oidc.params?.user_code === 'string' ? ctx.oidc.params.user_code : undefined;
          render(ctx, deviceCodePage(providerForm(form), code, deviceError(error)));
        },
        userCodeConfirmSource: async (ctx, form, client, _deviceInfo, userCode) =>
          render(ctx, deviceConfirmPage(providerForm(form), clientName(client.clientId), userCode)),
        successSource: async (ctx) => render(ctx, deviceDonePage(clientName(ctx.oidc.client?.clientId))),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => audience,
        // Without this, a request with `openid` would fall back to an opaque userinfo-only token.
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx, indicator) {
          if (indicator !== audience) throw new errors.InvalidTarget(`the only resource is ${audience}`);
          return { scope: '', audience, accessTokenFormat: 'jwt', accessTokenTTL: ACCESS_TOKEN_TTL, jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
  };
}

const LOGOUT_FORM_LIMIT = 16 * 1024;

/**
 * RP-initiated logout sent as a form post (OpenID Connect allows GET or POST): answered with the
 * same request as a GET. oidc-provider takes POST only with SameSite=None cookies, which these are not.
 */
async function logoutByPost(ctx: Context): Promise<void> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new HttpError(415, 'unsupported_media_type', { message: 'Send the sign-out as a form (application/x-www-form-urlencoded).' });
  let body = '';
  for await (const chunk of ctx.req) {
    body += String(chunk);
    if (body.length > LOGOUT_FORM_LIMIT) throw new HttpError(413, 'payload_too_large', { message: 'The sign-out form is too large.' });
  }
  const query = new URLSearchParams(body).toString();
  ctx.status = 303;
  ctx.redirect(query ? `/v2/logout?${query}` : '/v2/logout');
}

/** Serves the provider with its own cookie keys: koa-mount would otherwise sign with the (keyless) host app's. */
function providerMiddleware(provider: Provider, interactions: Middleware, invitations: Middleware, resets: Middleware, enterprise: Middleware, verifications: Middleware): Middleware {
  const downstream = mount(provider);
  return async (ctx: Context, next) => {
    if (INVITATION_PATH.test(ctx.path)) return invitations(ctx, next);
    if (RESET_PATH.test(ctx.path)) return resets(ctx, next);
    if (SSO_CALLBACK_PATH.test(ctx.path)) return enterprise(ctx, next);
    if (VERIFY_PATH.test(ctx.path)) return verifications(ctx, next);
    // The sign-out question's answer is a form post; opened again (back, reload) it goes to the app's sign-out.
    if (ctx.method === 'GET' && /^\/v2\/logout\/confirm\/?$/.test(ctx.path)) return ctx.redirect('/logout');
    if (ctx.method === 'POST' && /^\/v2\/logout\/?$/.test(ctx.path)) return logoutByPost(ctx);
    const interaction = INTERACTION_PATH.test(ctx.path);
    if (!interaction && !PROVIDER_PATH.test(ctx.path)) return next();
    // Client addresses and secure cookies follow the host app's proxy trust.
    provider.proxy = ctx.app.proxy;
    if (interaction) return interactions(ctx, next);
    ctx.cookies = provider.createContext(ctx.req, ctx.res).cookies;
    return downstream(ctx, next);
  };
}

export async function builtinIdentityProvider(deps: AppDeps): Promise<IdentityProvider> {
  // The issuer must match what clients discover byte for byte, so no trailing slash.
  const publicUrl = deps.config.publicUrl.replace(/\/+$/, '');
  // Sealed with the key of integration secrets: the database alone does not give the keys away.
  const sealingKey = secretsKey(deps.config.dataDir);
  const [signing, cookieKeys] = await Promise.all([loadSigningKeys(deps.db, sealingKey), loadCookieKeys(deps.db, sealingKey)]);
  const provider = new Provider(publicUrl, configuration(deps, publicUrl, { keys: signing.keys }, cookieKeys));
  useAppFonts(deps.config.webDist);
  provider.on('server_error', (_ctx: unknown, error: unknown) => deps.log.error({ err: error }, 'identity provider failed'));

  const keys = createLocalJWKSet({ keys: signing.keys.map(publicJwk) });
  const verifyOptions = { keys, issuer: publicUrl, audience: apiAudience(publicUrl), typ: 'at+jwt' };
  return {
    kind: 'builtin',
    issuer: publicUrl,
    middleware: providerMiddleware(
      provider,
      interactionRoutes(provider, deps),
      invitationRoutes(deps, `${publicUrl}/`),
      resetRoutes(deps, `${publicUrl}/`),
      enterpriseCallback(provider, deps),
      verifyRoutes(deps, `${publicUrl}/`),
    ),
    verifyAccessToken: accessTokenVerifier(async () => verifyOptions),
    endSession: (session) => endSession(deps.db, session),
  };
}
