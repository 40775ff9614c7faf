import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashToken } from '../access/tokens.js';
import { newId } from '../db/ids.js';

/** How long a reset link works. */
export const RESET_MINUTES = 60;

interface ResetRow {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string | Date;
  expires_at: string | Date;
  used_at: string | Date | null;
}

/** A reset link that still works, with whose it is. */
export interface OpenReset {
  id: string;
  userId: string;
  companyId: string | null;
  email: string;
  firstName: string;
  expiresAt: Date;
}

/** A new reset link for a person; their earlier unused links stop working. The secret is stored only hashed. */
export async function createPasswordReset(db: Knex, userId: string, now = new Date()): Promise<{ secret: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + RESET_MINUTES * 60_000);
  await db.transaction(async (trx) => {
    await trx('password_resets').where({ user_id: userId }).whereNull('used_at').update({ used_at: now.toISOString() });
    const row: ResetRow = { id: newId(), user_id: userId, token_hash: hashToken(secret), created_at: now.toISOString(), expires_at: expiresAt.toISOString(), used_at: null };
    await trx('password_resets').insert(row);
  });
  return { secret, expiresAt };
}

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The reset a link's secret opens, if it is unused, unexpired and its person is still active. */
export async function findOpenReset(db: Knex, secret: string, now = new Date()): Promise<OpenReset | undefined> {
  if (!SECRET.test(secret)) return undefined;
  const row = await db('password_resets as r')
    .join('users as u', 'u.id', 'r.user_id')
    .where('r.token_hash', hashToken(secret))
    .whereNull('r.used_at')
    .andWhere('u.status', 'active')
    .first<{ id: string; user_id: string; company_id: string | null; email: string; first_name: string; expires_at: string | Date } | undefined>(
      'r.id',
      'r.user_id',
      'u.company_id',
      'u.email',
      'u.first_name',
      'r.expires_at',
    );
  if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return undefined;
  return { id: row.id, userId: row.user_id, companyId: row.company_id, email: row.email, firstName: row.first_name, expiresAt: new Date(row.expires_at) };
}

/**
 * Uses the link once: the person gets their new password (which also proves their e-mail), every
 * sign-in of theirs ends — access tokens issued until now are refused, and the provider's sessions,
 * grants, codes and refresh tokens are deleted — and open invitations are spent. False when the
 * link was used in the meantime.
 */
export async function completePasswordReset(db: Knex, reset: OpenReset, passwordHash: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const now = new Date().toISOString();
    const used = await trx('password_resets').where({ id: reset.id }).whereNull('used_at').update({ used_at: now });
    if (used !== 1) return false;
    await trx('password_resets').where({ user_id: reset.userId }).whereNull('used_at').update({ used_at: now });
    await trx('users').where({ id: reset.userId }).update({ password_hash: passwordHash, email_verified: true, last_logout_at: now, updated_at: now });
    await trx('account_invitations').where({ user_id: reset.userId }).whereNull('accepted_at').whereNull('revoked_at').update({ accepted_at: now });
    // The provider stores every model as JSON naming its account; this ends them all for the person.
    await trx('oidc_models').where('payload', 'like', `%"accountId":${JSON.stringify(reset.userId)}%`).delete();
    return true;
  });
}
