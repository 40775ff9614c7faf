import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { findCompany, findCompanyUser } from '../access/usersStore.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { HttpError, notFound } from '../kernel/errors.js';
import type { SecuredContext, ServiceContext } from '../kernel/operations.js';
import { invitationEmail } from '../notifications/accountEmails.js';
import { emit } from '../platform/events.js';
import { createInvitations, type InvitationRow, latestInvitation, revokeOpenInvitations, usersWithOpenInvitations } from './invitations.js';
import type { IdentityProvider } from '../access/identityProvider.js';

type UserInvitation = components['schemas']['UserInvitation'];

/** Someone to invite. */
export interface Invitee {
  id: string;
  email: string;
  firstName: string;
  isCandidate: boolean;
}

/** Who invites, and where people sign in. */
export interface Inviting {
  deps: AppDeps;
  identity: IdentityProvider | undefined;
  caller: Caller;
}

/** Invitations written in a transaction, and the e-mails to send once it is committed. */
export interface PreparedInvitations {
  sent: { userId: string; email: string; expiresAt: Date | null }[];
  /** Sends the e-mails one after the other; a failure is logged (and held in the outbox) and the rest still go. */
  send(): Promise<void>;
}

const home = (deps: AppDeps): string => deps.config.publicUrl.replace(/\/+$/, '');

/**
 * Writes invitations for people of a company in the caller's transaction: with the built-in
 * provider a one-time link each (earlier links stop working), with an external issuer nothing to
 * store, the e-mail says where to sign in.
 */
export async function prepareInvitations(trx: Knex, inviting: Inviting, scope: CompanyScope, invitees: Invitee[]): Promise<PreparedInvitations> {
  const { deps, identity, caller } = inviting;
  const company = await findCompany(trx, scope);
  if (!company) throw notFound();
  const builtin = identity?.kind !== 'external';
  const links = builtin ? await createInvitations(trx, scope, invitees.map((invitee) => invitee.id), caller.userId) : [];
  const linkOf = new Map(links.map((link) => [link.userId, link]));
  // Support staff adding someone to a customer's company sign as the product, not by name.
  const inviter = caller.companyId === scope.companyId ? `${caller.firstName} ${caller.lastName}`.trim() || caller.email : 'Paybench support';
  const emails = invitees.map((invitee) => {
    const link = linkOf.get(invitee.id);
    const expiresAt = link?.expiresAt ?? null;
    const message = invitationEmail({
      to: invitee.email,
      firstName: invitee.firstName,
      companyName: company.name,
      inviter,
      isCandidate: invitee.isCandidate,
      link: link ? `${home(deps)}/invitation/${link.secret}` : `${home(deps)}/login`,
      expiresAt,
    });
    return { userId: invitee.id, email: invitee.email, expiresAt, message };
  });
  return {
    sent: emails.map(({ userId, email, expiresAt }) => ({ userId, email, expiresAt })),
    async send() {
      for (const email of emails) {
        try {
          await deps.mailer.send({ companyId: scope.companyId, to: email.email, ...email.message });
        } catch (error) {
          deps.log.error({ err: error, userId: email.userId }, 'invitation e-mail could not be recorded');
        }
      }
    },
  };
}

/** Of these people of a company, those who still need an invitation: no password yet and no link that works. */
export async function peopleWaitingForInvitation(db: Knex, scope: CompanyScope, userIds: string[]): Promise<Set<string>> {
  const waiting = new Set<string>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db('users')
      .where('company_id', scope.companyId)
      .whereIn('id', userIds.slice(i, i + 500))
      .whereNull('password_hash')
      .andWhere('status', 'active')
      .select<{ id: string }[]>('id');
    for (const row of rows) waiting.add(row.id);
  }
  const open = await usersWithOpenInvitations(db, scope, [...waiting]);
  for (const id of open) waiting.delete(id);
  return waiting;
}

function present(user: { id: string; email: string; password_hash: string | null }, latest: InvitationRow | undefined, now = Date.now()): UserInvitation {
  const time = (value: string | Date | null): string | null => (value === null ? null : new Date(value).toISOString());
  const sentAt = latest ? time(latest.created_at) : null;
  const expiresAt = latest ? time(latest.expires_at) : null;
  let status: UserInvitation['status'] = 'none';
  if (user.password_hash) status = 'accepted';
  else if (latest?.revoked_at) status = 'revoked';
  else if (latest?.accepted_at) status = 'accepted';
  else if (latest) status = new Date(latest.expires_at).getTime() <= now ? 'expired' : 'pending';
  return { userId: user.id, email: user.email, status, sentAt, expiresAt };
}

async function companyUser(db: Knex, scope: CompanyScope, userId: string) {
  const user = await findCompanyUser(db, scope, userId);
  if (!user) throw notFound();
  return user;
}

/** Where a person's invitation stands. */
export async function userInvitation(ctx: Pick<ServiceContext, 'db' | 'caller'>, userId: string): Promise<UserInvitation> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const user = await companyUser(db, scope, userId);
  return present(user, await latestInvitation(db, scope, userId));
}

/** Sends a person who has no password yet a new invitation; their earlier link stops working. */
export async function resendInvitation(ctx: SecuredContext, userId: string): Promise<UserInvitation> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const { answer, prepared } = await deps.db.transaction(async (trx) => {
    const user = await companyUser(trx, scope, userId);
    if (user.status !== 'active') throw new HttpError(409, 'user_removed', { message: `${user.email} has been removed; add them again to invite them.` });
    if (user.password_hash) throw new HttpError(409, 'already_active', { message: `${user.email} has already set a password. They can use "Forgot password?" on the sign-in page.` });
    const invitation = await prepareInvitations(trx, ctx, scope, [{ id: user.id, email: user.email, firstName: user.first_name, isCandidate: Boolean(user.is_candidate) }]);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'invitation.sent', subjectType: 'user', subjectId: user.id, payload: { resent: true } });
    const latest = await latestInvitation(trx, scope, userId);
    const answer = latest ? present(user, latest) : { ...present(user, undefined), sentAt: new Date().toISOString() };
    return { answer, prepared: invitation };
  });
  ctx.afterCommit(() => prepared.send());
  return answer;
}

/** Stops a person's open invitation link at once; the account stays and can be invited again. */
export async function revokeInvitation(ctx: SecuredContext, userId: string): Promise<UserInvitation> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  return deps.db.transaction(async (trx) => {
    const user = await companyUser(trx, scope, userId);
    const latest = await latestInvitation(trx, scope, userId);
    const open = latest && !latest.accepted_at && !latest.revoked_at && new Date(latest.expires_at).getTime() > Date.now() && !user.password_hash;
    if (!open) throw new HttpError(409, 'no_open_invitation', { message: `${user.email} has no open invitation.` });
    await revokeOpenInvitations(trx, scope, [userId]);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'invitation.revoked', subjectType: 'user', subjectId: userId, payload: {} });
    return present(user, await latestInvitation(trx, scope, userId));
  });
}

/** Invites one person just added to the caller's company (`createUser` with `invite`). */
export async function inviteNewUser(ctx: SecuredContext, user: { id: string; email: string; firstName: string; isCandidate: boolean }): Promise<void> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const prepared = await deps.db.transaction(async (trx) => {
    const invitation = await prepareInvitations(trx, ctx, scope, [user]);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'invitation.sent', subjectType: 'user', subjectId: user.id, payload: { resent: false } });
    return invitation;
  });
  ctx.afterCommit(() => prepared.send());
}
