import type { Knex } from 'knex';
import { type Caller, type CompanyScope, actorFor as callerActor, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { emailsOfUsers, findCompany } from '../access/usersStore.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import type { AppDeps } from '../deps.js';
import { HttpError, badRequest, type FieldError, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { findJobFamily, findLevel, findLocation } from '../reference/catalog/index.js';
import { Converter, today } from '../money/converter.js';
import { minorUnitOf } from '../money/minorUnits.js';
import { candidateForOffer, hireStatusOf } from '../people/offerHire.js';
import { emit } from '../platform/events.js';
import { availableActions, history, transition } from '../workflow/service.js';
import { type StoredApproval, awaitedApprovers, matchingRule, presentRoute } from './approvals.js';
import { type CheckSubject, companyJobOf, offerChecks } from './checks.js';
import { checkHiringManager, hireOf, hiringManagerOf, mayCancelHires } from './hire.js';
import { type AlternativeInput, type EquityPrices, type StoredAlternative, equityPricesOf, parseAlternatives, parsePackage, storePackage } from './package.js';
import { type CandidateNames, parseApproval, presentHistoryEntry, presentOffer, presentSummary, stateOf } from './present.js';
import { type OfferUpdateEvent, announceOfferUpdate } from './realtime.js';
import { type OfferRow, deleteOfferRow, dueToExpire, findOffer, insertOffer, latestLinkExpiry, listOfferRows, offersOf, revokeLinks } from './store.js';
import { OFFER_SUBJECT, type OfferState, SYSTEM_ACTOR, offerWorkflow } from './workflow.js';

type Schemas = components['schemas'];
type Offer = Schemas['Offer'];

/** What a request's handler hands the service beyond the caller. */
export interface OfferContext {
  deps: AppDeps;
  afterCommit: (task: () => Promise<unknown>) => void;
}

// ── actors that are not users ──────────────────────────────────────────────────────────────

/** The candidate (by their link) or the product (expiry) as the actor of a workflow transition. */
export const actorFor = (userId: string, companyId: string): Caller => callerActor(userId, companyId, { isCandidate: true });

// ── shared reads ───────────────────────────────────────────────────────────────────────────

export async function pricesOf(db: Knex, scope: CompanyScope): Promise<EquityPrices & { companyName: string }> {
  const company = await findCompany(db, scope);
  if (!company) throw notFound();
  return { ...equityPricesOf(company), companyName: company.name };
}

export async function requireOffer(db: Knex, scope: CompanyScope, id: string): Promise<OfferRow> {
  const row = await findOffer(db, scope, id);
  if (!row) throw notFound();
  return row;
}

/** The subject of a workflow transition, with the approvers it waits for (the approve guard). */
export const subjectOf = (row: OfferRow) => ({
  subjectType: OFFER_SUBJECT,
  subjectId: row.id,
  currentState: stateOf(row),
  version: row.version,
  awaiting: awaitedApprovers(parseApproval(row)),
});

/** Writes the change at the version read; the state, when given, was checked by `transition`. */
export async function writeOffer(trx: Knex, scope: CompanyScope, row: OfferRow, changes: Partial<OfferRow>): Promise<OfferRow> {
  const updated_at = new Date().toISOString();
  const version = await updateAtVersion(() => offersOf(trx, scope).where('offers.id', row.id), row.version, { ...changes, updated_at }, 'this offer');
  return { ...row, ...changes, updated_at, version };
}

const EVENT_NAMES = {
  created: 'offer.created',
  updated: 'offer.updated',
  submitted: 'offer.submitted',
  approved: 'offer.approved',
  rejected: 'offer.rejected',
  sent: 'offer.sent',
  opened: 'offer.opened',
  viewed: 'offer.viewed',
  accepted: 'offer.accepted',
  declined: 'offer.declined',
  expired: 'offer.expired',
  rescinded: 'offer.rescinded',
  deleted: 'offer.deleted',
  hireCancelled: 'offer.hireCancelled',
} as const;

/** The domain event (audit and outbox, in the transaction) and the recruiters' live update (after the commit). */
export async function announce(trx: Knex, scope: CompanyScope, ctx: OfferContext, update: { row: OfferRow; event: OfferUpdateEvent; actorUserId: string | null }): Promise<void> {
  const { row, event, actorUserId } = update;
  await emit(trx, { companyId: scope.companyId, actorUserId, name: EVENT_NAMES[event], subjectType: OFFER_SUBJECT, subjectId: row.id, payload: { state: row.state, version: row.version } });
  await announceOfferUpdate(trx, scope, ctx.deps.realtime, ctx.afterCommit, { offerId: row.id, state: row.state, version: row.version, event, at: new Date().toISOString() });
}

// ── expiry ─────────────────────────────────────────────────────────────────────────────────

/** Expires one sent or opened offer whose expiry date has ended; its links stop working. */
export async function expireOffer(trx: Knex, scope: CompanyScope, ctx: OfferContext, row: OfferRow): Promise<OfferRow> {
  const actor = actorFor(SYSTEM_ACTOR, scope.companyId);
  const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(row), action: 'expire', actor, comment: `The offer expired at the end of ${row.expires_on}.` });
  const written = await writeOffer(trx, scope, row, { state: next.state });
  await revokeLinks(trx, scope, row.id, next.at);
  await announce(trx, scope, ctx, { row: written, event: 'expired', actorUserId: null });
  return written;
}

