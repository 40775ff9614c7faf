import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { HttpError } from '../kernel/errors.js';
import type { IdentityProvider, TokenRefusal, VerifiedAccessToken } from './identityProvider.js';
import { TokenRefused } from './identityProvider.js';
import { isoTimestampOrNull } from '../db/timestamps.js';
import { type UserRow, findUserById } from './users.js';
import { type SignInEntry, type TokenEntry, authStateOf } from './authCache.js';
import { builtinRoles } from './builtinRoles.js';
import type { Caller, CompanyScope, ViewAsState } from './caller.js';
import { type FlagName, flagDefaults } from './flags.js';
import { resolvePermissions } from './permissions.js';
import { type CallerRole, callerRows, flagOverrides, parsePermissions, rolesOfUsers, touchToken } from './store.js';
import { hashToken, isApiToken } from './tokens.js';
import { findCompanyByKey, findOpenViewAsSession, provisionExternalUser } from './usersStore.js';

export const VIEW_AS_HEADER = 'x-paybench-view-as';
export const COMPANY_AS_HEADER = 'x-paybench-company-as';

const REFUSAL_TEXT: Record<TokenRefusal, string> = {
  missing_token: 'Sign in to continue.',
  expired: 'Your session has expired. Please sign in again.',
  revoked: 'Your session was ended. Please sign in again.',
  invalid: 'The credentials were not accepted. Please sign in again.',
  unknown_user: 'This account no longer has access.',
};

export function unauthenticated(reason: TokenRefusal): HttpError {
  return new HttpError(401, 'unauthenticated', {
    message: REFUSAL_TEXT[reason],
    clientMessage: reason,
    headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${reason}"` },
  });
}

const withOverrides = (overrides: ReadonlyMap<FlagName, boolean>): Record<FlagName, boolean> => {
  const flags = flagDefaults();
  for (const [flag, enabled] of overrides) flags[flag] = enabled;
  return flags;
};

async function companyFlags(db: Knex, scope: CompanyScope | null): Promise<Record<FlagName, boolean>> {
  return withOverrides(scope ? await flagOverrides(db, scope) : new Map());
}

/** The caller a user is, from their roles (in name order) and their company's flag overrides. */
function callerOf(user: UserRow, roles: CallerRole[], overrides: ReadonlyMap<FlagName, boolean>, via: Caller['via']): Caller {
  const { resolved, all } = resolvePermissions(roles.map(parsePermissions));
  const row = user as UserRow & { terms_accepted_at?: string | Date | null };
  return {
    userId: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    companyId: user.company_id,
    isInternalAdmin: Boolean(user.is_internal_admin),
    isCandidate: Boolean(user.is_candidate),
    emailVerified: Boolean(user.email_verified),
    termsAcceptedAt: isoTimestampOrNull(row.terms_accepted_at),
    roles: roles.map((role) => ({ id: role.id, key: role.key, name: role.name })),
    permissions: resolved,
    allRolePermissions: all,
    flags: withOverrides(user.company_id ? overrides : new Map()),
    viewAs: null,
    via,
  };
}

/** The caller a user is: their company, roles, resolved permissions and the company's flags. */
export async function callerForUser(db: Knex, user: UserRow, via: Caller['via']): Promise<Caller> {
  const scope = user.company_id ? { companyId: user.company_id } : null;
  const roles = scope ? ((await rolesOfUsers(db, scope, [user.id])).get(user.id) ?? []) : [];
  return callerOf(user, roles, scope ? await flagOverrides(db, scope) : new Map(), via);
}

const seconds = (at: string | Date): number => Math.floor(new Date(at).getTime() / 1000);

async function loadApiToken(db: Knex, hash: string): Promise<TokenEntry> {
  const rows = await callerRows(db, { tokenHash: hash });
  const token = rows?.token;
  if (!rows || !token) throw unauthenticated('invalid');
  if (token.revoked_at) throw unauthenticated('revoked');
  const expiresAt = token.expires_at ? new Date(token.expires_at).getTime() : null;
  if (expiresAt !== null && expiresAt <= Date.now()) throw unauthenticated('expired');
  if (!rows.user) throw unauthenticated('unknown_user');
  return { caller: Object.freeze({ ...callerOf(rows.user, rows.roles, rows.flags, 'apiToken'), apiTokenId: token.id }), tokenId: token.id, expiresAt };
}

async function callerFromApiToken(db: Knex, secret: string): Promise<Caller> {
  const state = authStateOf(db);
  const hash = hashToken(secret);
  const entry = await state.tokens.get(hash, () => loadApiToken(db, hash));
  const now = Date.now();
  if (entry.expiresAt !== null && entry.expiresAt <= now) throw unauthenticated('expired');
  if (state.touchDue(entry.tokenId, now)) await touchToken(db, entry.tokenId);
  return entry.caller;
}

