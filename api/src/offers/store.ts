import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { listRoles, parsePermissions } from '../access/store.js';
import { customerUsersOf } from '../access/usersStore.js';
import { hasPermission } from '../access/permissions.js';

/* The offers tables: offers, their letter links (token hashes only) and the approval settings. */

export interface OfferRow {
  id: string;
  company_id: string;
  candidate_id: string;
  candidate_email: string;
  company_job_id: string | null;
  job_family_id: string;
  level_id: string;
  track: string | null;
  title: string;
  department: string | null;
  location_id: string;
  country_code: string | null;
  start_date: string;
  expires_on: string;
  currency: string;
  base_amount: number;
  package: string;
  alternatives: string;
  benefits_summary: string;
  welcome_message: string;
  state: string;
  version: number;
  out_of_range: boolean | number;
  approval: string | null;
  send_number: number;
  sent_at: string | Date | null;
  opened_at: string | Date | null;
  last_viewed_at: string | Date | null;
  view_count: number;
  accepted_at: string | Date | null;
  acceptance: string | null;
  declined_at: string | Date | null;
  decline_reason: string | null;
  hired_employee_id: string | null;
  /** The employee the hire will report to; absent on rows read before it was recorded. */
  hiring_manager_id?: string | null;
  created_by: string;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

function normalise(row: OfferRow): OfferRow {
  return {
    ...row,
    base_amount: Number(row.base_amount),
    version: Number(row.version),
    send_number: Number(row.send_number),
    view_count: Number(row.view_count),
    out_of_range: Boolean(row.out_of_range),
  };
}

export function offersOf(db: Knex, scope: CompanyScope) {
  return db<OfferRow>('offers').where('offers.company_id', scope.companyId);
}

export async function findOffer(db: Knex, scope: CompanyScope, id: string): Promise<OfferRow | undefined> {
  const row = (await offersOf(db, scope).where('offers.id', id).first()) as OfferRow | undefined;
  return row ? normalise(row) : undefined;
}

export async function listOfferRows(db: Knex, scope: CompanyScope, filter: { state?: string; candidateId?: string }): Promise<OfferRow[]> {
  const query = offersOf(db, scope);
  if (filter.state) query.where('offers.state', filter.state);
  if (filter.candidateId) query.where('offers.candidate_id', filter.candidateId);
  const rows = (await query.orderBy([{ column: 'offers.created_at', order: 'desc' }, { column: 'offers.id', order: 'desc' }])) as OfferRow[];
  return rows.map(normalise);
}

export async function offersToEmail(db: Knex, scope: CompanyScope, email: string): Promise<OfferRow[]> {
  const rows = (await offersOf(db, scope)
    .where('offers.candidate_email', email)
    .whereNot('offers.state', 'draft')
    .whereNot('offers.state', 'pendingApproval')
    .whereNot('offers.state', 'approved')
    .orderBy([{ column: 'offers.created_at', order: 'desc' }, { column: 'offers.id', order: 'desc' }])) as OfferRow[];
  return rows.map(normalise);
}

/** Sent or opened offers whose expiry date ended before `today`. */
export async function dueToExpire(db: Knex, scope: CompanyScope, today: string): Promise<OfferRow[]> {
  const rows = (await offersOf(db, scope).whereIn('offers.state', ['sent', 'opened']).where('offers.expires_on', '<', today)) as OfferRow[];
  return rows.map(normalise);
}

export async function insertOffer(db: Knex, row: OfferRow): Promise<void> {
  await db('offers').insert(row);
}

export async function deleteOfferRow(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await db('offer_letter_links').where({ company_id: scope.companyId, offer_id: id }).delete();
  await db('offers').where({ company_id: scope.companyId, id }).delete();
}

// ── letter links ─────────────────────────────────────────────────────────────────────────

export interface LetterLinkRow {
  id: string;
  company_id: string;
  offer_id: string;
  token_hash: string;
  send_number: number;
  purpose: string;
  expires_at: string | Date;
  revoked_at: string | Date | null;
  created_at: string | Date;
}

export async function insertLink(db: Knex, row: LetterLinkRow): Promise<void> {
  await db('offer_letter_links').insert(row);
}

/** By the token's hash alone: the link names its company (public letter reads have no caller). */
export async function findLinkByHash(db: Knex, tokenHash: string): Promise<LetterLinkRow | undefined> {
  const row = (await db<LetterLinkRow>('offer_letter_links').where({ token_hash: tokenHash }).first()) as LetterLinkRow | undefined;
  return row ? { ...row, send_number: Number(row.send_number) } : undefined;
}

export async function revokeLinks(db: Knex, scope: CompanyScope, offerId: string, at: string): Promise<void> {
  await db('offer_letter_links').where({ company_id: scope.companyId, offer_id: offerId }).whereNull('revoked_at').update({ revoked_at: at });
}

/** The latest expiry of the offer's links still valid for this sending (the recruiter's "link works until"). */
export async function latestLinkExpiry(db: Knex, scope: CompanyScope, offerId: string, sendNumber: number): Promise<string | Date | null> {
  const row = (await db('offer_letter_links')
    .where({ company_id: scope.companyId, offer_id: offerId, send_number: sendNumber, purpose: 'letter' })
    .whereNull('revoked_at')
    .max({ latest: 'expires_at' })
    .first()) as { latest: string | Date | null } | undefined;
  return row?.latest ?? null;
}

// ── approval settings ────────────────────────────────────────────────────────────────────

export interface ApprovalSettingsRow {
  company_id: string;
  rules: string;
  version: number;
  updated_by: string | null;
  updated_at: string | Date;
}

export async function findApprovalSettings(db: Knex, scope: CompanyScope): Promise<ApprovalSettingsRow | undefined> {
  const row = (await db<ApprovalSettingsRow>('offer_approval_settings').where({ company_id: scope.companyId }).first()) as ApprovalSettingsRow | undefined;
  return row ? { ...row, version: Number(row.version) } : undefined;
}

export async function insertApprovalSettings(db: Knex, row: ApprovalSettingsRow): Promise<void> {
  await db('offer_approval_settings').insert(row);
}

// ── who hears about offers ───────────────────────────────────────────────────────────────

/** Active users of the company whose roles let them see offers: the recruiters told live. */
export async function offerViewers(db: Knex, scope: CompanyScope): Promise<string[]> {
  const roleIds = (await listRoles(db, scope)).filter((role) => hasPermission(parsePermissions(role), 'offers', 'view', undefined)).map((role) => role.id);
  if (!roleIds.length) return [];
  const rows = (await customerUsersOf(db, scope)
    .join('user_roles', 'user_roles.user_id', 'users.id')
    .whereIn('user_roles.role_id', roleIds)
    .andWhere('users.status', 'active')
    .distinct('users.id')) as { id: string }[];
  return rows.map((row) => row.id);
}

/** Names of users of the company, for approvers (and which ids are users of it at all). */
export async function userNames(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = (await customerUsersOf(db, scope).whereIn('users.id', [...new Set(ids)]).andWhere('users.status', 'active').select('users.id', 'users.first_name', 'users.last_name')) as {
    id: string;
    first_name: string | null;
    last_name: string | null;
  }[];
  return new Map(rows.map((row) => [row.id, [row.first_name, row.last_name].filter(Boolean).join(' ')]));
}
