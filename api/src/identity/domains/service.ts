import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import type { AppDeps } from '../../deps.js';
import { HttpError, found } from '../../kernel/errors.js';
import { emit } from '../../platform/events.js';
import { isFreeMail } from './freeMail.js';
import { presentClaim } from './present.js';
import { holdsRecord, systemTxtResolver, type TxtResolver, verificationRecord } from './resolver.js';
import {
  claimOnDomain,
  claimsElsewhere,
  type CompanyDomainRow,
  deleteClaim,
  type DomainProof,
  findClaim,
  insertClaim,
  listClaims,
  peopleElsewhere,
  updateClaim,
  verifiedAdminAt,
} from './store.js';

type CompanyDomain = components['schemas']['CompanyDomain'];

declare module '../../platform/events.js' {
  interface DomainEvents {
    'company_domain.claimed': { domain: string };
    'company_domain.proven': { domain: string; proof: DomainProof };
    'company_domain.withdrawn': { domain: string };
    /** An internal admin settled who holds a domain: assigned to this company, or its claim revoked. */
    'company_domain.resolved': { domain: string; action: 'assigned' | 'revoked'; note: string | null };
  }
}

type Deps = Pick<AppDeps, 'db'> & { txtResolver?: TxtResolver };

const system = systemTxtResolver();
const resolverOf = (deps: Deps): TxtResolver => deps.txtResolver ?? system;

/** `@BigCo.com ` → `bigco.com`. */
export const normaliseDomain = (domain: string): string => domain.trim().toLowerCase().replace(/^@/, '');

const newToken = (): string => randomBytes(24).toString('base64url');

/** Why another company stands in the way of this one holding the domain; undefined when none does. */
export async function heldElsewhere(db: Knex, companyId: string, domain: string): Promise<string | undefined> {
  const people = await peopleElsewhere(db, companyId, domain);
  if (people.length) return `Another company already has people with ${domain} addresses in Paybench, so ${domain} cannot be claimed for yours. If it is your company's domain, contact Paybench support to settle it.`;
  const proven = (await claimsElsewhere(db, companyId, domain)).find((claim) => claim.status === 'proven');
  if (proven) return `${domain} is already proven by another company. If it is your company's domain, contact Paybench support to settle it.`;
  return undefined;
}

/** Refuses a domain nobody may hold (400) or another company holds (409), in words. */
export async function checkClaimable(db: Knex, companyId: string, domain: string): Promise<void> {
  if (isFreeMail(domain)) {
    const message = `${domain} is a public e-mail service: anyone can have an address there, so no company can claim it.`;
    throw new HttpError(400, 'domain_not_allowed', { message, errors: [{ field: 'body.domain', message }] });
  }
  const reason = await heldElsewhere(db, companyId, domain);
  if (reason) throw new HttpError(409, 'domain_taken', { message: reason });
}

/**
 * The company's claim on a domain: its standing claim, else a new pending one (a claim an internal
 * admin revoked is claimed again in place, with a new token). Refusals as in checkClaimable.
 */
export async function claim(db: Knex, caller: Caller, domain: string): Promise<CompanyDomainRow> {
  const scope = companyScope(caller);
  const current = await claimOnDomain(db, scope, domain);
  if (current && current.status !== 'revoked') return current;
  await checkClaimable(db, scope.companyId, domain);
  const now = new Date().toISOString();
  const fresh = { status: 'pending' as const, token: newToken(), proof: null, proven_at: null, claimed_by: caller.userId, checked_at: null, last_check: null, sso_connection_id: null };
  if (current) await updateClaim(db, scope, current.id, fresh);
  else await insertClaim(db, { id: newId(), company_id: scope.companyId, domain, ...fresh, created_at: now, updated_at: now });
  await emit(db, { companyId: scope.companyId, actorUserId: caller.userId, name: 'company_domain.claimed', subjectType: 'company_domain', subjectId: domain, payload: { domain } });
  const row = await claimOnDomain(db, scope, domain);
  if (!row) throw new Error(`the claim on ${domain} was not stored`);
  // A verified admin at the domain proves it at once.
  return (await verifiedAdminAt(db, scope.companyId, domain)) ? prove(db, caller, row, 'admin_email') : row;
}

/** Marks a claim proven; another company proving it first (the partial unique index) is 409. */
export async function prove(db: Knex, actor: { userId: string | null }, row: CompanyDomainRow, proof: DomainProof): Promise<CompanyDomainRow> {
  const scope = { companyId: row.company_id };
  const now = new Date().toISOString();
  try {
    // A savepoint: on Postgres a refused write would otherwise spoil the request's transaction.
    await db.transaction((trx) => updateClaim(trx, scope, row.id, { status: 'proven', proof, proven_at: now, checked_at: now, last_check: proofWords(proof) }));
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'domain_taken', { message: `${row.domain} was proven by another company a moment ago. Contact Paybench support to settle it.` });
    throw error;
  }
  await emit(db, { companyId: row.company_id, actorUserId: actor.userId, name: 'company_domain.proven', subjectType: 'company_domain', subjectId: row.domain, payload: { domain: row.domain, proof } });
  return found(await findClaim(db, scope, row.id));
}