/** Expiry is enforced when offers are read: a letter past its date is expired before anyone sees it. */
export async function expireDue(db: Knex, scope: CompanyScope, ctx: OfferContext): Promise<void> {
  const due = await dueToExpire(db, scope, today());
  for (const row of due) {
    await db.transaction(async (trx) => {
      const current = await findOffer(trx, scope, row.id);
      if (current && (current.state === 'sent' || current.state === 'opened') && current.expires_on < today()) await expireOffer(trx, scope, ctx, current);
    });
  }
}

// ── input ──────────────────────────────────────────────────────────────────────────────────

interface Placement {
  companyJobId: string | null;
  jobFamilyId: string;
  levelId: string;
  track: string | null;
  title: string;
  department: string | null;
  locationId: string;
  countryCode: string | null;
  currency: string;
}

type PlacementInput = {
  companyJobId?: string | null;
  jobFamilyId: string;
  levelId: string;
  track?: string | null;
  title?: string;
  department?: string | null;
  locationId: string;
  countryCode?: string | null;
  currency: string;
};

async function resolvePlacement(db: Knex, scope: CompanyScope, input: PlacementInput, errors: FieldError[]): Promise<Placement> {
  let { jobFamilyId, levelId } = input;
  let track = input.track ?? null;
  let jobTitle: string | null = null;
  const companyJobId = input.companyJobId ?? null;
  if (companyJobId) {
    const job = await companyJobOf(db, scope, companyJobId);
    if (!job) errors.push({ field: 'body.companyJobId', message: `${companyJobId} is not a company job of this company` });
    else {
      jobFamilyId = job.job_family_id;
      levelId = job.level_id;
      track = job.track;
      jobTitle = job.title;
    }
  }
  const family = findJobFamily(jobFamilyId);
  if (!family) errors.push({ field: 'body.jobFamilyId', message: `${jobFamilyId} is not a job family of the market catalog` });
  if (!findLevel(levelId)) errors.push({ field: 'body.levelId', message: `${levelId} is not a level of the market catalog` });
  const location = findLocation(input.locationId);
  if (!location) errors.push({ field: 'body.locationId', message: `${input.locationId} is not a location of the market catalog` });
  if ((await minorUnitOf(db, input.currency)) === undefined) errors.push({ field: 'body.currency', message: `${input.currency} is not a current ISO 4217 currency` });
  const title = input.title?.trim() || jobTitle || family?.name || jobFamilyId;
  return {
    companyJobId,
    jobFamilyId,
    levelId,
    track,
    title,
    department: input.department?.trim() || null,
    locationId: input.locationId,
    countryCode: input.countryCode ?? location?.country ?? null,
    currency: input.currency,
  };
}

