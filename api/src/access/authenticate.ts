import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { HttpError } from '../http/errors.js';
import type { IdentityProvider, TokenRefusal } from '../identity/provider/types.js';
import { TokenRefused } from '../identity/provider/types.js';
import { isoTimestampOrNull } from '../db/timestamps.js';
import { type UserRow, findUserById } from '../identity/users.js';
import { BUILTIN_ROLES } from './builtinRoles.js';
import type { Caller, CompanyScope, ViewAsState } from './caller.js';
import { FLAG_DEFAULTS, type FlagName } from './flags.js';
import { resolvePermissions } from './permissions.js';
import { flagOverrides, findTokenByHash, parsePermissions, rolesOfUsers, touchToken } from './store.js';
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

async function companyFlags(db: Knex, scope: CompanyScope | null): Promise<Record<FlagName, boolean>> {
  const flags = { ...FLAG_DEFAULTS };
  if (!scope) return flags;
  for (const [flag, enabled] of await flagOverrides(db, scope)) flags[flag] = enabled;
  return flags;
}

/** The caller a user is: their company, roles, resolved permissions and the company's flags. */
export async function callerForUser(db: Knex, user: UserRow, via: Caller['via']): Promise<Caller> {
  const scope = user.company_id ? { companyId: user.company_id } : null;
  const roles = scope ? ((await rolesOfUsers(db, scope, [user.id])).get(user.id) ?? []) : [];
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
    flags: await companyFlags(db, scope),
    viewAs: null,
    via,
  };
}

async function userFromApiToken(db: Knex, secret: string): Promise<UserRow> {
  const token = await findTokenByHash(db, hashToken(secret));
  if (!token) throw unauthenticated('invalid');
  if (token.revoked_at) throw unauthenticated('revoked');
  if (token.expires_at && new Date(token.expires_at).getTime() <= Date.now()) throw unauthenticated('expired');
  const user = await findUserById(db, token.user_id);
  if (!user) throw unauthenticated('unknown_user');
  await touchToken(db, token.id);
  return user;
}

async function userFromSignIn(db: Knex, identity: IdentityProvider | undefined, token: string): Promise<UserRow> {
  if (!identity) throw unauthenticated('invalid');
  let verified;
  try {
    verified = await identity.verifyAccessToken(token);
  } catch (error) {
    throw unauthenticated(error instanceof TokenRefused ? error.reason : 'invalid');
  }
  const user =
    identity.kind === 'builtin'
      ? await findUserById(db, verified.subject)
      : ((await db<UserRow>('users').where({ external_subject: verified.subject, status: 'active' }).first()) ??
        (await provisionExternalUser(db, verified.subject, verified.email)));
  if (!user) throw unauthenticated('unknown_user');
  // Signing out ends every sign-in token issued before it (or in the same second: iat has no finer grain).
  if (user.last_logout_at && verified.issuedAt <= Math.floor(new Date(user.last_logout_at).getTime() / 1000)) {
    throw unauthenticated('revoked');
  }
  return user;
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
  const admin = BUILTIN_ROLES.find((role) => role.key === 'admin');
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
  const user = isApiToken(token) ? await userFromApiToken(db, token) : await userFromSignIn(db, identity, token);
  return callerForUser(db, user, isApiToken(token) ? 'apiToken' : 'signIn');
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