const proofWords = (proof: DomainProof): string =>
  ({
    dns: 'The TXT record was found.',
    admin_email: 'A verified admin of your company has an address at this domain.',
    email_link: 'A link sent to an address at this domain was opened.',
    internal: 'Paybench support assigned it to your company.',
    seeded: 'Set up with the demo.',
  })[proof];

function isUniqueViolation(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '23505' || (typeof message === 'string' && message.includes('UNIQUE constraint failed'));
}

/** What stands in the way of each of the company's claims (another company's claim or people), for "disputed". */
async function disputes(db: Knex, rows: CompanyDomainRow[]): Promise<Set<string>> {
  const disputed = new Set<string>();
  for (const row of rows) {
    if (row.status === 'proven') continue;
    if ((await claimsElsewhere(db, row.company_id, row.domain)).length || (await peopleElsewhere(db, row.company_id, row.domain)).length) disputed.add(row.id);
  }
  return disputed;
}

async function presentAll(db: Knex, rows: CompanyDomainRow[]): Promise<CompanyDomain[]> {
  const disputed = await disputes(db, rows);
  return rows.map((row) => presentClaim(row, disputed.has(row.id)));
}

export async function listCompanyDomains(ctx: { deps: Deps; caller: Caller }): Promise<CompanyDomain[]> {
  const { deps, caller } = ctx;
  return presentAll(deps.db, await listClaims(deps.db, companyScope(caller)));
}

export async function claimCompanyDomain(ctx: { deps: Deps; caller: Caller }, input: { domain: string }): Promise<CompanyDomain> {
  const { deps, caller } = ctx;
  const row = await claim(deps.db, caller, normaliseDomain(input.domain));
  return (await presentAll(deps.db, [row]))[0]!;
}

/**
 * "Check now": a verified admin at the domain, else the TXT record at the domain. Nothing is proven
 * while another company has people there or holds it proven; the claim then waits for Paybench
 * support (disputed). What the check found is kept in words.
 */
export async function checkCompanyDomain(ctx: { deps: Deps; caller: Caller }, id: string): Promise<CompanyDomain> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const row = found(await findClaim(deps.db, scope, id));
  if (row.status === 'proven') return (await presentAll(deps.db, [row]))[0]!;
  const checked = await proofOf(deps, scope, row);
  const now = new Date().toISOString();
  if ('missing' in checked) {
    await updateClaim(deps.db, scope, row.id, { checked_at: now, last_check: checked.missing.slice(0, 500) });
    return (await presentAll(deps.db, [found(await findClaim(deps.db, scope, id))]))[0]!;
  }
  return (await presentAll(deps.db, [await prove(deps.db, caller, row, checked.proof)]))[0]!;
}

/** The proof found for a claim, or why there is none, in words. */
async function proofOf(deps: Deps, scope: CompanyScope, row: CompanyDomainRow): Promise<{ proof: DomainProof } | { missing: string }> {
  const blocked = await heldElsewhere(deps.db, scope.companyId, row.domain);
  if (blocked) return { missing: blocked };
  if (await verifiedAdminAt(deps.db, scope.companyId, row.domain)) return { proof: 'admin_email' };
  let records: string[][];
  try {
    records = await resolverOf(deps).resolveTxt(row.domain);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { missing: `The DNS lookup of ${row.domain} failed (${typeof code === 'string' ? code : 'no answer'}). Try again in a few minutes.` };
  }
  if (holdsRecord(records, row.token)) return { proof: 'dns' };
  return { missing: `No TXT record "${verificationRecord(row.token)}" was found at ${row.domain} yet. DNS changes can take up to an hour to appear.` };
}

export async function withdrawCompanyDomain(ctx: { deps: Deps; caller: Caller }, id: string): Promise<CompanyDomain> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const row = found(await findClaim(deps.db, scope, id));
  await deleteClaim(deps.db, scope, id);
  await emit(deps.db, { companyId: scope.companyId, actorUserId: caller.userId, name: 'company_domain.withdrawn', subjectType: 'company_domain', subjectId: row.domain, payload: { domain: row.domain } });
  return presentClaim({ ...row, status: 'revoked' }, false);
}

/** The demo company's own domain, proven by the seed that made it (recorded so: proof `seeded`). */
export async function seedProvenDomain(db: Knex, companyId: string, domain: string): Promise<void> {
  const now = new Date().toISOString();
  await insertClaim(db, { id: newId(), company_id: companyId, domain, status: 'proven', token: newToken(), proof: 'seeded', proven_at: now, claimed_by: null, sso_connection_id: null, checked_at: now, last_check: proofWords('seeded'), created_at: now, updated_at: now });
}
