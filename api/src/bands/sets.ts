import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { bandPublicationApprovers } from '../approvalRules/rules.js';
import { getCompany } from '../companies/service.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { requireMinorUnit } from '../money/minorUnits.js';
import { emit } from '../platform/events.js';
import { history, transition } from '../workflow/service.js';
import { type Band, type BandSet, type BandSetDetail, presentBand, presentSet, presentSetDetail } from './present.js';
import { type BandRow, type BandSetRow, type GradeBandRow, bandsOf, deleteSet, findBand, findCycleSet, findLiveSet, findPublicationCycle, findSet, insertBands, insertGradeBands, insertSet, listBands, listGradeBands, listSets, listZones, replaceBandSetApproval, setsOf, touchSet } from './store.js';
import { checkFigures, checkRanges, rangesText } from './ranges.js';
import { inReach, seesAllZones, zoneReach } from './zoneAccess.js';
import { BAND_SET_SUBJECT, bandSetWorkflow } from './workflow.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

export async function requireSet(db: Knex, scope: CompanyScope, id: string): Promise<BandSetRow> {
  const row = await findSet(db, scope, id);
  if (!row) throw notFound();
  return row;
}

/** The set at the version the caller read (409 when it moved on since), in one of its workflow's states. */
export async function requireSetAtVersion(db: Knex, scope: CompanyScope, { id, version }: { id: string; version: number }): Promise<BandSetRow & { status: BandSetState }> {
  const set = await requireSet(db, scope, id);
  if (Number(set.version) !== version) throw versionConflict('this band set', Number(set.version));
  const status = set.status;
  if (!bandSetWorkflow.isState(status)) throw new Error(`band set ${set.id} is in an unknown state ${status}`);
  return { ...set, status };
}

type BandSetState = Parameters<typeof bandSetWorkflow.transitionFrom>[0];

/** Only drafts change; a live or archived set is what was published, kept as it was. */
export function requireDraft(set: BandSetRow): void {
  if (set.status !== 'draft') {
    const state = bandSetWorkflow.isState(set.status) ? bandSetWorkflow.label(set.status) : set.status;
    throw new HttpError(409, 'band_set_not_draft', { message: `This band set is ${state} and cannot change; duplicate it into a draft to work on it.` });
  }
}

/** The zones the caller sees (null: every zone), for a caller whose `bands` grant may be scoped to zones. */
export async function callerZoneReach(db: Knex, scope: CompanyScope, caller: Caller): Promise<ReadonlySet<string> | null> {
  return seesAllZones(caller) ? null : zoneReach(caller, await listZones(db, scope));
}

export async function listBandSets(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<BandSet[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const sets = await listSets(db, scope);
  const reach = await callerZoneReach(db, scope, caller);
  if (!reach) return sets.map((row) => presentSet(row, Number(row.band_count)));
  // A holder limited to some zones counts only their zones' bands.
  const counts = new Map<string, number>();
  const rows = (await bandsOf(db, scope).whereIn('pay_zone_id', [...reach]).select('band_set_id')) as { band_set_id: string }[];
  for (const row of rows) counts.set(row.band_set_id, (counts.get(row.band_set_id) ?? 0) + 1);
  return sets.map((row) => presentSet(row, counts.get(row.id) ?? 0));
}

/** A set with its bands and grade bands, those of the zones reached only (null: every zone). */
export async function bandSetDetail(db: Knex, scope: CompanyScope, id: string, reach: ReadonlySet<string> | null = null): Promise<BandSetDetail> {
  const set = await requireSet(db, scope, id);
  const [bands, gradeBands] = await Promise.all([listBands(db, scope, id), listGradeBands(db, scope, id)]);
  return presentSetDetail(set, inReach(bands, reach), inReach(gradeBands, reach));
}

export async function getBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<BandSetDetail> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return bandSetDetail(db, scope, id, await callerZoneReach(db, scope, caller));
}

const today = (): string => new Date().toISOString().slice(0, 10);

export async function createBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['BandSetInput']): Promise<BandSetDetail> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const currency = input.currency ?? (await getCompany({ db, caller })).settings.currency;
  await requireMinorUnit(db, currency, 'body.currency');
  const now = new Date().toISOString();
  const row: BandSetRow = {
    id: newId(),
    company_id: scope.companyId,
    name: input.name.trim(),
    status: bandSetWorkflow.initial,
    merit_cycle_id: null,
    currency,
    effective_date: input.effectiveDate ?? today(),
    philosophy: null,
    published_at: null,
    published_by: null,
    version: 1,
    created_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  await insertSet(db, row);
  return presentSetDetail(row, []);
}