async function storeAlternatives(
  inputs: readonly AlternativeInput[],
  currency: string,
  prices: EquityPrices,
  converter: Converter,
  errors: FieldError[],
): Promise<StoredAlternative[]> {
  const out: StoredAlternative[] = [];
  const ids = new Set<string>();
  for (const [index, alternative] of inputs.entries()) {
    const id = alternative.id?.trim() || newId();
    if (ids.has(id)) errors.push({ field: `body.alternatives.${index}.id`, message: 'names an alternative twice' });
    ids.add(id);
    const label = alternative.label.trim();
    if (!label) errors.push({ field: `body.alternatives.${index}.label`, message: 'must not be blank' });
    out.push({ id, label, package: await storePackage(alternative.package, { currency, prices, converter, field: `body.alternatives.${index}.package`, errors }) });
  }
  return out;
}

function throwIfInvalid(errors: FieldError[]): void {
  if (errors.length) throw badRequest(errors[0]?.message ?? 'The offer is not valid', errors);
}

const checkSubject = (placement: Placement, pkg: CheckSubject['package'], alternatives: StoredAlternative[]): CheckSubject => ({
  jobFamilyId: placement.jobFamilyId,
  levelId: placement.levelId,
  department: placement.department,
  locationId: placement.locationId,
  countryCode: placement.countryCode,
  currency: placement.currency,
  package: pkg,
  alternatives,
});

// ── presenting ─────────────────────────────────────────────────────────────────────────────

export async function candidateNames(db: Knex, scope: CompanyScope, id: string): Promise<CandidateNames | undefined> {
  const candidate = await candidateForOffer(db, scope, id);
  return candidate ? { id: candidate.id, email: candidate.email, firstName: candidate.firstName, lastName: candidate.lastName } : undefined;
}

const WORKFLOW_BUTTONS: Partial<Record<string, Offer['actions'][number]>> = {
  submit: 'submit',
  clear: 'submit',
  approve: 'approve',
  recordApproval: 'approve',
  reject: 'reject',
  send: 'send',
  rescind: 'rescind',
  cancelHire: 'cancelHire',
};

async function actionsFor(db: Knex, scope: CompanyScope, row: OfferRow, caller: Caller): Promise<Offer['actions']> {
  const state = stateOf(row);
  const canEdit = hasPermission(caller.permissions, 'offers', 'edit', undefined);
  const buttons = new Set<Offer['actions'][number]>();
  if (canEdit && (state === 'draft' || offerWorkflow.transitionFrom(state, 'revise'))) buttons.add('edit');
  if (canEdit && state === 'draft') buttons.add('delete');
  for (const available of await availableActions(offerWorkflow, subjectOf(row), caller)) {
    const button = WORKFLOW_BUTTONS[available.action];
    if (button) buttons.add(button);
  }
  // A hire can be cancelled only before it starts, and only by those who may remove an employee record.
  if (buttons.has('cancelHire') && (!mayCancelHires(caller) || (await hireStatusOf(db, scope, row.hired_employee_id)) === 'started')) buttons.delete('cancelHire');
  const order: Offer['actions'] = ['edit', 'delete', 'submit', 'approve', 'reject', 'send', 'rescind', 'cancelHire'];
  return order.filter((action) => buttons.has(action));
}

