import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';

export interface SsoConnectionRow {
  id: string;
  company_id: string;
  issuer_url: string;
  client_id: string;
  client_secret_sealed: string;
  enabled: boolean | number;
  verified_at: string | Date;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface SsoConnectionWithDomains extends SsoConnectionRow {
  domains: string[];
}

const connectionsOf = (db: Knex, scope: CompanyScope) => db<SsoConnectionRow>('sso_connections').where('company_id', scope.companyId);

async function withDomains(db: Knex, rows: SsoConnectionRow[]): Promise<SsoConnectionWithDomains[]> {
  if (!rows.length) return [];
  const domains = await db('sso_domains')
    .whereIn('connection_id', rows.map((row) => row.id))
    .orderBy('domain')
    .select<{ connection_id: string; domain: string }[]>('connection_id', 'domain');
  return rows.map((row) => ({ ...row, domains: domains.filter((entry) => entry.connection_id === row.id).map((entry) => entry.domain) }));
}

export async function listConnections(db: Knex, scope: CompanyScope): Promise<SsoConnectionWithDomains[]> {
  return withDomains(db, await connectionsOf(db, scope).orderBy('created_at').orderBy('id'));
}

export async function findConnection(db: Knex, scope: CompanyScope, id: string): Promise<SsoConnectionWithDomains | undefined> {
  const row = await connectionsOf(db, scope).where('id', id).first();
  return row ? (await withDomains(db, [row]))[0] : undefined;
}

/** The connection's row only, for a versioned write. */
export const connectionRow = (db: Knex, scope: CompanyScope, id: string) => connectionsOf(db, scope).where('id', id);

export async function insertConnection(db: Knex, row: Omit<SsoConnectionRow, 'version'>): Promise<void> {
  await db('sso_connections').insert({ ...row, version: 1 });
}

export async function deleteConnection(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await db('sso_domains').where({ company_id: scope.companyId, connection_id: id }).delete();
  await connectionsOf(db, scope).where('id', id).delete();
}

/** The company's own registered domains, with the connection each is on. */
export async function domainsOfCompany(db: Knex, scope: CompanyScope): Promise<Map<string, string>> {
  const rows = await db('sso_domains').where('company_id', scope.companyId).select<{ domain: string; connection_id: string }[]>('domain', 'connection_id');
  return new Map(rows.map((row) => [row.domain, row.connection_id]));
}

export async function clearDomains(db: Knex, scope: CompanyScope, connectionId: string): Promise<void> {
  await db('sso_domains').where({ company_id: scope.companyId, connection_id: connectionId }).delete();
}

/** Adds one domain. A domain of another company breaks the primary key: the caller reports it. */
export async function insertDomain(db: Knex, scope: CompanyScope, connectionId: string, domain: string): Promise<void> {
  await db('sso_domains').insert({ domain, company_id: scope.companyId, connection_id: connectionId, created_at: new Date().toISOString() });
}

// ── sign-in (before anyone is signed in: across companies, by the domain's one owner) ───────────

/** The enabled connection an e-mail domain is routed to, if any. */
export async function connectionForDomain(db: Knex, domain: string): Promise<SsoConnectionWithDomains | undefined> {
  const row = await db<SsoConnectionRow>('sso_connections as c')
    .join('sso_domains as d', 'd.connection_id', 'c.id')
    .where('d.domain', domain)
    .andWhere('c.enabled', true)
    .first<SsoConnectionRow | undefined>('c.*');
  return row ? (await withDomains(db, [row]))[0] : undefined;
}

/** A connection by id for the return from the provider; undefined once it was removed or switched off. */
export async function enabledConnection(db: Knex, id: string): Promise<SsoConnectionWithDomains | undefined> {
  const row = await db<SsoConnectionRow>('sso_connections').where({ id, enabled: true }).first();
  return row ? (await withDomains(db, [row]))[0] : undefined;
}

export interface SsoIdentityRow {
  id: string;
  company_id: string;
  connection_id: string;
  subject: string;
  user_id: string;
}

export async function findIdentity(db: Knex, connectionId: string, subject: string): Promise<SsoIdentityRow | undefined> {
  return db<SsoIdentityRow>('sso_identities').where({ connection_id: connectionId, subject }).first();
}

export async function insertIdentity(db: Knex, row: SsoIdentityRow): Promise<void> {
  const now = new Date().toISOString();
  await db('sso_identities').insert({ ...row, created_at: now, last_sign_in_at: now });
}

export async function touchIdentity(db: Knex, id: string): Promise<void> {
  await db('sso_identities').where({ id }).update({ last_sign_in_at: new Date().toISOString() });
}

export async function deleteIdentity(db: Knex, id: string): Promise<void> {
  await db('sso_identities').where({ id }).delete();
}
