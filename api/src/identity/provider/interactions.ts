import { randomBytes } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Interaction, InteractionResults } from 'oidc-provider';
import type Provider from 'oidc-provider';
import getRawBody from 'raw-body';
import type { AppDeps } from '../../deps.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { findUserByEmail, findUserById, normaliseEmail, recordLogin } from '../../access/users.js';
import { AUTO_CONSENT_CLIENTS, clientName } from './clients.js';
import {
  consentPage,
  errorPage,
  expiredPage,
  forgotPasswordPage,
  lockedMessage,
  type Page,
  resetLockedMessage,
  resetRequestedPage,
  signInPage,
  signUpPage,
  signUpSentPage,
} from './pages.js';
import { sendPasswordReset } from './resetRoutes.js';
import { connectionForEmail } from '../sso/people.js';
import { startEnterpriseSignIn } from '../sso/signIn.js';
import { sendAccountExists, sendEmailVerification } from './verifyRoutes.js';
import { createSignUpUser, EMAIL, readSignUp, validateSignUp } from './signup.js';
import { addressKey, clearFailures, emailKey, lockedUntil, releaseAttempt, reserveAttempts, resetAddressKey, resetEmailKey, signUpAddressKey, signUpEmailKey } from './throttle.js';

const ROUTE = /^\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(login|signup|consent|abort|forgot))?$/;
const FORM_LIMIT = '16kb';
const SIGN_IN_FAILED = 'Incorrect email or password.';

type Action = 'show' | 'login' | 'signup' | 'consent' | 'abort' | 'forgot';

interface Route {
  uid: string;
  action: Action;
  method: 'GET' | 'POST';
}

function matchRoute(ctx: Context): Route | undefined {
  const match = ROUTE.exec(ctx.path);
  if (!match?.[1] || (ctx.method !== 'GET' && ctx.method !== 'POST')) return undefined;
  const action = (match[2] ?? 'show') as Action;
  const allowed = ctx.method === 'GET' ? action === 'show' || action === 'signup' || action === 'forgot' : action !== 'show';
  return allowed ? { uid: match[1], action, method: ctx.method } : undefined;
}

export function send(ctx: Context, page: Page, headers: Record<string, string> = {}): void {
  ctx.status = page.status;
  ctx.type = 'html';
  ctx.set({ 'Cache-Control': 'no-store', ...headers });
  ctx.body = page.html;
}

function seeOther(ctx: Context, location: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.redirect(location);
}

export async function readForm(ctx: Context): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) return new URLSearchParams();
  return new URLSearchParams(await getRawBody(ctx.req, { limit: FORM_LIMIT, encoding: 'utf8' }));
}

export const isTooLarge = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'status' in error && error.status === 413;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const requestedScopes = (details: Interaction): string[] => (text(details.params.scope) ?? '').split(' ').filter(Boolean);

