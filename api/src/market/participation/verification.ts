import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../../access/caller.js';
import { hasProvenDomain, provenDomainsOf } from '../../identity/domains/store.js';
import type { components } from '../../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../../db/timestamps.js';
import { HttpError } from '../../kernel/errors.js';
import { emit } from '../../platform/events.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

declare module '../../platform/events.js' {
  interface DomainEvents {
    'market.participant_requested': { headcountOffered: number };
    'market.participant_decided': { decision: 'approved' | 'refused'; note: string | null; provenDomains: string[] };
  }
}

/**
 * A verified participant: its records may enter a release. It holds a proven e-mail domain (one
 * company at most holds a domain proven, so one domain is one participant) and an internal admin
 * approved its request. Both are read at every build: a domain withdrawn or revoked later stops the
 * company's records at the next one.
 */
interface ReviewRow {
  company_id: string;
  status: 'pending' | 'approved' | 'refused';
  requested_by: string | null;
  requested_at: string | Date;
  headcount_offered: number | string;
  decided_by: string | null;
  decided_at: string | Date | null;
  note: string | null;
  seeded: boolean | number;
}

const reviews = (db: Knex) => db<ReviewRow>('market_participant_reviews');

/** Narrows a query of `companies` to verified participants (for the release build). */
export function onlyVerified(query: Knex.QueryBuilder, db: Knex): Knex.QueryBuilder {
  return query
    .whereExists(db('market_participant_reviews').whereRaw('market_participant_reviews.company_id = companies.id').where('market_participant_reviews.status', 'approved').select(db.raw('1')))
    .whereExists(hasProvenDomain(db));
}

/** What the company sees of its verification. */
export async function verificationOf(db: Knex, scope: CompanyScope): Promise<Schemas['ParticipantVerification']> {
  const review = await reviews(db).where({ company_id: scope.companyId }).first();
  const provenDomains = (await provenDomainsOf(db, [scope.companyId])).get(scope.companyId) ?? [];
  const note = review?.status === 'refused' ? review.note : null;
  if (!review) return { status: 'not_requested', provenDomains, note };
  if (review.status === 'refused') return { status: 'refused', provenDomains, note };
  if (!provenDomains.length) return { status: 'needs_domain', provenDomains, note };
  return { status: review.status === 'approved' ? 'approved' : 'awaiting_approval', provenDomains, note };
}

/**
 * Opting in files the company's request for review (again after a refusal); an approved or waiting
 * request stands as it is.
 */
export async function requestReview(db: Knex, caller: Caller, scope: CompanyScope, headcountOffered: number): Promise<void> {
  const current = await reviews(db).where({ company_id: scope.companyId }).first();
  if (current && current.status !== 'refused') return;
  const row = { status: 'pending' as const, requested_by: caller.userId, requested_at: new Date().toISOString(), headcount_offered: headcountOffered, decided_by: null, decided_at: null, note: null, seeded: false };
  if (current) await reviews(db).where({ company_id: scope.companyId }).update(row);
  else await reviews(db).insert({ company_id: scope.companyId, ...row });
  await emit(db, { companyId: scope.companyId, actorUserId: caller.userId, name: 'market.participant_requested', subjectType: 'company', subjectId: scope.companyId, payload: { headcountOffered } });
}

type QueueRow = ReviewRow & { company_name: string; requested_email: string | null; decided_email: string | null };

async function queueRows(db: Knex, companyId?: string): Promise<QueueRow[]> {
  const query = db('market_participant_reviews as r')
    .join('companies', 'companies.id', 'r.company_id')
    .leftJoin('users as asker', 'asker.id', 'r.requested_by')
    .leftJoin('users as decider', 'decider.id', 'r.decided_by')
    .select('r.*', 'companies.name as company_name', 'asker.email as requested_email', 'decider.email as decided_email')
    .orderByRaw("case r.status when 'pending' then 0 else 1 end")
    .orderBy('r.requested_at');
  return companyId ? query.where('r.company_id', companyId) : query;
}