export async function detail(deps: AppDeps, db: Knex, caller: Caller, row: OfferRow): Promise<Offer> {
  const scope = companyScope(caller);
  const prices = await pricesOf(db, scope);
  const candidate = await candidateNames(db, scope, row.candidate_id);
  const converter = await Converter.open(db, today());
  const placement: Placement = {
    companyJobId: row.company_job_id,
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    track: row.track,
    title: row.title,
    department: row.department,
    locationId: row.location_id,
    countryCode: row.country_code,
    currency: row.currency,
  };
  const approval = parseApproval(row);
  const route = approval ? await presentRoute(db, scope, approval) : null;
  const live = await offerChecks(deps, db, caller, checkSubject(placement, parsePackage(row.package), parseAlternatives(row.alternatives)), converter);
  // Once submitted, the route the offer went through — with the decisions recorded — not today's rule with nobody's decision.
  const checks = route ? { ...live, approvalRoute: route } : live;
  const candidateName = candidate ? `${candidate.firstName} ${candidate.lastName}`.trim() : '';
  const linkExpiry = row.state === 'sent' || row.state === 'opened' ? await latestLinkExpiry(db, scope, row.id, row.send_number) : null;
  return presentOffer(row, {
    candidate,
    prices,
    checks,
    approval: route,
    history: (await history(db, scope, OFFER_SUBJECT, row.id)).map((entry) => presentHistoryEntry(entry, candidateName)),
    actions: await actionsFor(db, scope, row, caller),
    linkExpiresAt: linkExpiry ? new Date(linkExpiry).toISOString() : null,
    hiringManager: await hiringManagerOf(db, scope, row),
    hire: await hireOf(db, scope, row),
  });
}

// ── recruiters' operations ─────────────────────────────────────────────────────────────────

export async function listOffers(ctx: OfferContext, caller: Caller, query: { state?: OfferState; candidateId?: string }): Promise<Schemas['OfferSummary'][]> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  await expireDue(db, scope, ctx);
  const rows = await listOfferRows(db, scope, query);
  const names = new Map<string, CandidateNames | undefined>();
  for (const row of rows) if (!names.has(row.candidate_id)) names.set(row.candidate_id, await candidateNames(db, scope, row.candidate_id));
  return rows.map((row) => presentSummary(row, names.get(row.candidate_id)));
}

export async function getOffer(ctx: OfferContext, caller: Caller, id: string): Promise<Offer> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  await requireOffer(db, scope, id);
  await expireDue(db, scope, ctx);
  return detail(ctx.deps, db, caller, await requireOffer(db, scope, id));
}

export async function checkOffer(ctx: OfferContext, caller: Caller, input: Schemas['OfferCheckRequest']): Promise<Schemas['OfferChecks']> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  const errors: FieldError[] = [];
  const prices = await pricesOf(db, scope);
  const converter = await Converter.open(db, today());
  const placement = await resolvePlacement(db, scope, input, errors);
  throwIfInvalid(errors);
  const pkg = await storePackage(input.package, { currency: placement.currency, prices, converter, field: 'body.package', errors });
  const alternatives = await storeAlternatives(input.alternatives ?? [], placement.currency, prices, converter, errors);
  throwIfInvalid(errors);
  return offerChecks(ctx.deps, db, caller, checkSubject(placement, pkg, alternatives), converter);
}

export async function createOffer(ctx: OfferContext, caller: Caller, input: Schemas['OfferInput']): Promise<Offer> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  const errors: FieldError[] = [];
  const candidate = await candidateForOffer(db, scope, input.candidateId);
  if (!candidate) errors.push({ field: 'body.candidateId', message: `${input.candidateId} is not a candidate of this company` });
  const prices = await pricesOf(db, scope);
  const converter = await Converter.open(db, today());
  const placement = await resolvePlacement(db, scope, input, errors);
  throwIfInvalid(errors);
  const pkg = await storePackage(input.package, { currency: placement.currency, prices, converter, field: 'body.package', errors });
  const alternatives = await storeAlternatives(input.alternatives ?? [], placement.currency, prices, converter, errors);
  await checkHiringManager(db, scope, input.hiringManagerId, errors);
  if (input.expiresOn < today()) errors.push({ field: 'body.expiresOn', message: 'must not be in the past' });
  throwIfInvalid(errors);
  const checks = await offerChecks(ctx.deps, db, caller, checkSubject(placement, pkg, alternatives), converter);
  const now = new Date().toISOString();
  const row: OfferRow = {
    id: newId(),
    company_id: scope.companyId,
    candidate_id: input.candidateId,
    candidate_email: candidate?.email ?? '',
    company_job_id: placement.companyJobId,
    job_family_id: placement.jobFamilyId,
    level_id: placement.levelId,
    track: placement.track,
    title: placement.title,
    department: placement.department,
    location_id: placement.locationId,
    country_code: placement.countryCode,
    start_date: input.startDate,
    expires_on: input.expiresOn,
    currency: placement.currency,
    base_amount: pkg.base,
    package: JSON.stringify(pkg),
    alternatives: JSON.stringify(alternatives),
    benefits_summary: input.benefitsSummary ?? '',
    welcome_message: input.welcomeMessage ?? '',
    state: offerWorkflow.initial,
    version: 1,
    out_of_range: checks.outOfRange,
    approval: null,
    send_number: 0,
    sent_at: null,
    opened_at: null,
    last_viewed_at: null,
    view_count: 0,
    accepted_at: null,
    acceptance: null,
    declined_at: null,
    decline_reason: null,
    hired_employee_id: null,
    hiring_manager_id: input.hiringManagerId ?? null,
    created_by: caller.userId,
    updated_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  await db.transaction(async (trx) => {
    await insertOffer(trx, row);
    await announce(trx, scope, ctx, { row, event: 'created', actorUserId: caller.userId });
  });
  return detail(ctx.deps, db, caller, await requireOffer(db, scope, row.id));
}

