import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';

export type DomainStatus = 'pending' | 'proven' | 'revoked';
export type DomainProof = 'dns' | 'admin_email' | 'email_link' | 'internal' | 'seeded';

export interface CompanyDomainRow {
  id: string;
  company_id: string;
  domain: string;
  status: DomainStatus;
  token: string;
  proof: DomainProof | null;
  proven_at: string | Date | null;
  claimed_by: string | null;
  sso_connection_id: string | null;
  checked_at: string | Date | null;
  last_check: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

const claimsOf = (db: Knex, scope: CompanyScope) => db<CompanyDomainRow>('company_domains').where('company_id', scope.companyId);

// ── the company's own claims ─────────────────────────────────────────────────────────────

/** The company's claims that stand (pending or proven), by domain. */
export async function listClaims(db: Knex, scope: CompanyScope): Promise<CompanyDomainRow[]> {
  return claimsOf(db, scope).whereNot('status', 'revoked').orderBy('domain');
}

export async function findClaim(db: Knex, scope: CompanyScope, id: string): Promise<CompanyDomainRow | undefined> {
  return claimsOf(db, scope).where('id', id).whereNot('status', 'revoked').first();
}

/** The company's claim on a domain in any state (a revoked one is claimed again in place). */
export async function claimOnDomain(db: Knex, scope: CompanyScope, domain: string): Promise<CompanyDomainRow | undefined> {
  return claimsOf(db, scope).where('domain', domain).first();
}

export async function insertClaim(db: Knex, row: CompanyDomainRow): Promise<void> {
  await db('company_domains').insert(row);
}

export async function updateClaim(db: Knex, scope: CompanyScope, id: string, changes: Partial<CompanyDomainRow>): Promise<void> {
  await claimsOf(db, scope).where('id', id).update({ ...changes, updated_at: new Date().toISOString() });
}

export async function deleteClaim(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await claimsOf(db, scope).where('id', id).delete();
}

/** Links the company's claims on `domains` to a sign-in connection, and unlinks its others. */
export async function linkToConnection(db: Knex, scope: CompanyScope, connectionId: string, domains: string[]): Promise<void> {
  await claimsOf(db, scope).where('sso_connection_id', connectionId).whereNotIn('domain', domains).update({ sso_connection_id: null });
  if (domains.length) await claimsOf(db, scope).whereIn('domain', domains).update({ sso_connection_id: connectionId });
}

// ── across companies (a domain is one company's: these read every company's rows) ──────────

/** `%@domain`: the domain pattern allows neither `%` nor `_`, so nothing needs escaping. */
const atDomain = (domain: string): string => `%@${domain}`;

/** How many accounts each other company has at the domain. */
export async function peopleElsewhere(db: Knex, companyId: string, domain: string): Promise<{ company_id: string; name: string; people: number }[]> {
  const rows = await db('users')
    .join('companies', 'companies.id', 'users.company_id')
    .where('users.email', 'like', atDomain(domain))
    .whereNot('users.company_id', companyId)
    // A candidate applying with a work address is not one of the company's people.
    .andWhere('users.is_candidate', false)
    .groupBy('users.company_id', 'companies.name')
    .select<{ company_id: string; name: string; people: number | string }[]>('users.company_id', 'companies.name', db.raw('count(*) as people'));
  return rows.map((row) => ({ ...row, people: Number(row.people) }));
}

/** The claims of other companies on the domain that stand (pending or proven). */
export async function claimsElsewhere(db: Knex, companyId: string, domain: string): Promise<CompanyDomainRow[]> {
  return db<CompanyDomainRow>('company_domains').where('domain', domain).whereNot('company_id', companyId).whereNot('status', 'revoked');
}

/** Whether an active, verified admin of the company has an address at the domain. */
export async function verifiedAdminAt(db: Knex, companyId: string, domain: string): Promise<boolean> {
  const row = await db('users')
    .join('user_roles', function joinRoles() {
      this.on('user_roles.user_id', '=', 'users.id').andOn('user_roles.company_id', '=', 'users.company_id');
    })
    .join('roles', 'roles.id', 'user_roles.role_id')
    .where({ 'users.company_id': companyId, 'users.email_verified': true, 'users.status': 'active', 'roles.key': 'admin' })
    .andWhere('users.email', 'like', atDomain(domain))
    .first('users.id');
  return Boolean(row);
}

/** Every claim that stands, of every company, with the company's name (internal admins). */
export async function allStandingClaims(db: Knex): Promise<(CompanyDomainRow & { company_name: string; claimed_by_email: string | null })[]> {
  return db('company_domains')
    .join('companies', 'companies.id', 'company_domains.company_id')
    .leftJoin('users', 'users.id', 'company_domains.claimed_by')
    .whereNot('company_domains.status', 'revoked')
    .orderBy('company_domains.domain')
    .orderBy('company_domains.created_at')
    .select('company_domains.*', 'companies.name as company_name', 'users.email as claimed_by_email');
}

export async function claimById(db: Knex, id: string): Promise<CompanyDomainRow | undefined> {
  return db<CompanyDomainRow>('company_domains').where('id', id).first();
}

/** The company's proven domains (for the market's review queue). */
export async function provenDomainsOf(db: Knex, companyIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!companyIds.length) return out;
  const rows = await db('company_domains').whereIn('company_id', companyIds).where('status', 'proven').orderBy('domain').select<{ company_id: string; domain: string }[]>('company_id', 'domain');
  for (const row of rows) out.set(row.company_id, [...(out.get(row.company_id) ?? []), row.domain]);
  return out;
}

/** A subquery for `whereExists`: the company (`companies.id` of the outer query) holds a proven domain. */
export const hasProvenDomain = (db: Knex) => db('company_domains').whereRaw('company_domains.company_id = companies.id').where('company_domains.status', 'proven').select(db.raw('1'));
