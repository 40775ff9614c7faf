import type { MarketEmploymentType } from '../engine/participants.js';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../../access/caller.js';
import { hashToken } from '../../access/tokens.js';
import { findCompany, usersOf } from '../../access/usersStore.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import { isoTimestamp, isoTimestampOrNull } from '../../db/timestamps.js';
import type { AppDeps } from '../../deps.js';
import { HttpError, isUniqueViolation, notFound } from '../../kernel/errors.js';
import type { RequestContext, ServiceContext } from '../../kernel/operations.js';
import { normaliseEmail } from '../../access/users.js';
import { emit } from '../../platform/events.js';
import { findCompensationType, findJobFamily, findLevel, findLevelBlend } from '../../reference/catalog/index.js';
import { marketName } from '../marketNames.js';
import { sliceStatus, storedCell, storedPercentiles } from './present.js';
import { type SliceListRow, findSlice } from './store.js';
import {
  type CollaboratorListRow,
  type CollaboratorRow,
  findCollaborator,
  findCollaboratorByToken,
  findLiveCollaborator,
  insertCollaborator,
  insertOpen,
  listCollaborators,
  markCollaboratorRevoked,
  revokeEarlierLinks,
} from './collaboratorsStore.js';

type Schemas = components['schemas'];
type Collaborator = Schemas['SliceCollaborator'];

/*
 * A collaborator is someone outside the company invited to read one shared slice. Their link's
 * secret is 32 random bytes (base64url, prefixed `sc_`), stored only as its SHA-256; it opens that
 * one slice, read-only and without an account, until the invitation expires (14 days unless said,
 * at most 90, never after the slice closes) or is revoked, or the slice is. Every open is recorded.
 */

export const DEFAULT_DAYS = 14;
const DAY_MS = 24 * 3600_000;
const TOKEN_PREFIX = 'sc_';
const TOKEN = /^sc_[A-Za-z0-9_-]{43}$/;

export const COLLABORATOR_MESSAGES = {
  sliceRevoked: 'This shared slice was revoked, so nobody can be invited to it.',
  sliceExpired: 'This shared slice has expired, so nobody can be invited to it.',
  linkRevoked: 'This link to a shared slice was revoked. Ask the person who invited you for a new one.',
  linkExpired: 'This link to a shared slice has expired. Ask the person who invited you for a new one.',
  linkUnknown: 'This link to a shared slice is not valid.',
} as const;

const nameOf = (first: string | null | undefined, last: string | null | undefined, fallback: string): string => [first, last].filter(Boolean).join(' ') || fallback;

function presentCollaborator(row: CollaboratorListRow, now = Date.now()): Collaborator {
  const status = row.revoked_at ? 'revoked' : new Date(row.expires_at).getTime() <= now ? 'expired' : 'active';
  return {
    id: row.id,
    sliceId: row.slice_id,
    email: row.email,
    status,
    invitedAt: isoTimestamp(row.invited_at),
    invitedBy: row.invited_by_name,
    expiresAt: isoTimestamp(row.expires_at),
    revokedAt: isoTimestampOrNull(row.revoked_at),
    opens: Number(row.opens),
    lastOpenedAt: isoTimestampOrNull(row.last_opened_at),
  };
}

async function requireSlice(db: Knex, scope: CompanyScope, sliceId: string): Promise<SliceListRow & { result: string }> {
  const slice = await findSlice(db, scope, sliceId);
  if (!slice) throw notFound();
  return slice;
}

const linkOf = (publicUrl: string, token: string): string => `${publicUrl.replace(/\/+$/, '')}/collaborator/${token}`;

export function collaboratorEmail(input: { companyName: string; inviter: string; title: string; link: string; expiresAt: Date }): { subject: string; text: string } {
  return {
    subject: `${input.inviter} shared “${input.title}” with you on Paybench`,
    text:
      `Hello,\n\n${input.inviter} of ${input.companyName} invited you to read a slice of market data on Paybench: “${input.title}”.\n\n` +
      `Open it here (no account needed; the link is yours alone, read-only, and works until ${input.expiresAt.toUTCString()}):\n${input.link}\n\n` +
      `If you did not expect this, ignore this e-mail.\n`,
  };
}

