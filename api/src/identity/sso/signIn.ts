import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import * as oidc from 'openid-client';
import type { AppDeps } from '../../deps.js';
import { sealText, secretsKey, unsealText } from '../../kernel/secrets.js';
import { enterpriseRedirectPage, errorPage, expiredPage, type Page } from '../provider/pages.js';
import { recordLogin } from '../../access/users.js';
import { personForSignIn } from './people.js';
import { ssoCallbackUrl } from './present.js';
import { discoverProvider, providerFailure, ProviderUnreachable } from './provider.js';
import { enabledConnection, type SsoConnectionWithDomains } from './store.js';

/** Where a company's provider returns to (the redirect URI registered with it). */
export const SSO_CALLBACK_PATH = /^\/auth\/sso\/callback\/?$/;

const FLOW_COOKIE = 'pb_sso';
const FLOW_COOKIE_PATH = '/auth/sso';
/** How long a person may take at their company's provider. */
const FLOW_TTL_MS = 10 * 60_000;
const SCOPE = 'openid email profile';

export const STATE_MISMATCH =
  'This sign-in could not be verified: the answer from your company\u2019s sign-in provider does not belong to the sign-in started in this browser (state mismatch). Start again from Paybench.';
export const FLOW_MISSING = 'This sign-in has expired or was started in another browser. Start again from Paybench.';

/** One sign-in at the company's provider, kept sealed in a cookie of this browser until it returns. */
interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  connectionId: string;
  /** The built-in provider's interaction that waits for the person. */
  uid: string;
  expiresAt: number;
}

const unreachable = (host: string, reason?: string): string =>
  `We could not reach your company\u2019s sign-in provider (${reason ?? host}). Try again in a moment; if it keeps failing, ask your company admin.`;

function send(ctx: Context, page: Page): void {
  ctx.status = page.status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page.html;
}

function readFlow(ctx: Context, key: Buffer): Flow | undefined {
  const sealed = ctx.cookies.get(FLOW_COOKIE);
  const opened = sealed ? unsealText(key, sealed) : undefined;
  if (!opened) return undefined;
  const flow = JSON.parse(opened) as Flow;
  return flow.expiresAt > Date.now() ? flow : undefined;
}

function writeFlow(ctx: Context, key: Buffer, flow: Flow | undefined): void {
  ctx.cookies.set(FLOW_COOKIE, flow ? sealText(key, JSON.stringify(flow)) : '', {
    path: FLOW_COOKIE_PATH,
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level navigation, which carries it.
    sameSite: 'lax',
    secure: ctx.secure,
    signed: false,
    maxAge: flow ? FLOW_TTL_MS : 0,
    overwrite: true,
  });
}

/**
 * Sends the browser to the company's provider (authorization code + PKCE, state and nonce) for the
 * built-in provider's interaction `uid`: by a redirect, or after a form by a page that moves on
 * itself (`form-action 'self'` refuses a form's redirect to another origin). Returns a message in words when the provider cannot be
 * reached (nothing was sent then; the caller shows it on its page).
 */
export async function startEnterpriseSignIn(
  ctx: Context,
  deps: AppDeps,
  signIn: { uid: string; connection: SsoConnectionWithDomains; email: string; via: 'redirect' | 'page' },
): Promise<string | undefined> {
  const { uid, connection, email, via } = signIn;
  const key = secretsKey(deps.config.dataDir);
  const secret = unsealText(key, connection.client_secret_sealed);
  const host = new URL(connection.issuer_url).host;
  if (secret === undefined) return 'Single sign-on for your company cannot be used until your company admin enters its client secret again.';
  let config: oidc.Configuration;
  try {
    config = await discoverProvider({ issuerUrl: connection.issuer_url, clientId: connection.client_id, clientSecret: secret });
  } catch (error) {
    deps.log.warn({ err: error, connectionId: connection.id }, 'company sign-in provider unavailable');
    return unreachable(host, error instanceof ProviderUnreachable ? error.message : undefined);
  }
  const flow: Flow = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
    connectionId: connection.id,
    uid,
    expiresAt: Date.now() + FLOW_TTL_MS,
  };
  const target = oidc.buildAuthorizationUrl(config, {
    redirect_uri: ssoCallbackUrl(deps.config.publicUrl),
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
    login_hint: email,
  });
  writeFlow(ctx, key, flow);
  if (via === 'page') {
    send(ctx, enterpriseRedirectPage(target.href));
    return undefined;
  }
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.redirect(target.href);
  return undefined;
}

