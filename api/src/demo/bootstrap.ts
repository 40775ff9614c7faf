import type { Knex } from 'knex';
import { hashToken, tokenPrefix } from '../access/tokens.js';
import { findAnyUserByEmail, insertUser, updateUser } from '../access/usersStore.js';
import { newId } from '../db/ids.js';
import { normaliseEmail } from '../access/users.js';

/**
 * PAYBENCH_BOOTSTRAP_ADMIN_EMAIL + PAYBENCH_BOOTSTRAP_TOKEN: make sure an internal admin with that
 * API token exists, so automation can drive a fresh server without a browser.
 */
export async function bootstrapAdmin(db: Knex, email: string | undefined, token: string | undefined): Promise<boolean> {
  if (!email || !token) return false;
  if (!token.startsWith('pb_') || token.length < 24) throw new Error('PAYBENCH_BOOTSTRAP_TOKEN must start with "pb_" and be at least 24 characters');
  await db.transaction(async (trx) => {
    const firstCompany = await trx('companies').orderBy('created_at').first<{ id: string } | undefined>();
    let user = await findAnyUserByEmail(trx, email);
    if (!user) {
      const id = newId();
      await insertUser(trx, { id, email: normaliseEmail(email), company_id: firstCompany?.id ?? null, first_name: 'Paybench', last_name: 'Automation', email_verified: true, is_internal_admin: true });
      user = await findAnyUserByEmail(trx, email);
    } else if (!user.is_internal_admin || user.status !== 'active') {
      await updateUser(trx, user.id, { is_internal_admin: true, status: 'active' });
    }
    if (!user) throw new Error('bootstrap admin could not be created');
    if (firstCompany && user.company_id === firstCompany.id) {
      const admin = await trx('roles').where({ company_id: firstCompany.id, key: 'admin' }).first<{ id: string } | undefined>();
      if (admin) await trx('user_roles').insert({ company_id: firstCompany.id, user_id: user.id, role_id: admin.id }).onConflict(['user_id', 'role_id']).ignore();
    }
    const hash = hashToken(token);
    const existing = await trx('api_tokens').where({ token_hash: hash }).first<{ user_id: string } | undefined>();
    if (existing && existing.user_id !== user.id) throw new Error('PAYBENCH_BOOTSTRAP_TOKEN already belongs to another user');
    if (!existing) {
      await trx('api_tokens').insert({ id: newId(), company_id: user.company_id, user_id: user.id, name: 'Bootstrap', token_hash: hash, token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });
    } else {
      await trx('api_tokens').where({ token_hash: hash }).update({ revoked_at: null, expires_at: null });
    }
  });
  return true;
}
