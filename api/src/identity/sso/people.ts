import type { Knex } from 'knex';
import { findRolesByKeys, replaceUserRoles } from '../../access/store.js';
import { findAnyUserByEmail, findUserRow, insertUser, updateUser } from '../../access/usersStore.js';
import { newId } from '../../db/ids.js';
import { emit } from '../../platform/events.js';
import { normaliseEmail } from '../../access/users.js';
import { connectionForDomain, deleteIdentity, findIdentity, insertIdentity, type SsoConnectionWithDomains, touchIdentity } from './store.js';

/** The role a person gets when their first sign-in through the company's provider makes their account. */
export const PROVISIONED_ROLE = 'employee';

/** What the company's provider said about the person. */
export interface ProviderProfile {
  subject: string;
  email: unknown;
  emailVerified: unknown;
  givenName: unknown;
  familyName: unknown;
  name: unknown;
}

export type SignInOutcome = { userId: string; created: boolean } | { refusal: string };

export const emailDomain = (email: string): string => email.slice(email.lastIndexOf('@') + 1);

const text = (value: unknown, max = 100): string => (typeof value === 'string' ? value.trim().slice(0, max) : '');

function names(profile: ProviderProfile, email: string): { first: string; last: string } {
  const first = text(profile.givenName);
  const last = text(profile.familyName);
  if (first || last) return { first: first || email.slice(0, email.indexOf('@')).slice(0, 100), last };
  const [head = '', ...rest] = text(profile.name, 200).split(/\s+/).filter(Boolean);
  if (head) return { first: head.slice(0, 100), last: rest.join(' ').slice(0, 100) };
  return { first: email.slice(0, email.indexOf('@')).slice(0, 100), last: '' };
}

/**
 * The connection an e-mail signs in with: its domain is registered and enabled, and the address has
 * no account outside that company (such an account keeps its own sign-in; a company claiming a
 * domain later cannot take it over).
 */
export async function connectionForEmail(db: Knex, email: string): Promise<SsoConnectionWithDomains | undefined> {
  const address = normaliseEmail(email);
  if (address.lastIndexOf('@') < 1) return undefined;
  const connection = await connectionForDomain(db, emailDomain(address));
  if (!connection) return undefined;
  const account = await findAnyUserByEmail(db, address);
  return !account || account.company_id === connection.company_id ? connection : undefined;
}

/**
 * The person a provider's sign-in stands for, within the connection's company only: the one it
 * signed in before (by subject), else the company's person with that verified e-mail, else a new
 * employee of the company. Anything else is refused, with the reason in words.
 */
export async function personForSignIn(db: Knex, connection: SsoConnectionWithDomains, profile: ProviderProfile): Promise<SignInOutcome> {
  const email = normaliseEmail(text(profile.email, 320));
  if (!email) {
    return { refusal: "Your company's sign-in provider did not share your e-mail address, so Paybench cannot tell who you are. Ask your company admin to release the email claim to Paybench." };
  }
  if (profile.emailVerified !== true && profile.emailVerified !== 'true') {
    return { refusal: `Your company's sign-in provider has not verified ${email}, so Paybench cannot sign you in with it. Ask your company admin.` };
  }
  // Only a domain the company proved: a claim alone provisions nobody.
  if (!connection.proven.includes(emailDomain(email))) {
    return { refusal: `${email} is not an address at ${connection.proven.join(', ') || 'a proven domain'}, the domains your company signs in with here, so Paybench refused the sign-in.` };
  }
  const scope = { companyId: connection.company_id };

  const linked = await findIdentity(db, connection.id, profile.subject);
  if (linked) {
    const user = await findUserRow(db, linked.user_id);
    if (user && user.status === 'active' && user.company_id === connection.company_id) {
      await touchIdentity(db, linked.id);
      return { userId: user.id, created: false };
    }
    // The person it named was removed or moved: the subject is matched by e-mail again below.
    await deleteIdentity(db, linked.id);
  }

  const existing = await findAnyUserByEmail(db, email);
  if (existing) {
    if (existing.company_id !== connection.company_id) {
      return { refusal: `${email} already has a Paybench account outside this company, so it cannot sign in through this company's provider. Sign in with your password, or ask your company admin.` };
    }
    if (existing.status !== 'active') {
      return { refusal: 'This account was removed from your company in Paybench. Ask your company admin if you need access again.' };
    }
    await db.transaction(async (trx) => {
      if (!existing.email_verified) await updateUser(trx, existing.id, { email_verified: true });
      await insertIdentity(trx, { id: newId(), company_id: scope.companyId, connection_id: connection.id, subject: profile.subject, user_id: existing.id });
    });
    return { userId: existing.id, created: false };
  }

  const id = newId();
  const { first, last } = names(profile, email);
  await db.transaction(async (trx) => {
    await insertUser(trx, { id, email, company_id: scope.companyId, first_name: first, last_name: last, email_verified: true });
    const roles = await findRolesByKeys(trx, scope, [PROVISIONED_ROLE]);
    await replaceUserRoles(trx, scope, id, roles.map((role) => role.id));
    await insertIdentity(trx, { id: newId(), company_id: scope.companyId, connection_id: connection.id, subject: profile.subject, user_id: id });
    await emit(trx, {
      companyId: scope.companyId,
      actorUserId: id,
      name: 'sso.account_provisioned',
      subjectType: 'user',
      subjectId: id,
      payload: { connectionId: connection.id },
    });
  });
  return { userId: id, created: true };
}