export async function deleteBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<BandSet> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const set = await requireSet(trx, scope, id);
    requireDraft(set);
    const bands = await listBands(trx, scope, id);
    await deleteSet(trx, scope, id);
    return presentSet(set, bands.length);
  });
}

/** Any set → a new draft with the same bands (new ids and versions) and their sources. */
export async function duplicateBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, name: string | undefined): Promise<BandSetDetail> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const copyId = newId();
  await db.transaction(async (trx) => {
    const set = await requireSet(trx, scope, id);
    const bands = await listBands(trx, scope, id);
    const now = new Date().toISOString();
    await insertSet(trx, {
      ...set,
      id: copyId,
      name: name?.trim() || `Copy of ${set.name}`.slice(0, 200),
      status: bandSetWorkflow.initial,
      merit_cycle_id: null,
      published_at: null,
      published_by: null,
      version: 1,
      created_by: caller.userId,
      created_at: now,
      updated_at: now,
    });
    await insertBands(
      trx,
      bands.map(
        (band): BandRow => ({
          id: newId(),
          company_id: scope.companyId,
          band_set_id: copyId,
          company_job_id: band.company_job_id,
          pay_zone_id: band.pay_zone_id,
          currency: band.currency,
          min_amount: band.min_amount,
          mid_amount: band.mid_amount,
          max_amount: band.max_amount,
          source: band.source,
          benchmark_amount: band.benchmark_amount,
          benchmark_count: band.benchmark_count,
          ranges: band.ranges ?? null,
          version: 1,
          updated_by: caller.userId,
          created_at: now,
          updated_at: now,
        }),
      ),
    );
    await insertGradeBands(
      trx,
      (await listGradeBands(trx, scope, id)).map(
        ({ grade_key: _key, ...band }): GradeBandRow => ({ ...band, id: newId(), band_set_id: copyId, version: 1, updated_by: caller.userId, created_at: now, updated_at: now }),
      ),
    );
  });
  return bandSetDetail(db, scope, copyId);
}

/**
 * Makes a set live in the caller's transaction: the live set (if any) is archived first, then this
 * one goes live by `action` (a publish, or the last approval), each through the workflow with its
 * history row; `bandSet.published` is emitted.
 */
export async function makeLive(
  trx: Knex,
  scope: CompanyScope,
  caller: Caller,
  set: BandSetRow,
  { action, comment, awaiting }: { action: 'publish' | 'approve'; comment: string | undefined; awaiting: readonly string[] },
): Promise<void> {
  // A submission to a merit cycle (publishBandSet keeps the cycle on the waiting set): the last approval publishes it there.
  if (action === 'approve' && set.status === 'pendingApproval' && set.merit_cycle_id) return publishToCycle(trx, scope, caller, set, { meritCycleId: set.merit_cycle_id, comment, awaiting });
  const version = Number(set.version);
  if (!bandSetWorkflow.isState(set.status)) throw new Error(`band set ${set.id} is in an unknown state ${set.status}`);
  const bandCount = (await listBands(trx, scope, set.id)).length;
  const now = new Date().toISOString();
  const live = await findLiveSet(trx, scope);
  if (live && bandSetWorkflow.isState(live.status)) {
    const archived = await transition(trx, scope, bandSetWorkflow, { subject: { subjectType: BAND_SET_SUBJECT, subjectId: live.id, currentState: live.status, version: Number(live.version), awaiting: [] }, action: 'archive', actor: caller, comment: `Replaced by “${set.name}”.` });
    await updateAtVersion(() => setsOf(trx, scope).where({ id: live.id }), Number(live.version), { status: archived.state, updated_at: now }, 'the live band set');
  }
  const published = await transition(trx, scope, bandSetWorkflow, { subject: { subjectType: BAND_SET_SUBJECT, subjectId: set.id, currentState: set.status, version, awaiting }, action, actor: caller, comment });
  await updateAtVersion(() => setsOf(trx, scope).where({ id: set.id }), version, { status: published.state, published_at: now, published_by: caller.userId, updated_at: now }, 'this band set');
  await emit(trx, {
    name: 'bandSet.published',
    companyId: scope.companyId,
    actorUserId: caller.userId,
    subjectType: BAND_SET_SUBJECT,
    subjectId: set.id,
    payload: { bandSetId: set.id, name: set.name, archivedBandSetId: live?.id ?? null, bandCount },
  });
}

