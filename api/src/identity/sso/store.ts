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
  /** Every domain the company linked to the connection, proven or not. */
  domains: string[];
  /** The linked domains the company has proven: only these route anyone. */
  proven: string[];
}

const connectionsOf = (db: Knex, scope: CompanyScope) => db<SsoConnectionRow>('sso_connections').where('company_id', scope.companyId);

/** Each connection with the domains its company claims for it (identity/domains). */
async function withDomains(db: Knex, rows: SsoConnectionRow[]): Promise<SsoConnectionWithDomains[]> {
  if (!rows.length) return [];
  const domains = await db('company_domains')
    .whereIn('sso_connection_id', rows.map((row) => row.id))
    .whereNot('status', 'revoked')
    .orderBy('domain')
    .select<{ sso_connection_id: string; company_id: string; domain: string; status: string }[]>('sso_connection_id', 'company_id', 'domain', 'status');
  return rows.map((row) => {
    const own = domains.filter((entry) => entry.sso_connection_id === row.id && entry.company_id === row.company_id);
    return { ...row, domains: own.map((entry) => entry.domain), proven: own.filter((entry) => entry.status === 'proven').map((entry) => entry.domain) };
  });
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

/** Removes the connection; its domains stay claimed (and proven) by the company, routed nowhere. */
export async function deleteConnection(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await db('company_domains').where({ company_id: scope.companyId, sso_connection_id: id }).update({ sso_connection_id: null });
  await connectionsOf(db, scope).where('id', id).delete();
}

/** The company's claimed domains linked to a connection, with the connection each is on. */
export async function domainsOfCompany(db: Knex, scope: CompanyScope): Promise<Map<string, string>> {
  const rows = await db('company_domains')
    .where('company_id', scope.companyId)
    .whereNotNull('sso_connection_id')
    .whereNot('status', 'revoked')
    .select<{ domain: string; sso_connection_id: string }[]>('domain', 'sso_connection_id');
  return new Map(rows.map((row) => [row.domain, row.sso_connection_id]));
}

// ── sign-in (before anyone is signed in: across companies, by the domain's one owner) ───────────

/**
 * The enabled connection an e-mail domain is routed to, if any: only a domain its company proved
 * (one company at most holds a domain proven; a claim alone routes nobody).
 */
export async function connectionForDomain(db: Knex, domain: string): Promise<SsoConnectionWithDomains | undefined> {
  const row = await db<SsoConnectionRow>('sso_connections as c')
    .join('company_domains as d', function provenHere() {
      this.on('d.sso_connection_id', '=', 'c.id').andOn('d.company_id', '=', 'c.company_id');
    })
    .where('d.domain', domain)
    .andWhere('d.status', 'proven')
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