type InviteContext = Pick<RequestContext, 'afterCommit'> & { deps: Pick<AppDeps, 'db' | 'mailer' | 'config'> };

export async function inviteCollaborator(ctx: InviteContext, caller: Caller, sliceId: string, input: Schemas['SliceCollaboratorInput']): Promise<Collaborator> {
  const { db, config, mailer } = ctx.deps;
  const scope = companyScope(caller);
  const slice = await requireSlice(db, scope, sliceId);
  const status = sliceStatus(slice);
  if (status === 'revoked') throw new HttpError(409, 'slice_revoked', { message: COLLABORATOR_MESSAGES.sliceRevoked });
  if (status === 'expired') throw new HttpError(409, 'slice_expired', { message: COLLABORATOR_MESSAGES.sliceExpired });
  const email = normaliseEmail(input.email);
  const company = await findCompany(db, scope);
  const companyName = company?.name ?? 'your company';
  const colleague = await usersOf(db, scope).where('users.email', email).first();
  if (colleague) {
    throw new HttpError(409, 'collaborator_in_company', {
      message: `${email} already has a Paybench account at ${companyName}: they can open the slice signed in.`,
      errors: [{ field: 'body.email', message: 'belongs to a person of your company' }],
    });
  }
  const now = new Date();
  const wanted = now.getTime() + (input.expiresInDays ?? DEFAULT_DAYS) * DAY_MS;
  const expiresAt = new Date(slice.expires_at ? Math.min(wanted, new Date(slice.expires_at).getTime()) : wanted);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const inviter = nameOf(caller.firstName, caller.lastName, caller.email);
  const row: CollaboratorRow = {
    id: newId(),
    company_id: scope.companyId,
    slice_id: slice.id,
    email,
    token_hash: hashToken(token),
    invited_by: caller.userId,
    invited_by_name: inviter,
    invited_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    revoked_at: null,
    revoked_by: null,
  };
  try {
    await db.transaction(async (trx) => {
      await revokeEarlierLinks(trx, scope, { sliceId: slice.id, email, by: caller.userId, at: now.toISOString() });
      await insertCollaborator(trx, row);
      await emit(trx, { name: 'sliceCollaborator.invited', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'sharedSlice', subjectId: slice.id, payload: { collaboratorId: row.id, email, expiresAt: row.expires_at as string } });
    });
  } catch (error) {
    // An invitation of the same address committed meanwhile holds the one live link: this request
    // is the same invitation, answered with that link (already e-mailed), not a second one.
    const live = isUniqueViolation(error) ? await findLiveCollaborator(db, scope, slice.id, email) : undefined;
    if (live) return presentCollaborator(live);
    throw error;
  }
  const mail = collaboratorEmail({ companyName, inviter, title: slice.title, link: linkOf(config.publicUrl, token), expiresAt });
  ctx.afterCommit(() => mailer.send({ companyId: scope.companyId, to: email, ...mail }));
  return presentCollaborator({ ...row, opens: 0, last_opened_at: null });
}

export async function sliceCollaborators(ctx: Pick<ServiceContext, 'db' | 'caller'>, sliceId: string): Promise<Collaborator[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await requireSlice(db, scope, sliceId);
  return (await listCollaborators(db, scope, sliceId)).map((row) => presentCollaborator(row));
}

export async function revokeCollaborator(ctx: Pick<ServiceContext, 'db' | 'caller'>, sliceId: string, collaboratorId: string): Promise<Collaborator> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const found = await findCollaborator(db, scope, sliceId, collaboratorId);
  if (!found) throw notFound();
  if (!found.revoked_at) {
    await db.transaction(async (trx) => {
      await markCollaboratorRevoked(trx, scope, collaboratorId, caller.userId, new Date().toISOString());
      await emit(trx, { name: 'sliceCollaborator.revoked', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'sharedSlice', subjectId: sliceId, payload: { collaboratorId, email: found.email } });
    });
  }
  const row = await findCollaborator(db, scope, sliceId, collaboratorId);
  if (!row) throw notFound();
  return presentCollaborator(row);
}

interface LooseMarket {
  companyStages?: string[];
  companyOwnershipGroups?: string[];
  locations?: string[];
  industries?: string[];
  founderTypes?: string[];
  employmentTypes?: MarketEmploymentType[];
}