/** A merit cycle of the company's that has not launched (a launched cycle fixed its bands at launch). */
async function requireOpenCycle(trx: Knex, scope: CompanyScope, meritCycleId: string) {
  const cycle = await findPublicationCycle(trx, scope, meritCycleId);
  if (!cycle) throw notFound('The merit cycle could not be found.');
  if (cycle.launched_at) throw new HttpError(409, 'merit_cycle_launched', { message: `“${cycle.name}” has launched; its bands were fixed at launch.` });
  return cycle;
}

/**
 * Publishes a draft to a merit cycle in the caller's transaction: the set that cycle had (if any) is
 * archived, this one moves to `cycle` naming the cycle, each with its history row. A launched cycle
 * fixed its bands at launch, so it takes no other set. The live set is not touched.
 */
async function publishToCycle(
  trx: Knex,
  scope: CompanyScope,
  caller: Caller,
  set: BandSetRow,
  { meritCycleId, comment, awaiting = [] }: { meritCycleId: string; comment: string | undefined; awaiting?: readonly string[] },
): Promise<void> {
  const cycle = await requireOpenCycle(trx, scope, meritCycleId);
  if (!bandSetWorkflow.isState(set.status)) throw new Error(`band set ${set.id} is in an unknown state ${set.status}`);
  const now = new Date().toISOString();
  const previous = await findCycleSet(trx, scope, meritCycleId);
  if (previous && bandSetWorkflow.isState(previous.status)) {
    const archived = await transition(trx, scope, bandSetWorkflow, { subject: { subjectType: BAND_SET_SUBJECT, subjectId: previous.id, currentState: previous.status, version: Number(previous.version), awaiting: [] }, action: 'archive', actor: caller, comment: `Replaced by “${set.name}” for “${cycle.name}”.` });
    await updateAtVersion(() => setsOf(trx, scope).where({ id: previous.id }), Number(previous.version), { status: archived.state, updated_at: now }, 'the merit cycle’s band set');
  }
  const version = Number(set.version);
  const action = set.status === 'pendingApproval' ? 'approveToCycle' : 'publishToCycle';
  const published = await transition(trx, scope, bandSetWorkflow, { subject: { subjectType: BAND_SET_SUBJECT, subjectId: set.id, currentState: set.status, version, awaiting }, action, actor: caller, comment });
  await updateAtVersion(() => setsOf(trx, scope).where({ id: set.id }), version, { status: published.state, merit_cycle_id: cycle.id, published_at: now, published_by: caller.userId, updated_at: now }, 'this band set');
  await emit(trx, {
    name: 'bandSet.publishedToCycle',
    companyId: scope.companyId,
    actorUserId: caller.userId,
    subjectType: BAND_SET_SUBJECT,
    subjectId: set.id,
    payload: { bandSetId: set.id, name: set.name, meritCycleId: cycle.id, archivedBandSetId: previous?.id ?? null },
  });
}

/** Submits a draft to the approvers named now (in the publishing transaction); approvals.ts records their decisions. */
async function submitForApproval(trx: Knex, caller: Caller, { set, approvers, comment }: { set: BandSetRow; approvers: readonly string[]; comment: string | undefined }): Promise<void> {
  const scope = companyScope(caller);
  if (!bandSetWorkflow.isState(set.status)) throw new Error(`band set ${set.id} is in an unknown state ${set.status}`);
  const version = Number(set.version);
  const submitted = await transition(trx, scope, bandSetWorkflow, { subject: { subjectType: BAND_SET_SUBJECT, subjectId: set.id, currentState: set.status, version, awaiting: [] }, action: 'submit', actor: caller, comment });
  const now = new Date().toISOString();
  await updateAtVersion(() => setsOf(trx, scope).where({ id: set.id }), version, { status: submitted.state, updated_at: now }, 'this band set');
  await replaceBandSetApproval(trx, scope, { band_set_id: set.id, company_id: scope.companyId, approver_user_ids: JSON.stringify(approvers), decisions: '[]', submitted_by: caller.userId, submitted_at: now });
  await emit(trx, {
    name: 'bandSet.approvalRequested',
    companyId: scope.companyId,
    actorUserId: caller.userId,
    subjectType: BAND_SET_SUBJECT,
    subjectId: set.id,
    payload: { bandSetId: set.id, name: set.name, approverUserIds: [...approvers], awaitingUserId: approvers[0] ?? null },
  });
}

/**
 * Publishes a draft at the version read. To a merit cycle when one is named (`publishToCycle`); else,
 * where the workflow settings name band-set approvers, the draft is submitted to them instead
 * (`pendingApproval`, `submitForApproval`, decided in approvals.ts); else it goes live at once (`makeLive`).
 */