export async function updateOffer(ctx: OfferContext, caller: Caller, id: string, ifMatch: string, patch: Schemas['OfferPatch']): Promise<Offer> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const current = await requireOffer(db, scope, id);
  if (current.version !== version) throw versionConflict('this offer', current.version);
  const state = stateOf(current);
  if (state !== 'draft' && !offerWorkflow.transitionFrom(state, 'revise')) throw new HttpError(409, 'invalid_transition', { message: offerWorkflow.refusal(state, 'revise') });
  const errors: FieldError[] = [];
  const prices = await pricesOf(db, scope);
  const converter = await Converter.open(db, today());
  // A new company job, or a family or level of its own, replaces the job the offer had.
  const keepsJob = patch.companyJobId === undefined && patch.jobFamilyId === undefined && patch.levelId === undefined;
  const placement = await resolvePlacement(
    db,
    scope,
    {
      companyJobId: patch.companyJobId !== undefined ? patch.companyJobId : keepsJob ? current.company_job_id : null,
      jobFamilyId: patch.jobFamilyId ?? current.job_family_id,
      levelId: patch.levelId ?? current.level_id,
      track: patch.track !== undefined ? patch.track : current.track,
      title: patch.title ?? current.title,
      department: patch.department !== undefined ? patch.department : current.department,
      locationId: patch.locationId ?? current.location_id,
      countryCode: patch.countryCode !== undefined ? patch.countryCode : patch.locationId !== undefined ? null : current.country_code,
      currency: patch.currency ?? current.currency,
    },
    errors,
  );
  throwIfInvalid(errors);
  const pkg = patch.package ? await storePackage(patch.package, { currency: placement.currency, prices, converter, field: 'body.package', errors }) : parsePackage(current.package);
  const alternatives = patch.alternatives ? await storeAlternatives(patch.alternatives, placement.currency, prices, converter, errors) : parseAlternatives(current.alternatives);
  if (patch.expiresOn !== undefined && patch.expiresOn < today()) errors.push({ field: 'body.expiresOn', message: 'must not be in the past' });
  await checkHiringManager(db, scope, patch.hiringManagerId, errors);
  if (patch.currency !== undefined && patch.currency !== current.currency && !patch.package) errors.push({ field: 'body.package', message: 'changing the currency needs the package in it' });
  throwIfInvalid(errors);
  const checks = await offerChecks(ctx.deps, db, caller, checkSubject(placement, pkg, alternatives), converter);
  await db.transaction(async (trx) => {
    const row = await requireOffer(trx, scope, id);
    if (row.version !== version) throw versionConflict('this offer', row.version);
    const changes: Partial<OfferRow> = {
      company_job_id: placement.companyJobId,
      job_family_id: placement.jobFamilyId,
      level_id: placement.levelId,
      track: placement.track,
      title: placement.title,
      department: placement.department,
      location_id: placement.locationId,
      country_code: placement.countryCode,
      currency: placement.currency,
      start_date: patch.startDate ?? row.start_date,
      expires_on: patch.expiresOn ?? row.expires_on,
      base_amount: pkg.base,
      package: JSON.stringify(pkg),
      alternatives: JSON.stringify(alternatives),
      benefits_summary: patch.benefitsSummary ?? row.benefits_summary,
      welcome_message: patch.welcomeMessage ?? row.welcome_message,
      ...(patch.hiringManagerId !== undefined ? { hiring_manager_id: patch.hiringManagerId } : {}),
      out_of_range: checks.outOfRange,
      updated_by: caller.userId,
    };
    if (stateOf(row) !== 'draft') {
      // Approvals were for the old package, and the candidate's link showed it: both end here.
      const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(row), action: 'revise', actor: caller });
      changes.state = next.state;
      changes.approval = null;
      await revokeLinks(trx, scope, row.id, next.at);
    }
    const written = await writeOffer(trx, scope, row, changes);
    await announce(trx, scope, ctx, { row: written, event: 'updated', actorUserId: caller.userId });
  });
  return detail(ctx.deps, db, caller, await requireOffer(db, scope, id));
}

