import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { assertMayAssignRoles } from '../access/assignRoles.js';
import type { Caller, CompanyScope } from '../access/caller.js';
import { presentUser } from '../access/present.js';
import { findRolesByKeys, replaceUserRoles, rolesOfUsers } from '../access/store.js';
import { findCompany, findCompanyUser, insertUser } from '../access/usersStore.js';
import { emit } from '../platform/events.js';
import type { Config } from '../config.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { emailsWithAccounts } from '../db/rowSecurity.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import type { RequestContext, ServiceContext } from '../kernel/operations.js';
import { prepareInvitations } from './invitationService.js';
import { connectionForEmail } from './sso/people.js';
import { normaliseEmail, passwordStateByEmail } from '../access/users.js';

type AuthnMigrationCheck = components['schemas']['AuthnMigrationCheck'];
type ProvisionInput = components['schemas']['AccountProvisionInput'];
type ProvisionedAccount = components['schemas']['ProvisionedAccount'];

/** Checks per client address per minute: plenty for people signing in, little for someone listing e-mails. */
export const AUTHN_CHECKS_PER_MINUTE = 20;
/** Checks of one e-mail per hour, from any address: a person signs in a few times, a prober spread over many addresses is stopped. */
export const AUTHN_CHECKS_PER_EMAIL_PER_HOUR = 10;
const checkLimiters = new WeakMap<Config, { byAddress: RateLimiterMemory; byEmail: RateLimiterMemory }>();

async function limitChecks(config: Config, address: string, email: string): Promise<void> {
  let limiters = checkLimiters.get(config);
  if (!limiters) {
    limiters = {
      byAddress: new RateLimiterMemory({ points: AUTHN_CHECKS_PER_MINUTE, duration: 60 }),
      byEmail: new RateLimiterMemory({ points: AUTHN_CHECKS_PER_EMAIL_PER_HOUR, duration: 60 * 60 }),
    };
    checkLimiters.set(config, limiters);
  }
  try {
    await limiters.byAddress.consume(address || 'unknown');
    await limiters.byEmail.consume(normaliseEmail(email));
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    throw new HttpError(429, 'rate_limited', {
      message: `Too many requests have been made. Please wait ${waitWords(refusal.msBeforeNext)} and try again.`,
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))) },
    });
  }
}

const waitWords = (ms: number): string => (ms <= 60_000 ? '60 seconds' : `${Math.ceil(ms / 60_000)} minutes`);

/**
 * Where the person with this e-mail signs in, and whether they still need an account or a password.
 * The answer has one shape and comes from indexed lookups whatever the e-mail; it says nothing
 * about the person beyond how to sign in (not their name, company or whether they were removed).
 */
export async function checkAuthnMigration(ctx: RequestContext, email: string): Promise<AuthnMigrationCheck> {
  const { deps, identity, koa } = ctx;
  await limitChecks(deps.config, koa.ip, email);
  const issuer = identity?.issuer ?? deps.config.publicUrl.replace(/\/+$/, '');
  // With an external issuer everyone signs in there and is provisioned on first use: the e-mail changes nothing.
  if (identity?.kind === 'external') return { provider: 'external', action: 'sign_in', issuer };
  // A registered domain signs in at its company's provider, unless the address keeps an account elsewhere.
  if (await connectionForEmail(deps.db, email)) return { provider: 'enterprise', action: 'sign_in', issuer };
  const account = await passwordStateByEmail(deps.db, email);
  if (!account) return { provider: 'builtin', action: 'sign_up', issuer };
  // A removed account answers like any account with a password: sign-in refuses it, without this telling why.
  return { provider: 'builtin', action: account.active && !account.hasPassword ? 'activate' : 'sign_in', issuer };
}

/** A company the internal tools name by id; 404 when there is none. */
export async function existingCompany(ctx: Pick<ServiceContext, 'db'>, companyId: string): Promise<CompanyScope> {
  const { db } = ctx;
  const company = await findCompany(db, { companyId });
  if (!company) throw notFound();
  return { companyId: company.id };
}

/** The users.email unique index refused the insert (Postgres names the constraint, SQLite the column). */
const isEmailTaken = (error: unknown): boolean => {
  const { constraint, message } = error as { constraint?: string; message?: string };
  return constraint === 'users_email_unique' || Boolean(message?.includes('UNIQUE constraint failed: users.email'));
};

const emailTaken = (email: string): HttpError => new HttpError(409, 'email_taken', { message: `${email} already has an account.` });

/**
 * Creates a person with roles in a company and (unless asked not to) e-mails them an invitation:
 * with the built-in provider a one-time link to choose their password, with an external issuer
 * where to sign in. Naming roles needs `roles` edit (`assertMayAssignRoles`); candidates hold none.
 */
export async function provisionAccount(ctx: RequestContext & { caller: Caller }, scope: CompanyScope, input: ProvisionInput): Promise<ProvisionedAccount> {
  const { deps, caller } = ctx;
  const email = normaliseEmail(input.email);
  const isCandidate = input.isCandidate ?? false;
  if (isCandidate && input.roleKeys?.length) {
    throw badRequest('Candidates hold no roles.', [{ field: 'body.roleKeys', message: 'must be empty for a candidate' }]);
  }
  if (input.roleKeys) assertMayAssignRoles(caller);
  const keys = input.roleKeys ?? (isCandidate ? [] : ['employee']);
  const company = await findCompany(deps.db, scope);
  if (!company) throw notFound();
  const invite = input.invite ?? input.sendInvitation ?? true;

  const created = await deps.db
    .transaction(async (trx) => {
      // Addresses are unique across companies; inside a company's transaction only this function can tell.
      if ((await emailsWithAccounts(trx, [email])).size) throw emailTaken(email);
      const roles = await findRolesByKeys(trx, scope, keys);
      const missing = keys.filter((key) => !roles.some((role) => role.key === key));
      if (missing.length) {
        throw badRequest(`Unknown role: ${missing.join(', ')}`, missing.map((key) => ({ field: 'body.roleKeys', message: `${key} is not a role of this company` })));
      }
      const id = newId();
      await insertUser(trx, { id, email, company_id: scope.companyId, first_name: input.firstName.trim(), last_name: input.lastName.trim(), is_candidate: isCandidate, email_verified: false });
      await replaceUserRoles(trx, scope, id, roles.map((role) => role.id));
      const invitation = invite ? await prepareInvitations(trx, ctx, scope, [{ id, email, firstName: input.firstName.trim(), isCandidate }]) : undefined;
      await emit(trx, {
        companyId: scope.companyId,
        actorUserId: caller.userId,
        name: 'account.provisioned',
        subjectType: 'user',
        subjectId: id,
        payload: { roles: keys, isCandidate, invited: invite, byInternalAdmin: caller.companyId !== scope.companyId },
      });
      const row = await findCompanyUser(trx, scope, id);
      if (!row) throw notFound();
      return { user: presentUser(row, (await rolesOfUsers(trx, scope, [id])).get(id) ?? []), invitation };
    })
    .catch((error: unknown) => {
      // Two requests for one address at once: the loser finds it taken at the insert.
      throw isEmailTaken(error) ? emailTaken(email) : error;
    });

  const invitation = created.invitation;
  if (!invitation) return { user: created.user, invitation: null };
  // After the commit: an invitation never arrives for an account that was rolled back.
  ctx.afterCommit(() => invitation.send());
  const expiresAt = invitation.sent[0]?.expiresAt ?? null;
  return { user: created.user, invitation: { sentTo: email, expiresAt: expiresAt?.toISOString() ?? null } };
}