const param = (ctx: Context, name: string): string | undefined => {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The return from a company's provider: the code is exchanged (PKCE, state and nonce checked),
 * the person resolved within the connection's company (made an employee on their first sign-in),
 * and the built-in provider's waiting interaction finished as them.
 */
export function enterpriseCallback(provider: Provider, deps: AppDeps): Middleware {
  const homeUrl = `${provider.issuer}/`;
  const failed = (ctx: Context, message: string, status: number): void => send(ctx, errorPage(homeUrl, message, status));

  async function handle(ctx: Context): Promise<void> {
    const key = secretsKey(deps.config.dataDir);
    const flow = readFlow(ctx, key);
    writeFlow(ctx, key, undefined);
    if (!flow) return failed(ctx, FLOW_MISSING, 400);
    if (param(ctx, 'state') !== flow.state) return failed(ctx, STATE_MISMATCH, 400);
    const refusedBy = param(ctx, 'error');
    if (refusedBy) {
      const description = param(ctx, 'error_description');
      return failed(ctx, `Your company\u2019s sign-in provider did not sign you in (${description ?? refusedBy}).`, 400);
    }

    const connection = await enabledConnection(deps.db, flow.connectionId);
    if (!connection) return failed(ctx, 'Single sign-on is no longer set up for your company. Sign in with your password, or ask your company admin.', 400);
    const host = new URL(connection.issuer_url).host;
    const secret = unsealText(key, connection.client_secret_sealed);
    if (secret === undefined) return failed(ctx, 'Single sign-on for your company cannot be used until your company admin enters its client secret again.', 500);

    let profile: { subject: string; claims: Record<string, unknown> };
    try {
      const config = await discoverProvider({ issuerUrl: connection.issuer_url, clientId: connection.client_id, clientSecret: secret });
      const current = new URL(ssoCallbackUrl(deps.config.publicUrl));
      current.search = ctx.querystring;
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      let claims: Record<string, unknown> = { ...idClaims };
      // Providers that follow the standard strictly give the e-mail at the user-info endpoint only.
      if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...claims };
      }
      profile = { subject: idClaims.sub, claims };
    } catch (error) {
      const failure = providerFailure(error);
      deps.log.warn({ err: error, connectionId: connection.id }, 'company sign-in did not complete');
      if (failure instanceof ProviderUnreachable) return failed(ctx, unreachable(host, failure.message), 502);
      return failed(ctx, `Your company\u2019s sign-in provider did not confirm the sign-in (${failure.message}). Start again from Paybench.`, 400);
    }

    const outcome = await personForSignIn(deps.db, connection, {
      subject: profile.subject,
      email: profile.claims.email,
      emailVerified: profile.claims.email_verified,
      givenName: profile.claims.given_name,
      familyName: profile.claims.family_name,
      name: profile.claims.name,
    });
    if ('refusal' in outcome) return failed(ctx, outcome.refusal, 403);
    if (outcome.created) deps.log.info({ userId: outcome.userId, connectionId: connection.id }, 'account made on first company sign-in');
    await recordLogin(deps.db, outcome.userId);

    const interaction = await provider.Interaction.find(flow.uid);
    if (!interaction) return send(ctx, expiredPage(homeUrl));
    interaction.result = { login: { accountId: outcome.userId, remember: true } };
    await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 303;
    ctx.redirect(interaction.returnTo);
  }

  return async (ctx, next) => {
    if (!SSO_CALLBACK_PATH.test(ctx.path) || ctx.method !== 'GET') return next();
    try {
      await handle(ctx);
    } catch (error) {
      deps.log.error({ err: error }, 'company sign-in failed');
      failed(ctx, 'Please wait a moment and try again.', 500);
    }
  };
}