/** The internal admins' queue: what each company submitted, waiting requests first. */
export async function listParticipantRequests(ctx: Pick<ServiceContext, 'db'>): Promise<Schemas['MarketParticipantRequest'][]> {
  const { db } = ctx;
  const rows = await queueRows(db);
  const domains = await provenDomainsOf(db, rows.map((row) => row.company_id));
  return rows.map((row) => ({
    companyId: row.company_id,
    companyName: row.company_name,
    status: row.status,
    provenDomains: domains.get(row.company_id) ?? [],
    headcountOffered: Number(row.headcount_offered),
    requestedBy: row.requested_email,
    requestedAt: isoTimestamp(row.requested_at),
    decidedBy: row.decided_email,
    decidedAt: isoTimestampOrNull(row.decided_at),
    note: row.note,
    seeded: Boolean(row.seeded),
  }));
}

/** Approves (the company needs a proven domain) or refuses a request; recorded on the company. */
export async function decideParticipantRequest(ctx: Pick<ServiceContext, 'db' | 'caller'>, companyId: string, input: { decision: 'approve' | 'refuse'; note?: string }): Promise<Schemas['MarketParticipantRequest']> {
  const { db, caller } = ctx;
  const current = await reviews(db).where({ company_id: companyId }).first();
  if (!current) throw new HttpError(404, 'not_found', { message: 'This company has not asked to take part in the market.' });
  const provenDomains = (await provenDomainsOf(db, [companyId])).get(companyId) ?? [];
  if (input.decision === 'approve' && !provenDomains.length) {
    throw new HttpError(409, 'domain_unproven', { message: 'This company has no proven e-mail domain yet: a participant must prove one (Settings → Enterprise sign-in) before it can be approved.' });
  }
  const decision = input.decision === 'approve' ? 'approved' : 'refused';
  const note = input.note?.trim() || null;
  await reviews(db).where({ company_id: companyId }).update({ status: decision, decided_by: caller.userId, decided_at: new Date().toISOString(), note });
  await emit(db, { companyId, actorUserId: caller.userId, name: 'market.participant_decided', subjectType: 'company', subjectId: companyId, payload: { decision, note, provenDomains } });
  return (await listParticipantRequests({ db })).find((row) => row.companyId === companyId)!;
}

/** The demo company starts as a verified participant, recorded as set up by the seed. */
export async function seedVerifiedParticipant(db: Knex, companyId: string): Promise<void> {
  const now = new Date().toISOString();
  await reviews(db).insert({ company_id: companyId, status: 'approved', requested_by: null, requested_at: now, headcount_offered: 0, decided_by: null, decided_at: now, note: 'Set up with the demo.', seeded: true });
}

// ── a build's participants ──────────────────────────────────────────────────────────────

/** Records which companies a release took (internal: the release's own tables name nobody). */
export async function recordReleaseParticipants(db: Knex, releaseId: string, companyIds: string[]): Promise<void> {
  if (!companyIds.length) return;
  const names = await db('companies').whereIn('id', companyIds).select<{ id: string; name: string }[]>('id', 'name');
  await db('market_release_participants').insert(names.map((row) => ({ release_id: releaseId, company_id: row.id, company_name: row.name.slice(0, 200) })));
}

/** A release's participants, and who is new or gone since the release built before it. */
export async function releaseParticipants(ctx: Pick<ServiceContext, 'db'>, releaseId: string): Promise<Schemas['ReleaseParticipants']> {
  const { db } = ctx;
  const release = await db('market_releases').where({ id: releaseId }).first<{ id: string; built_at: string | Date } | undefined>('id', 'built_at');
  if (!release) throw new HttpError(404, 'not_found', { message: 'No such release.' });
  const previous = await db('market_releases').where('built_at', '<', release.built_at).orderBy('built_at', 'desc').first<{ id: string } | undefined>('id');
  const of = async (id: string | undefined) =>
    id ? ((await db('market_release_participants').where({ release_id: id }).orderBy('company_name').select('company_id', 'company_name')) as { company_id: string; company_name: string }[]) : [];
  const now = await of(release.id);
  const before = await of(previous?.id);
  const present = (row: { company_id: string; company_name: string }) => ({ companyId: row.company_id, companyName: row.company_name });
  const ids = (rows: { company_id: string }[]) => new Set(rows.map((row) => row.company_id));
  return {
    releaseId: release.id,
    previousReleaseId: previous?.id ?? null,
    participants: now.map(present),
    added: now.filter((row) => !ids(before).has(row.company_id)).map(present),
    removed: before.filter((row) => !ids(now).has(row.company_id)).map(present),
  };
}