export async function deleteOffer(ctx: OfferContext, caller: Caller, id: string): Promise<Schemas['OfferSummary']> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  const row = await db.transaction(async (trx) => {
    const current = await requireOffer(trx, scope, id);
    if (current.state !== 'draft') {
      throw new HttpError(409, 'invalid_transition', { message: `Only a draft can be deleted; this offer is ${offerWorkflow.label(stateOf(current))}. Rescind it instead.` });
    }
    await deleteOfferRow(trx, scope, id);
    await announce(trx, scope, ctx, { row: current, event: 'deleted', actorUserId: caller.userId });
    return current;
  });
  return presentSummary(row, await candidateNames(db, scope, row.candidate_id));
}

/** Reads through the caller's transaction: another pool connection may be taken by writers waiting for this one's lock. */
async function tellApprovers(trx: Knex, ctx: OfferContext, scope: CompanyScope, row: OfferRow, userIds: readonly string[]): Promise<void> {
  if (!userIds.length) return;
  const emails = await emailsOfUsers(trx, scope, [...userIds]);
  const link = `${ctx.deps.config.publicUrl}/offers?offer=${encodeURIComponent(row.id)}`;
  ctx.afterCommit(async () => {
    for (const email of emails.values()) {
      await ctx.deps.mailer.send({
        companyId: scope.companyId,
        to: email,
        subject: `Paybench: an offer for ${row.title} is waiting for your approval`,
        text: `An offer for ${row.title} is outside its salary band and needs your approval.\n\nReview it: ${link}\n`,
      });
    }
  });
}

export async function submitOffer(ctx: OfferContext, caller: Caller, id: string, ifMatch: string, comment: string | undefined): Promise<Offer> {
  return detail(ctx.deps, ctx.deps.db, caller, await submitAt(ctx, caller, id, versionOf(ifMatch), comment));
}

/** Submits the offer read at `version`; the offer as stored (a single or a bulk action presents it). */
export async function submitAt(ctx: OfferContext, caller: Caller, id: string, version: number, comment: string | undefined): Promise<OfferRow> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  const current = await requireOffer(db, scope, id);
  if (current.version !== version) throw versionConflict('this offer', current.version);
  const state = stateOf(current);
  if (state !== 'draft') throw new HttpError(409, 'invalid_transition', { message: offerWorkflow.refusal(state, 'submit') });
  const detailNow = await detail(ctx.deps, db, caller, current);
  const rule = detailNow.checks.outOfRange ? await matchingRule(db, scope, { department: current.department, locationId: current.location_id }) : null;
  return db.transaction(async (trx) => {
    const row = await requireOffer(trx, scope, id);
    if (row.version !== version) throw versionConflict('this offer', row.version);
    const approval: StoredApproval | null = rule ? { ...rule, decisions: [] } : null;
    const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(row), action: rule ? 'submit' : 'clear', actor: caller, comment });
    const stored = await writeOffer(trx, scope, row, { state: next.state, approval: approval ? JSON.stringify(approval) : null, out_of_range: detailNow.checks.outOfRange, updated_by: caller.userId });
    await announce(trx, scope, ctx, { row: stored, event: rule ? 'submitted' : 'approved', actorUserId: caller.userId });
    if (approval) await tellApprovers(trx, ctx, scope, stored, awaitedApprovers(approval));
    return stored;
  });
}

