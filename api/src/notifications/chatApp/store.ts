import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';

/** An authorization under way: the state sent to the chat app, stored only as its SHA-256. */
export interface OAuthStateRow {
  id: string;
  company_id: string;
  user_id: string;
  credential: string;
  state_hash: string;
  created_at: string | Date;
  expires_at: string | Date;
  used_at: string | Date | null;
}

export interface InstallationRow {
  company_id: string;
  provider: string;
  workspace_id: string | null;
  workspace_name: string | null;
  token_sealed: string;
  channel_id: string | null;
  channel_name: string | null;
  installed_by: string | null;
  installed_at: string | Date;
  updated_at: string | Date;
}

export interface InstallationView extends InstallationRow {
  installer_first_name: string | null;
  installer_last_name: string | null;
}

export async function insertState(db: Knex, row: OAuthStateRow): Promise<void> {
  await db('chat_app_oauth_states').insert(row);
}

export async function findState(db: Knex, scope: CompanyScope, stateHash: string): Promise<OAuthStateRow | undefined> {
  return db('chat_app_oauth_states').where({ company_id: scope.companyId, state_hash: stateHash }).first<OAuthStateRow | undefined>();
}

/** Spends a state once: false when it was spent meanwhile. */
export async function markStateUsed(db: Knex, scope: CompanyScope, id: string, at: string): Promise<boolean> {
  return (await db('chat_app_oauth_states').where({ company_id: scope.companyId, id }).whereNull('used_at').update({ used_at: at })) === 1;
}

/** States past their expiry by a day are of no use, even to explain a refusal. */
export async function forgetOldStates(db: Knex, scope: CompanyScope, before: string): Promise<void> {
  await db('chat_app_oauth_states').where({ company_id: scope.companyId }).andWhere('expires_at', '<', before).delete();
}

export async function findInstallation(db: Knex, scope: CompanyScope): Promise<InstallationView | undefined> {
  return db('chat_app_installations as i')
    .leftJoin('users as u', 'u.id', 'i.installed_by')
    .where('i.company_id', scope.companyId)
    .first<InstallationView | undefined>('i.*', 'u.first_name as installer_first_name', 'u.last_name as installer_last_name');
}

/** Installing again replaces the installation (a new token, the channel chosen again). */
export async function saveInstallation(db: Knex, row: InstallationRow): Promise<void> {
  await db('chat_app_installations')
    .insert(row)
    .onConflict('company_id')
    .merge(['provider', 'workspace_id', 'workspace_name', 'token_sealed', 'channel_id', 'channel_name', 'installed_by', 'installed_at', 'updated_at']);
}

export async function saveChannel(db: Knex, scope: CompanyScope, channel: { id: string; name: string }, at: string): Promise<void> {
  await db('chat_app_installations').where({ company_id: scope.companyId }).update({ channel_id: channel.id, channel_name: channel.name, updated_at: at });
}

export async function deleteInstallation(db: Knex, scope: CompanyScope): Promise<void> {
  await db('chat_app_installations').where({ company_id: scope.companyId }).delete();
}
