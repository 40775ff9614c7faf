import type { Knex } from 'knex';
import type { Caller } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../../db/timestamps.js';
import { HttpError, found } from '../../kernel/errors.js';
import { emit } from '../../platform/events.js';
import { allStandingClaims, claimById, type CompanyDomainRow, peopleElsewhere } from './store.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

/**
 * Every claimed domain (internal admins), the disputed first: a domain is disputed when more than
 * one company claims it, or another company has people at it.
 */
export async function listDomainClaims(ctx: Pick<ServiceContext, 'db'>): Promise<Schemas['DomainClaimGroup'][]> {
  const { db } = ctx;
  const claims = await allStandingClaims(db);
  const byDomain = new Map<string, typeof claims>();
  for (const row of claims) byDomain.set(row.domain, [...(byDomain.get(row.domain) ?? []), row]);
  const groups: Schemas['DomainClaimGroup'][] = [];
  for (const [domain, rows] of byDomain) {
    // Everyone with an address at the domain, by company (no claimant excluded).
    const people = await peopleElsewhere(db, '', domain);
    const claimants = new Set(rows.map((row) => row.company_id));
    const disputed = claimants.size > 1 || people.some((entry) => !claimants.has(entry.company_id));
    groups.push({
      domain,
      disputed,
      claims: rows.map((row) => ({
        id: row.id,
        companyId: row.company_id,
        companyName: row.company_name,
        status: row.status === 'proven' ? 'proven' : 'pending',
        proof: row.proof,
        provenAt: isoTimestampOrNull(row.proven_at),
        claimedBy: row.claimed_by_email,
        claimedAt: isoTimestamp(row.created_at),
        lastCheck: row.last_check,
      })),
      people: people.map((entry) => ({ companyId: entry.company_id, companyName: entry.name, people: entry.people })),
    });
  }
  return groups.sort((a, b) => Number(b.disputed) - Number(a.disputed) || a.domain.localeCompare(b.domain));
}

async function revoke(db: Knex, caller: Caller, row: CompanyDomainRow, note: string | null): Promise<void> {
  await db('company_domains').where({ id: row.id }).update({ status: 'revoked', proof: null, proven_at: null, sso_connection_id: null, updated_at: new Date().toISOString() });
  await emit(db, { companyId: row.company_id, actorUserId: caller.userId, name: 'company_domain.resolved', subjectType: 'company_domain', subjectId: row.domain, payload: { domain: row.domain, action: 'revoked', note } });
}

/**
 * Settles a domain (internal admins): `assign` makes this claim the proven one and revokes every
 * other company's claim on the domain; `revoke` revokes this claim. Each change is recorded on the
 * company it touches, with the note.
 */
export async function resolveDomainClaim(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, input: Schemas['DomainClaimResolution']): Promise<Schemas['DomainClaimGroup']> {
  const { db, caller } = ctx;
  const row = found(await claimById(db, id));
  if (row.status === 'revoked') throw new HttpError(409, 'already_revoked', { message: `This claim on ${row.domain} was already revoked.` });
  const note = input.note?.trim() || null;
  await db.transaction(async (trx) => {
    if (input.action === 'revoke') return revoke(trx, caller, row, note);
    const others = await trx<CompanyDomainRow>('company_domains').where('domain', row.domain).whereNot('id', row.id).whereNot('status', 'revoked');
    // The others first: the partial unique index allows one proven claim per domain.
    for (const other of others) await revoke(trx, caller, other, note);
    const now = new Date().toISOString();
    await trx('company_domains').where({ id: row.id }).update({ status: 'proven', proof: 'internal', proven_at: now, checked_at: now, last_check: 'Paybench support assigned it to your company.', updated_at: now });
    await emit(trx, { companyId: row.company_id, actorUserId: caller.userId, name: 'company_domain.resolved', subjectType: 'company_domain', subjectId: row.domain, payload: { domain: row.domain, action: 'assigned', note } });
  });
  const groups = await listDomainClaims({ db });
  return groups.find((group) => group.domain === row.domain) ?? { domain: row.domain, disputed: false, claims: [], people: [] };
}
