import type { Knex } from 'knex';
import { callerForUser } from '../access/authenticate.js';
import type { Caller } from '../access/caller.js';
import { flagDefaults, flagNames, moduleStates } from '../access/flags.js';
import { type ApiTokenRow, insertToken, revokeToken, tokensOfUser } from '../access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../access/tokens.js';
import { findCompanyById, findUserRow, updateUser } from '../access/usersStore.js';
import { emit } from '../platform/events.js';
import { presentOnboarding, withCompletedStep } from '../kernel/onboarding.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, notFound } from '../kernel/errors.js';
import type { SecuredContext, ServiceContext } from '../kernel/operations.js';
import { presentPerson, presentToken } from './present.js';

type Preferences = components['schemas']['UserPreferences'];

export const USER_ONBOARDING_STEPS = ['profile', 'explore_benchmarking'] as const;

async function reload(db: Knex, caller: Caller): Promise<Caller> {
  const user = await findUserRow(db, caller.userId);
  if (!user) throw notFound();
  return { ...(await callerForUser(db, user, caller.via)), viewAs: caller.viewAs };
}

/**
 * Ends the caller's sign-ins: their sign-in access tokens issued up to this second are refused, the
 * provider session this token came from ends with its grants and refresh tokens (as the provider's
 * own sign-out ends it), and sockets opened by signing in close. API tokens and their sockets stay.
 */
export async function logout(ctx: SecuredContext): Promise<{ loggedOutAt: string }> {
  const { deps, caller, identity } = ctx;
  const loggedOutAt = new Date().toISOString();
  await updateUser(deps.db, caller.userId, { last_logout_at: loggedOutAt });
  if (caller.signInSession) await identity?.endSession?.(caller.signInSession);
  ctx.afterCommit(async () => deps.realtime.disconnect({ signedInUserId: caller.userId }));
  return { loggedOutAt };
}

export async function acknowledgeTerms(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  await updateUser(db, caller.userId, { terms_accepted_at: new Date().toISOString() });
  return presentPerson(await reload(db, caller));
}

export async function preferences(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Preferences> {
  const { db, caller } = ctx;
  const user = await findUserRow(db, caller.userId);
  return JSON.parse(user?.preferences ?? '{}') as Preferences;
}

export async function savePreferences(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Preferences): Promise<Preferences> {
  const { db, caller } = ctx;
  await updateUser(db, caller.userId, { preferences: JSON.stringify(input) });
  return input;
}

export async function accounts(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<components['schemas']['AccountSummary'][]> {
  const { db, caller } = ctx;
  if (!caller.companyId) return [];
  const company = await findCompanyById(db, caller.companyId);
  return company ? [{ companyId: company.id, companyKey: company.key, companyName: company.name, isDemo: Boolean(company.is_demo) }] : [];
}

export async function userOnboarding(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  const user = await findUserRow(db, caller.userId);
  return presentOnboarding(user?.onboarding ?? '{}', USER_ONBOARDING_STEPS);
}

export async function completeUserStep(ctx: Pick<ServiceContext, 'db' | 'caller'>, step: string) {
  const { db, caller } = ctx;
  const user = await findUserRow(db, caller.userId);
  const onboarding = withCompletedStep(user?.onboarding ?? '{}', step);
  await updateUser(db, caller.userId, { onboarding });
  return presentOnboarding(onboarding, USER_ONBOARDING_STEPS);
}

export function modules(caller: Caller) {
  return moduleStates(caller.flags, caller.permissions);
}

export function releaseFlags(caller: Caller): components['schemas']['ReleaseFlag'][] {
  const defaults = flagDefaults();
  return flagNames().map((flag) => ({ flag, enabled: caller.flags[flag], isDefault: caller.flags[flag] === defaults[flag] }));
}

export async function listTokens(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  return (await tokensOfUser(db, caller.userId)).map(presentToken);
}

export async function createToken(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: components['schemas']['ApiTokenInput']) {
  const { db, caller } = ctx;
  const secret = newTokenSecret();
  const now = new Date();
  const row: ApiTokenRow = {
    id: newId(),
    company_id: caller.companyId,
    user_id: caller.userId,
    name: input.name.trim(),
    token_hash: hashToken(secret),
    token_prefix: tokenPrefix(secret),
    created_at: now.toISOString(),
    expires_at: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString() : null,
    last_used_at: null,
    revoked_at: null,
  };
  await insertToken(db, row);
  await emit(db, { companyId: caller.companyId, actorUserId: caller.userId, name: 'api_token.created', subjectType: 'api_token', subjectId: row.id, payload: {} });
  return { ...presentToken(row), token: secret };
}

export async function revoke(ctx: SecuredContext, tokenId: string) {
  const { deps, caller } = ctx;
  const row = await revokeToken(deps.db, caller.userId, tokenId);
  if (!row) throw notFound();
  await emit(deps.db, { companyId: caller.companyId, actorUserId: caller.userId, name: 'api_token.revoked', subjectType: 'api_token', subjectId: row.id, payload: {} });
  // After the commit, so a socket reconnecting with the token finds it revoked.
  ctx.afterCommit(async () => deps.realtime.disconnect({ apiTokenId: row.id }));
  return presentToken(row);
}

export async function completeAccount(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: components['schemas']['CreateAccountInput']) {
  const { db, caller } = ctx;
  const user = await findUserRow(db, caller.userId);
  if (!user) throw notFound();
  if (input.uid && input.uid !== user.id && input.uid !== user.external_subject) {
    throw new HttpError(403, 'forbidden', { message: 'The account id does not match the signed-in person.' });
  }
  await updateUser(db, caller.userId, {
    first_name: input.accountData.firstName.trim(),
    last_name: input.accountData.lastName.trim(),
    signup_details: JSON.stringify({
      partnerCode: input.partnerCode ?? null,
      referrer: input.referrer ?? null,
      campaignTrackingStringified: input.campaignTrackingStringified ?? null,
      subdomain: input.subdomain ?? 'app',
    }),
  });
  return presentPerson(await reload(db, caller));
}
