import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { hashToken } from '../access/tokens.js';
import { newId } from '../db/ids.js';

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

export interface InvitationRow {
  id: string;
  company_id: string;
  user_id: string;
  token_hash: string;
  invited_by: string | null;
  created_at: string | Date;
  expires_at: string | Date;
  accepted_at: string | Date | null;
}

/** An invitation still waiting for its person, with who that is. */
export interface OpenInvitation {
  id: string;
  companyId: string;
  userId: string;
  email: string;
  firstName: string;
  expiresAt: Date;
}

/** A new invitation for a provisioned person; the secret goes into the e-mailed link and is stored only hashed. */
export async function createInvitation(db: Knex, scope: CompanyScope, userId: string, invitedBy: string | null): Promise<{ secret: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const row: InvitationRow = {
    id: newId(),
    company_id: scope.companyId,
    user_id: userId,
    token_hash: hashToken(secret),
    invited_by: invitedBy,
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    accepted_at: null,
  };
  await db('account_invitations').insert(row);
  return { secret, expiresAt };
}

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * The invitation a link's secret opens, if it is unused, unexpired and its person is still active.
 * Before sign-in nobody's company is known: this runs as the connecting role, by the secret alone.
 */
export async function findOpenInvitation(db: Knex, secret: string, now = new Date()): Promise<OpenInvitation | undefined> {
  if (!SECRET.test(secret)) return undefined;
  const row = await db('account_invitations as i')
    .join('users as u', 'u.id', 'i.user_id')
    .where('i.token_hash', hashToken(secret))
    .whereNull('i.accepted_at')
    .andWhere('u.status', 'active')
    .first<{ id: string; company_id: string; user_id: string; email: string; first_name: string; expires_at: string | Date } | undefined>(
      'i.id',
      'i.company_id',
      'i.user_id',
      'u.email',
      'u.first_name',
      'i.expires_at',
    );
  if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return undefined;
  return { id: row.id, companyId: row.company_id, userId: row.user_id, email: row.email, firstName: row.first_name, expiresAt: new Date(row.expires_at) };
}

/** Uses the invitation once: the person gets their password and a verified e-mail. False when someone was faster. */
export async function acceptInvitation(db: Knex, invitation: OpenInvitation, passwordHash: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const now = new Date().toISOString();
    const used = await trx('account_invitations').where({ id: invitation.id }).whereNull('accepted_at').update({ accepted_at: now });
    if (used !== 1) return false;
    await trx('users').where({ id: invitation.userId }).update({ password_hash: passwordHash, email_verified: true, updated_at: now });
    // One link sets the password; any other open invitation of the person is spent with it.
    await trx('account_invitations').where({ user_id: invitation.userId }).whereNull('accepted_at').update({ accepted_at: now });
    return true;
  });
}