async function loadSignIn(db: Knex, identity: IdentityProvider, verified: VerifiedAccessToken): Promise<SignInEntry> {
  const rows = await callerRows(db, identity.kind === 'builtin' ? { userId: verified.subject } : { externalSubject: verified.subject });
  let user = rows?.user;
  let caller = rows?.user && callerOf(rows.user, rows.roles, rows.flags, 'signIn');
  // An external issuer's person signing in for the first time is provisioned.
  if (!user && identity.kind === 'external') {
    user = await provisionExternalUser(db, verified.subject, verified.email);
    caller = user && (await callerForUser(db, user, 'signIn'));
  }
  if (!user || !caller) throw unauthenticated('unknown_user');
  return { caller: Object.freeze(caller), lastLogoutAt: user.last_logout_at ? seconds(user.last_logout_at) : null };
}

async function callerFromSignIn(db: Knex, identity: IdentityProvider | undefined, token: string): Promise<Caller> {
  if (!identity) throw unauthenticated('invalid');
  let verified: VerifiedAccessToken;
  try {
    verified = await identity.verifyAccessToken(token);
  } catch (error) {
    throw unauthenticated(error instanceof TokenRefused ? error.reason : 'invalid');
  }
  const entry = await authStateOf(db).signIns.get(`${identity.kind}:${verified.subject}`, () => loadSignIn(db, identity, verified));
  // Signing out ends every sign-in token issued before it (or in the same second: iat has no finer grain).
  if (entry.lastLogoutAt !== null && verified.issuedAt <= entry.lastLogoutAt) throw unauthenticated('revoked');
  return verified.session ? { ...entry.caller, signInSession: verified.session } : entry.caller;
}

/** Internal admins may act as a user or a company while a recorded view-as session is open. */
async function applyViewAs(ctx: Context, db: Knex, caller: Caller): Promise<Caller> {
  const asUser = ctx.get(VIEW_AS_HEADER).trim();
  const asCompany = ctx.get(COMPANY_AS_HEADER).trim();
  if (!asUser && !asCompany) return caller;
  if (!caller.isInternalAdmin) {
    throw new HttpError(403, 'forbidden', { message: 'Only internal admins can view as another user or company.' });
  }
  const session = await findOpenViewAsSession(db, caller.userId, asUser ? { userEmail: asUser } : { companyKey: asCompany });
  if (!session) throw new HttpError(403, 'forbidden', { message: 'Start a view-as session for this target first.' });
  const viewAs: ViewAsState = { sessionId: session.id, mode: session.mode, adminUserId: caller.userId, adminEmail: caller.email };
  if (session.mode === 'user') {
    const target = session.target_user_id ? await findUserById(db, session.target_user_id) : undefined;
    if (!target) throw new HttpError(403, 'forbidden', { message: 'The user of this view-as session no longer exists.' });
    return { ...(await callerForUser(db, target, caller.via)), viewAs };
  }
  const company = await findCompanyByKey(db, asCompany);
  if (!company) throw new HttpError(403, 'forbidden', { message: 'The company of this view-as session no longer exists.' });
  // As a company: an admin's view of it, never more (writes are refused while viewing as).
  const admin = builtinRoles().find((role) => role.key === 'admin');
  const { resolved, all } = resolvePermissions(admin ? [admin.permissions] : []);
  return {
    ...caller,
    companyId: company.id,
    roles: [],
    permissions: resolved,
    allRolePermissions: all,
    flags: await companyFlags(db, { companyId: company.id }),
    viewAs,
  };
}

/** The caller a bearer token stands for: an API token, or a sign-in access token. */
export async function callerFromToken(db: Knex, identity: IdentityProvider | undefined, token: string): Promise<Caller> {
  return isApiToken(token) ? callerFromApiToken(db, token) : callerFromSignIn(db, identity, token);
}

/** Who is calling: a bearer sign-in token or API token, then view-as for internal admins. */
export async function authenticate(ctx: Context, db: Knex, identity: IdentityProvider | undefined, log: Logger): Promise<Caller> {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw unauthenticated('missing_token');
  const caller = await applyViewAs(ctx, db, await callerFromToken(db, identity, match[1]));
  if (caller.viewAs && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    throw new HttpError(403, 'forbidden', { message: 'View-as sessions are read-only.' });
  }
  log.debug({ userId: caller.userId, companyId: caller.companyId, viewAs: caller.viewAs?.sessionId }, 'authenticated');
  return caller;
}