export async function publishBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, { comment, meritCycleId }: { comment?: string; meritCycleId?: string } = {}): Promise<BandSetDetail> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await db.transaction(async (trx) => {
    const set = await requireSetAtVersion(trx, scope, { id: id, version });
    // The workflow refuses anything but a draft (409 invalid_transition) before anything is written.
    if (!bandSetWorkflow.transitionFrom(set.status, 'publish')) {
      throw new HttpError(409, 'invalid_transition', { message: bandSetWorkflow.refusal(set.status, 'publish') });
    }
    const bands = await listBands(trx, scope, id);
    if (!bands.length) throw badRequest('A band set without bands cannot be published; build it from market data first.', [{ field: 'path.bandSetId', message: 'has no bands' }]);
    const approvers = await bandPublicationApprovers(trx, scope);
    if (meritCycleId) await requireOpenCycle(trx, scope, meritCycleId);
    if (approvers.length) {
      // The submission names where it goes (a cycle, or live when null); the last approval publishes it there.
      await setsOf(trx, scope).where({ id: set.id }).update({ merit_cycle_id: meritCycleId ?? null });
      await submitForApproval(trx, caller, { set: { ...set, merit_cycle_id: meritCycleId ?? null }, approvers, comment });
    } else if (meritCycleId) await publishToCycle(trx, scope, caller, set, { meritCycleId, comment });
    else await makeLive(trx, scope, caller, set, { action: 'publish', comment, awaiting: [] });
  });
  return bandSetDetail(db, scope, id);
}

/** Takes a submission back to draft at the version read: the workflow's `withdraw`, with its history row. */
export async function withdrawBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, comment: string | undefined): Promise<BandSetDetail> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await db.transaction(async (trx) => {
    const set = await requireSetAtVersion(trx, scope, { id: id, version });
    const withdrawn = await transition(trx, scope, bandSetWorkflow, { subject: { subjectType: BAND_SET_SUBJECT, subjectId: set.id, currentState: set.status, version, awaiting: [] }, action: 'withdraw', actor: caller, comment });
    await updateAtVersion(() => setsOf(trx, scope).where({ id: set.id }), version, { status: withdrawn.state, updated_at: new Date().toISOString() }, 'this band set');
  });
  return bandSetDetail(db, scope, id);
}

export async function bandSetHistory(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['BandSetHistoryEntry'][]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await requireSet(db, scope, id);
  return (await history(db, scope, BAND_SET_SUBJECT, id)).map((entry) => ({
    id: entry.id,
    action: entry.action,
    from: entry.from,
    to: entry.to,
    subjectVersion: entry.subjectVersion,
    comment: entry.comment,
    actor: entry.actor,
    at: entry.at,
  }));
}

/** A hand edit of a draft's band at the version read: min ≤ mid ≤ max in the band's currency. */
export async function updateBand(ctx: Pick<ServiceContext, 'db' | 'caller'>, { setId, bandId, ifMatch, input }: { setId: string; bandId: string; ifMatch: string; input: Schemas['BandInput'] }): Promise<Band> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  return db.transaction(async (trx) => {
    const set = await requireSet(trx, scope, setId);
    const band = await findBand(trx, scope, setId, bandId);
    // A band of a zone the caller's grant does not reach is not theirs to see.
    const reach = seesAllZones(caller, 'edit') ? null : zoneReach(caller, await listZones(trx, scope), 'edit');
    if (!band || (reach && !reach.has(band.pay_zone_id))) throw notFound();
    requireDraft(set);
    checkRanges(input.ranges, band.currency);
    checkFigures(input, band.currency);
    const [min, mid, max] = [input.min.amount, input.mid.amount, input.max.amount];
    const now = new Date().toISOString();
    // Ranges alone leave the figures (and so the source) as built; changed figures are a hand edit.
    const figuresChanged = Number(band.min_amount) !== min || Number(band.mid_amount) !== mid || Number(band.max_amount) !== max;
    const ranges = input.ranges === undefined ? (band.ranges ?? null) : rangesText(input.ranges);
    const source = figuresChanged ? null : band.source;
    const next = await updateAtVersion(() => bandsOf(trx, scope).where({ id: bandId, band_set_id: setId }), version, { min_amount: min, mid_amount: mid, max_amount: max, source, ranges, updated_by: caller.userId, updated_at: now }, 'this band');
    await touchSet(trx, scope, setId);
    return presentBand({ ...band, min_amount: min, mid_amount: mid, max_amount: max, source, ranges, version: next });
  });
}