/** The interaction pages: sign-in, sign-up and consent, bound to the provider's interaction cookie. */
export function interactionRoutes(provider: Provider, deps: AppDeps): Middleware {
  const { db, log } = deps;
  const homeUrl = `${provider.issuer}/`;
  // Verifying against a throwaway hash keeps unknown e-mails as slow as wrong passwords.
  let decoyHash: Promise<string> | undefined;
  const decoy = (): Promise<string> => (decoyHash ??= hashPassword(randomBytes(16).toString('hex')));

  /** The interaction this browser is in, only when it is the one in the address (the cookie is the CSRF guard). */
  async function currentInteraction(ctx: Context, uid: string): Promise<Interaction | undefined> {
    try {
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      return details.uid === uid ? details : undefined;
    } catch {
      return undefined;
    }
  }

  async function finish(ctx: Context, result: InteractionResults, merge = false): Promise<void> {
    seeOther(ctx, await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge }));
  }

  async function grantConsent(ctx: Context, details: Interaction): Promise<void> {
    const accountId = details.session?.accountId;
    const clientId = text(details.params.client_id);
    if (!accountId || !clientId) return send(ctx, expiredPage(homeUrl));
    // Each device sign-in gets its own grant, so revoking one device leaves the others signed in.
    const existing = details.grantId && !details.deviceCode ? await provider.Grant.find(details.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(requestedScopes(details).join(' '));
    const missing = details.prompt.details.missingResourceScopes;
    if (missing && typeof missing === 'object') {
      for (const [indicator, scopes] of Object.entries(missing)) {
        if (Array.isArray(scopes)) grant.addResourceScope(indicator, scopes.join(' '));
      }
    }
    await finish(ctx, { consent: { grantId: await grant.save() } }, true);
  }

  /**
   * Domain discovery: an e-mail whose domain a company registered for enterprise sign-in goes to
   * that company's provider. True when the browser was sent there; a message when it could not be.
   */
  async function enterprise(ctx: Context, uid: string, email: string): Promise<true | string | undefined> {
    const connection = email ? await connectionForEmail(db, email) : undefined;
    if (!connection) return undefined;
    return (await startEnterpriseSignIn(ctx, deps, { uid, connection, email: normaliseEmail(email), via: ctx.method === 'POST' ? 'page' : 'redirect' })) ?? true;
  }

  async function show(ctx: Context, details: Interaction, action: Action): Promise<void> {
    const clientId = text(details.params.client_id);
    if (details.prompt.name === 'login') {
      const hint = text(details.params.login_hint);
      const signUp = action === 'signup' || (action === 'show' && text(details.params.screen_hint) === 'signup');
      if (signUp) return send(ctx, signUpPage({ uid: details.uid, values: { email: hint ?? '', firstName: '', lastName: '' }, errors: {} }));
      if (action === 'forgot') return send(ctx, forgotPasswordPage({ uid: details.uid, email: hint }));
      const routed = hint ? await enterprise(ctx, details.uid, hint) : undefined;
      if (routed === true) return;
      return send(ctx, signInPage({ uid: details.uid, email: hint, clientName: clientName(clientId), error: routed }));
    }
    if (details.prompt.name === 'consent') {
      if (clientId && AUTO_CONSENT_CLIENTS.has(clientId)) return grantConsent(ctx, details);
      const user = details.session ? await findUserById(db, details.session.accountId) : undefined;
      return send(ctx, consentPage({ uid: details.uid, clientName: clientName(clientId), email: user?.email, scopes: requestedScopes(details) }));
    }
    return send(ctx, errorPage(homeUrl, 'This sign-in step is not supported.', 400));
  }

  async function login(ctx: Context, details: Interaction): Promise<void> {
    const form = await readForm(ctx);
    const email = normaliseEmail(form.get('email') ?? '');
    const password = form.get('password') ?? '';
    const view = { uid: details.uid, email, clientName: clientName(text(details.params.client_id)) };
    const routed = await enterprise(ctx, details.uid, email);
    if (routed === true) return;
    if (routed) return send(ctx, signInPage({ ...view, error: routed }, 502));
    if (!email || !password) return send(ctx, signInPage({ ...view, error: 'Enter your email and password.' }, 400));
    const keys = [emailKey(email), addressKey(ctx.ip)];
    // The attempt is counted before the password is checked: parallel guesses each take one of the few.
    const locked = await reserveAttempts(db, keys);
    if (locked) return sendLocked(ctx, view, locked);

    const user = await findUserByEmail(db, email);
    const matches = await verifyPassword(user?.password_hash ?? (await decoy()), password);
    if (!user?.password_hash || !matches) {
      const nowLocked = await lockedUntil(db, keys);
      if (nowLocked) return sendLocked(ctx, view, nowLocked);
      return send(ctx, signInPage({ ...view, error: SIGN_IN_FAILED }, 401));
    }
    await clearFailures(db, emailKey(email));
    await releaseAttempt(db, addressKey(ctx.ip));
    await recordLogin(db, user.id);
    await finish(ctx, { login: { accountId: user.id, amr: ['pwd'], remember: true } });
  }

  function sendLocked(ctx: Context, view: { uid: string; email: string; clientName: string }, until: Date): void {
    const retryAfter = String(Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000)));
    send(ctx, signInPage({ ...view, error: lockedMessage(until) }, 429), { 'Retry-After': retryAfter });
  }

  async function signup(ctx: Context, details: Interaction): Promise<void> {
    const input = readSignUp(await readForm(ctx));
    const values = { email: input.email, firstName: input.firstName, lastName: input.lastName };
    // People of a company with enterprise sign-in have their account there: no password here.
    const routed = await enterprise(ctx, details.uid, input.email);
    if (routed === true) return;
    if (routed) return send(ctx, signUpPage({ uid: details.uid, values, errors: {}, formError: routed }, 502));
    const errors = validateSignUp(input);
    if (Object.keys(errors).length) return send(ctx, signUpPage({ uid: details.uid, values, errors }, 400));
    // Every sign-up counts, new address or taken, so neither the answer nor the lock tells them apart.
    const keys = [signUpEmailKey(input.email), signUpAddressKey(ctx.ip)];
    const locked = await reserveAttempts(db, keys);
    if (locked) {
      const retryAfter = String(Math.max(1, Math.ceil((locked.getTime() - Date.now()) / 1000)));
      return send(ctx, signUpPage({ uid: details.uid, values, errors: {}, formError: lockedMessage(locked) }, 429), { 'Retry-After': retryAfter });
    }

    // One answer whether or not the address has an account: "check your e-mail". The e-mail says
    // which it was, to the address's owner only, and goes out after the answer.
    const userId = await createSignUpUser(db, input);
    if (userId) {
      log.info({ userId }, 'account signed up');
      const person = { id: userId, email: input.email, firstName: input.firstName, companyId: null };
      void sendEmailVerification(deps, person).catch((error: unknown) => log.error({ err: error }, 'verification e-mail failed'));
    } else {
      void sendAccountExists(deps, input.email).catch((error: unknown) => log.error({ err: error }, 'account-exists e-mail failed'));
    }
    send(ctx, signUpSentPage({ uid: details.uid, email: input.email }));
  }

  /**
   * "Forgot password?": every well-formed request gets the same page whether or not the e-mail has
   * an account, and the e-mail (if any) goes out after the answer, so neither the page nor its
   * timing tells. Requests count per e-mail and per address; past the limit the answer is 429.
   */
  async function forgot(ctx: Context, details: Interaction): Promise<void> {
    const email = normaliseEmail((await readForm(ctx)).get('email') ?? '');
    if (!EMAIL.test(email) || email.length > 320) {
      return send(ctx, forgotPasswordPage({ uid: details.uid, email, error: 'Enter an email address like name@company.com.' }, 400));
    }
    const locked = await reserveAttempts(db, [resetEmailKey(email), resetAddressKey(ctx.ip)]);
    if (locked) {
      const retryAfter = String(Math.max(1, Math.ceil((locked.getTime() - Date.now()) / 1000)));
      return send(ctx, forgotPasswordPage({ uid: details.uid, email, error: resetLockedMessage(locked) }, 429), { 'Retry-After': retryAfter });
    }
    void sendPasswordReset(deps, email).catch((error: unknown) => log.error({ err: error }, 'password reset e-mail failed'));
    send(ctx, resetRequestedPage(details.uid));
  }

  async function consent(ctx: Context, details: Interaction): Promise<void> {
    const form = await readForm(ctx);
    if (details.prompt.name !== 'consent') return send(ctx, errorPage(homeUrl, 'There is nothing to approve here.', 400));
    if (form.get('decision') !== 'allow') {
      return finish(ctx, { error: 'access_denied', error_description: 'The person declined the request.' });
    }
    await grantConsent(ctx, details);
  }

  async function handle(ctx: Context, route: Route): Promise<void> {
    const details = await currentInteraction(ctx, route.uid);
    if (!details) return send(ctx, expiredPage(homeUrl));
    if (route.method === 'GET') return show(ctx, details, route.action);
    if (route.action === 'abort') return finish(ctx, { error: 'access_denied', error_description: 'The person cancelled sign-in.' });
    if (route.action !== 'consent' && details.prompt.name !== 'login') return send(ctx, expiredPage(homeUrl));
    if (route.action === 'login') return login(ctx, details);
    if (route.action === 'signup') return signup(ctx, details);
    if (route.action === 'forgot') return forgot(ctx, details);
    return consent(ctx, details);
  }

  return async (ctx, next) => {
    const route = matchRoute(ctx);
    if (!route) return next();
    try {
      await handle(ctx, route);
    } catch (error) {
      if (isTooLarge(error)) return send(ctx, errorPage(homeUrl, 'The form was too large to read.', 413));
      log.error({ err: error }, 'sign-in page failed');
      send(ctx, errorPage(homeUrl, 'Please wait a moment and try again.', 500));
    }
  };
}