export async function approveOffer(ctx: OfferContext, caller: Caller, id: string, ifMatch: string, comment: string | undefined): Promise<Offer> {
  return detail(ctx.deps, ctx.deps.db, caller, await approveAt(ctx, caller, id, versionOf(ifMatch), comment));
}

/** Records the caller's approval of the offer read at `version`; the offer as stored. */
export async function approveAt(ctx: OfferContext, caller: Caller, id: string, version: number, comment: string | undefined): Promise<OfferRow> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const row = await requireOffer(trx, scope, id);
    if (row.version !== version) throw versionConflict('this offer', row.version);
    const approval = parseApproval(row);
    const subject = subjectOf(row);
    const decisions = approval ? [...approval.decisions, { userId: caller.userId, decision: 'approved' as const, at: new Date().toISOString() }] : [];
    const after: StoredApproval | null = approval ? { ...approval, decisions } : null;
    const done = after !== null && awaitedApprovers(after).length === 0;
    const next = await transition(trx, scope, offerWorkflow, { subject, action: done ? 'approve' : 'recordApproval', actor: caller, comment });
    const stored = await writeOffer(trx, scope, row, { state: next.state, approval: after ? JSON.stringify(after) : null });
    await announce(trx, scope, ctx, { row: stored, event: 'approved', actorUserId: caller.userId });
    if (!done && after) await tellApprovers(trx, ctx, scope, stored, after.mode === 'ordered' ? awaitedApprovers(after) : []);
    return stored;
  });
}

export async function rejectOffer(ctx: OfferContext, caller: Caller, id: string, ifMatch: string, comment: string | undefined): Promise<Offer> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const written = await db.transaction(async (trx) => {
    const row = await requireOffer(trx, scope, id);
    if (row.version !== version) throw versionConflict('this offer', row.version);
    const approval = parseApproval(row);
    const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(row), action: 'reject', actor: caller, comment });
    const after = approval ? { ...approval, decisions: [...approval.decisions, { userId: caller.userId, decision: 'rejected' as const, at: next.at }] } : null;
    const stored = await writeOffer(trx, scope, row, { state: next.state, approval: after ? JSON.stringify(after) : null });
    await announce(trx, scope, ctx, { row: stored, event: 'rejected', actorUserId: caller.userId });
    return stored;
  });
  return detail(ctx.deps, db, caller, written);
}

export async function rescindOffer(ctx: OfferContext, caller: Caller, id: string, ifMatch: string, comment: string | undefined): Promise<Offer> {
  const version = versionOf(ifMatch);
  await expireDue(ctx.deps.db, companyScope(caller), ctx);
  return detail(ctx.deps, ctx.deps.db, caller, await rescindAt(ctx, caller, id, version, comment));
}

/** Rescinds the offer read at `version` (offers due to expire are expired first by the caller); the offer as stored. */
export async function rescindAt(ctx: OfferContext, caller: Caller, id: string, version: number, comment: string | undefined): Promise<OfferRow> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const row = await requireOffer(trx, scope, id);
    if (row.version !== version) throw versionConflict('this offer', row.version);
    const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(row), action: 'rescind', actor: caller, comment });
    const stored = await writeOffer(trx, scope, row, { state: next.state, updated_by: caller.userId });
    await revokeLinks(trx, scope, row.id, next.at);
    await announce(trx, scope, ctx, { row: stored, event: 'rescinded', actorUserId: caller.userId });
    return stored;
  });
}

