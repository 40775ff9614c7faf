import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { hashToken } from '../access/tokens.js';
import { newId } from '../db/ids.js';

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;
/** Rows per insert or update: well below either engine's limit on bound values. */
const CHUNK = 500;

export interface InvitationRow {
  id: string;
  company_id: string;
  user_id: string;
  token_hash: string;
  invited_by: string | null;
  created_at: string | Date;
  expires_at: string | Date;
  accepted_at: string | Date | null;
  revoked_at: string | Date | null;
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

export interface NewInvitation {
  userId: string;
  secret: string;
  expiresAt: Date;
}

function* chunks<T>(items: T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}

/**
 * New invitations for people of a company; any earlier link of theirs stops working. Each secret
 * goes into an e-mailed link and is stored only hashed.
 */
export async function createInvitations(db: Knex, scope: CompanyScope, userIds: string[], invitedBy: string | null, now = new Date()): Promise<NewInvitation[]> {
  await revokeOpenInvitations(db, scope, userIds, now);
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const created: NewInvitation[] = [];
  const rows: InvitationRow[] = [];
  for (const userId of userIds) {
    const secret = randomBytes(32).toString('base64url');
    created.push({ userId, secret, expiresAt });
    rows.push({
      id: newId(),
      company_id: scope.companyId,
      user_id: userId,
      token_hash: hashToken(secret),
      invited_by: invitedBy,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      accepted_at: null,
      revoked_at: null,
    });
  }
  for (const part of chunks(rows)) await db('account_invitations').insert(part);
  return created;
}

/** A new invitation for one person of a company. */
export async function createInvitation(db: Knex, scope: CompanyScope, userId: string, invitedBy: string | null): Promise<{ secret: string; expiresAt: Date }> {
  const [created] = await createInvitations(db, scope, [userId], invitedBy);
  if (!created) throw new Error('no invitation was created');
  return created;
}

/** Stops the unused links of these people; how many there were (expired ones included). */
export async function revokeOpenInvitations(db: Knex, scope: CompanyScope, userIds: string[], now = new Date()): Promise<number> {
  let revoked = 0;
  for (const part of chunks(userIds)) {
    revoked += await db('account_invitations')
      .where('company_id', scope.companyId)
      .whereIn('user_id', part)
      .whereNull('accepted_at')
      .whereNull('revoked_at')
      .update({ revoked_at: now.toISOString() });
  }
  return revoked;
}

/** A person's most recent invitation, if they ever had one. */
export async function latestInvitation(db: Knex, scope: CompanyScope, userId: string): Promise<InvitationRow | undefined> {
  return db<InvitationRow>('account_invitations')
    .where({ company_id: scope.companyId, user_id: userId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();
}

/** Of these people, those with a link that still works. */
export async function usersWithOpenInvitations(db: Knex, scope: CompanyScope, userIds: string[], now = new Date()): Promise<Set<string>> {
  const open = new Set<string>();
  for (const part of chunks(userIds)) {
    const rows = await db('account_invitations')
      .where('company_id', scope.companyId)
      .whereIn('user_id', part)
      .whereNull('accepted_at')
      .whereNull('revoked_at')
      .andWhere('expires_at', '>', now.toISOString())
      .select<{ user_id: string }[]>('user_id');
    for (const row of rows) open.add(row.user_id);
  }
  return open;
}

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * The invitation a link's secret opens, if it is unused, unrevoked, unexpired and its person is
 * still active. Before sign-in nobody's company is known: this runs as the connecting role, by the
 * secret alone.
 */
export async function findOpenInvitation(db: Knex, secret: string, now = new Date()): Promise<OpenInvitation | undefined> {
  if (!SECRET.test(secret)) return undefined;
  const row = await db('account_invitations as i')
    .join('users as u', 'u.id', 'i.user_id')
    .where('i.token_hash', hashToken(secret))
    .whereNull('i.accepted_at')
    .whereNull('i.revoked_at')
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
    const used = await trx('account_invitations').where({ id: invitation.id }).whereNull('accepted_at').whereNull('revoked_at').update({ accepted_at: now });
    if (used !== 1) return false;
    await trx('users').where({ id: invitation.userId }).update({ password_hash: passwordHash, email_verified: true, updated_at: now });
    // One link sets the password; any other open invitation of the person is spent with it.
    await trx('account_invitations').where({ user_id: invitation.userId }).whereNull('accepted_at').whereNull('revoked_at').update({ accepted_at: now });
    return true;
  });
}