function namesOf(ids: Iterable<string>): Schemas['CollaboratorSliceView']['names'] {
  const out: Schemas['CollaboratorSliceView']['names'] = [];
  for (const id of new Set(ids)) {
    const name = findJobFamily(id)?.name ?? findLevel(id)?.displayString ?? findLevelBlend(id)?.displayString ?? findCompensationType(id)?.title;
    if (name) out.push({ id, name });
  }
  return out;
}

/** Who opened it, as far as the request tells: kept with every open. */
export interface OpenedBy {
  address: string | null;
  userAgent: string | null;
}

/**
 * What a collaborator's link shows. An unknown link, a revoked or expired one, and a slice that was
 * revoked or has expired are all 404, each saying why; an open that is shown is recorded.
 */
export async function openCollaboratorSlice(ctx: Pick<ServiceContext, 'db'>, token: string, openedBy: OpenedBy): Promise<Schemas['CollaboratorSliceView']> {
  const { db } = ctx;
  const row = TOKEN.test(token) ? await findCollaboratorByToken(db, hashToken(token)) : undefined;
  if (!row) throw new HttpError(404, 'collaborator_link_unknown', { message: COLLABORATOR_MESSAGES.linkUnknown });
  if (row.revoked_at) throw new HttpError(404, 'collaborator_link_revoked', { message: COLLABORATOR_MESSAGES.linkRevoked });
  if (new Date(row.expires_at).getTime() <= Date.now()) throw new HttpError(404, 'collaborator_link_expired', { message: COLLABORATOR_MESSAGES.linkExpired });
  const scope = { companyId: row.company_id };
  const slice = await findSlice(db, scope, row.slice_id);
  if (!slice) throw new HttpError(404, 'collaborator_link_unknown', { message: COLLABORATOR_MESSAGES.linkUnknown });
  const status = sliceStatus(slice);
  if (status === 'revoked') throw new HttpError(404, 'slice_revoked', { message: 'This shared slice was revoked.' });
  if (status === 'expired') throw new HttpError(404, 'slice_expired', { message: 'This shared slice has expired.' });
  await insertOpen(db, { id: newId(), company_id: row.company_id, collaborator_id: row.id, opened_at: new Date().toISOString(), address: openedBy.address?.slice(0, 64) ?? null, user_agent: openedBy.userAgent?.slice(0, 400) ?? null });
  const company = await findCompany(db, scope);
  const request = JSON.parse(slice.request) as { marketFilters?: LooseMarket[] };
  const markets = (request.marketFilters ?? []).map((m) =>
    marketName({ companyStages: m.companyStages ?? [], companyOwnershipGroups: m.companyOwnershipGroups ?? [], locations: m.locations ?? [], industries: m.industries ?? [], founderTypes: m.founderTypes, employmentTypes: m.employmentTypes }),
  );
  const common = {
    companyName: company?.name ?? '',
    title: slice.title,
    kind: slice.kind,
    releaseVersion: slice.release_version,
    sharedAt: isoTimestamp(slice.created_at),
    invitedBy: row.invited_by_name,
    email: row.email,
    expiresAt: isoTimestamp(row.expires_at),
    markets,
  };
  if (slice.kind === 'executive') {
    const stored = JSON.parse(slice.result) as Schemas['ExecutiveCompResult'];
    const rows = stored.rows.map((r) => ({ ...r, cells: r.cells.map(storedCell) }));
    const names = namesOf(rows.flatMap((r) => r.cells.map((c) => c.compensationTypeId)));
    return { ...common, names, result: null, executiveResult: { ...stored, percentiles: storedPercentiles(stored.percentiles), rows } };
  }
  const stored = JSON.parse(slice.result) as Schemas['BenchmarkResult'];
  const cells = stored.cells.map(storedCell);
  const names = namesOf(cells.flatMap((c) => [c.jobFamilyId, c.levelId, c.compensationTypeId]));
  return {
    ...common,
    names,
    executiveResult: null,
    result: { ...stored, percentiles: storedPercentiles(stored.percentiles), cells, exchangeRates: stored.exchangeRates ?? [], exchangeRatesStale: stored.exchangeRatesStale ?? false },
  };
}
