import type { components } from '../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../db/timestamps.js';
import type { WorkflowHistoryEntry } from '../workflow/present.js';
import type { StoredApproval } from './approvals.js';
import { noBand } from './checks.js';
import { type EquityPrices, type StoredPackage, parseAlternatives, parsePackage, presentPackage } from './package.js';
import type { OfferRow } from './store.js';
import { CANDIDATE_ACTOR, SYSTEM_ACTOR, offerWorkflow, type OfferState } from './workflow.js';

type Schemas = components['schemas'];

export interface OfferAcceptanceRecord {
  signature: string;
  acceptedAt: string;
  offerVersion: number;
  alternativeId: string | null;
  packageLabel: string;
}

export const parseApproval = (row: OfferRow): StoredApproval | null => (row.approval ? (JSON.parse(row.approval) as StoredApproval) : null);
export const parseAcceptance = (row: OfferRow): OfferAcceptanceRecord | null => (row.acceptance ? (JSON.parse(row.acceptance) as OfferAcceptanceRecord) : null);

/**
 * The package the candidate accepted — the alternative they chose, else the offer's own — or null
 * before acceptance. Every place that shows what was agreed (page, letter, PDF, export, hire) reads this.
 */
export function acceptedPackage(row: OfferRow): StoredPackage | null {
  const acceptance = parseAcceptance(row);
  if (!acceptance) return null;
  if (acceptance.alternativeId === null) return parsePackage(row.package);
  return parseAlternatives(row.alternatives).find((alternative) => alternative.id === acceptance.alternativeId)?.package ?? parsePackage(row.package);
}

/** The package that binds: the accepted one once accepted, else the offer's own. */
export const bindingPackage = (row: OfferRow): StoredPackage => acceptedPackage(row) ?? parsePackage(row.package);

/** The acceptance as recorded, with the package it accepted. */
export function presentAcceptance(row: OfferRow, prices: EquityPrices): Schemas['OfferAcceptance'] | null {
  const acceptance = parseAcceptance(row);
  const pkg = acceptedPackage(row);
  return acceptance && pkg ? { ...acceptance, package: presentPackage(pkg, row.currency, prices) } : null;
}

export function stateOf(row: OfferRow): OfferState {
  if (!offerWorkflow.isState(row.state)) throw new Error(`offer ${row.id} is in ${row.state}, which is not a state of offers`);
  return row.state;
}

export interface CandidateNames {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export function presentSummary(row: OfferRow, candidate: CandidateNames | undefined): Schemas['OfferSummary'] {
  return {
    id: row.id,
    version: row.version,
    state: stateOf(row),
    candidate: candidate ?? { id: row.candidate_id, email: row.candidate_email, firstName: '', lastName: '' },
    title: row.title,
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    locationId: row.location_id,
    department: row.department,
    startDate: row.start_date,
    expiresOn: row.expires_on,
    currency: row.currency,
    // Once accepted, the base agreed (an alternative's, when the candidate chose one).
    base: { amount: bindingPackage(row).base, currency: row.currency },
    outOfRange: Boolean(row.out_of_range),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
    sentAt: isoTimestampOrNull(row.sent_at),
    openedAt: isoTimestampOrNull(row.opened_at),
    lastViewedAt: isoTimestampOrNull(row.last_viewed_at),
    viewCount: row.view_count,
    acceptedAt: isoTimestampOrNull(row.accepted_at),
    declinedAt: isoTimestampOrNull(row.declined_at),
  };
}

export function presentHistoryEntry(entry: WorkflowHistoryEntry, candidateName: string): Schemas['OfferHistoryEntry'] {
  const id = entry.actor.userId;
  const actor: Schemas['OfferHistoryEntry']['actor'] = id.startsWith(CANDIDATE_ACTOR)
    ? { kind: 'candidate', userId: null, name: candidateName || null }
    : id === SYSTEM_ACTOR
      ? { kind: 'system', userId: null, name: null }
      : { kind: 'user', userId: id, name: entry.actor.name };
  return { id: entry.id, action: entry.action, from: entry.from, to: entry.to, subjectVersion: entry.subjectVersion, comment: entry.comment, actor, at: entry.at };
}

export interface OfferDetailParts {
  candidate: CandidateNames | undefined;
  prices: EquityPrices;
  checks: Schemas['OfferChecks'];
  approval: Schemas['OfferApprovalRoute'] | null;
  history: Schemas['OfferHistoryEntry'][];
  actions: Schemas['Offer']['actions'];
  linkExpiresAt: string | null;
  hiringManager: Schemas['OfferHiringManager'] | null;
  hire: Schemas['OfferHire'] | null;
}

export function presentOffer(row: OfferRow, parts: OfferDetailParts): Schemas['Offer'] {
  const alternatives = parseAlternatives(row.alternatives);
  return {
    ...presentSummary(row, parts.candidate),
    companyJobId: row.company_job_id,
    track: row.track,
    countryCode: row.country_code,
    package: presentPackage(parsePackage(row.package), row.currency, parts.prices),
    alternatives: alternatives.map((alternative) => ({
      id: alternative.id,
      label: alternative.label,
      package: presentPackage(alternative.package, row.currency, parts.prices),
      band: parts.checks.alternatives.find((check) => check.id === alternative.id)?.band ?? noBand('Not checked'),
    })),
    benefitsSummary: row.benefits_summary,
    welcomeMessage: row.welcome_message,
    checks: parts.checks,
    approval: parts.approval,
    acceptance: presentAcceptance(row, parts.prices),
    declineReason: row.decline_reason,
    hiredEmployeeId: row.hired_employee_id,
    hiringManager: parts.hiringManager,
    hire: parts.hire,
    history: parts.history,
    actions: parts.actions,
    linkExpiresAt: parts.linkExpiresAt,
  };
}
