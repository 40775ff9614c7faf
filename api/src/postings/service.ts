import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { findCompany } from '../access/usersStore.js';
import { hasPermission } from '../access/permissions.js';
import { findJob, findSet, listZones } from '../bands/store.js';
import { zoneReach } from '../bands/zoneAccess.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { today } from '../money/converter.js';
import { approvalRouteFor } from '../offers/approvals.js';
import { activeHeadcount, activeHeadcountByPlace } from './peopleReads.js';
import { LOCATIONS, findLocation } from '../reference/catalog/index.js';
import { emit } from '../platform/events.js';
import { type EmployeesAt, checkPosting } from './checks.js';
import type { Place } from './rules.js';
import { type LiveBands, type StoredLocation, isOutOfBand, liveBands, proposeLocations, rebandLocation, zoneLimited } from './proposal.js';
import type { PostingRangesRecord } from './module.js';
import { type PostingRow, findPosting, insertPosting, listPostingRows, postingsOf } from './store.js';
import { jobPostingJsonLd, payText } from './texts.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type JobPosting = Schemas['JobPosting'];
type Region = Schemas['JobPostingRegion'];

/*
 * Job postings: a company job posted in places (or remote, with its hiring regions), each place's
 * range from the live band set (proposal.ts), checked against every pay-transparency rule that
 * applies (checks.ts). Every change is versioned (If-Match) and recorded as a domain event.
 *
 * States: draft → open (every range within its band) or pendingApproval (a range beyond its band,
 * approved through the offer approval rule of the first place beyond its band) → open; draft, pendingApproval and
 * open → closed.
 */

export interface StoredApproval {
  ruleId: string;
  requiredApprovals: number;
  approverUserIds: string[];
  approvedBy: string[];
}

const DEFAULT_ROUNDING = 1000;

/** What an audit entry keeps of the ranges: each place's, in minor units of its currency, and the band set they came from. */
function auditRanges(locations: readonly StoredLocation[], row: Pick<PostingRow, 'band_set_id' | 'band_set_version'>): PostingRangesRecord {
  return {
    bandSetId: row.band_set_id,
    bandSetVersion: row.band_set_version,
    ranges: locations.map((location) => ({ place: location.name, currency: location.currency, min: location.range?.min ?? null, max: location.range?.max ?? null })),
  };
}

const parseJson = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export const locationsOf = (row: Pick<PostingRow, 'locations'>): StoredLocation[] => parseJson<StoredLocation[]>(row.locations, []);
export const regionsOf = (row: Pick<PostingRow, 'hiring_regions'>): Region[] => parseJson<Region[]>(row.hiring_regions, []);
const approvalOf = (row: Pick<PostingRow, 'approval'>): StoredApproval | null => parseJson<StoredApproval | null>(row.approval, null);
const approved = (approval: StoredApproval | null): boolean => !!approval && approval.approvedBy.length >= approval.requiredApprovals;
const money = (amount: number, currency: string) => ({ amount, currency });

async function requireJob(db: Knex, scope: CompanyScope, id: string) {
  const job = await findJob(db, scope, id);
  if (!job) throw new HttpError(400, 'validation_failed', { message: 'No such company job.', errors: [{ field: 'body.companyJobId', message: 'is not a company job of yours' }] });
  return job;
}

async function requirePosting(db: Knex, scope: CompanyScope, id: string): Promise<PostingRow> {
  const row = await findPosting(db, scope, id);
  if (!row) throw notFound();
  return row;
}

/** What a posting is, for the checks and texts, whether saved or not. */
interface PostingShape {
  title: string;
  remote: boolean;
  hiringRegions: Region[];
  payBasis: 'salary' | 'hourly';
  payPeriod: 'year' | 'hour';
  benefitsDescription: string;
  asksPayHistory: boolean;
  employerHeadcount: number | null;
  locations: StoredLocation[];
  approval: StoredApproval | null;
}

/** Active employees by place: a catalog location gives the state and (a metro) the city; a country alone, the country. */
async function employeesByPlace(db: Knex, scope: CompanyScope): Promise<EmployeesAt[]> {
  const out: EmployeesAt[] = [];
  for (const row of await activeHeadcountByPlace(db, scope)) {
    const catalog = row.locationId ? findLocation(row.locationId) : undefined;
    const countryCode = catalog?.country ?? row.countryCode;
    if (!countryCode) continue;
    out.push({ countryCode, stateCode: catalog?.state ?? null, city: catalog?.kind === 'metro' ? catalog.paybenchLocationName : null, count: row.count });
  }
  return out;
}

/** The cities an employee's recorded catalog location can name: its metros. */
const LOCATABLE_CITIES: readonly Place[] = LOCATIONS.flatMap((location) => (location.kind === 'metro' && location.country ? [{ countryCode: location.country, stateCode: location.state, city: location.paybenchLocationName }] : []));

/** The live set's band of each place of a posting drawn from an older set; null when the posting is drawn from the live set. */
interface LiveComparison {
  setName: string;
  bands: Map<string, { min: number; max: number; currency: string } | null>;
}

async function liveComparison(db: Knex, scope: CompanyScope, row: PostingRow, locations: readonly StoredLocation[]): Promise<LiveComparison | null> {
  if (!row.band_set_id) return null;
  const live = await liveBands(db, scope, null);
  if (!live.set || live.set.id === row.band_set_id) return null;
  const job = await findJob(db, scope, row.company_job_id);
  if (!job) return null;
  const bands = new Map<string, { min: number; max: number; currency: string } | null>();
  for (const location of locations) {
    const now = rebandLocation(live, job, location);
    bands.set(location.key, now.band ? { ...now.band, currency: now.currency } : null);
  }
  return { setName: live.set.name, bands };
}

/**
 * The posting's checks. `visible`: the pay zones whose band figures the reader may see (null: every
 * zone); a finding about a place in another zone says whether the range lies within its band, not the band.
 */
async function checksOf(db: Knex, scope: CompanyScope, shape: PostingShape, live: LiveComparison | null = null, visible: ReadonlySet<string> | null = null): Promise<Schemas['JobPostingChecks']> {
  const headcount = shape.employerHeadcount ?? (await activeHeadcount(db, scope));
  const check = checkPosting(
    {
      headcountStated: shape.employerHeadcount !== null,
      employeesByPlace: shape.employerHeadcount === null ? await employeesByPlace(db, scope) : [],
      locatableCities: LOCATABLE_CITIES,
      liveSetName: live?.setName ?? null,
      remote: shape.remote,
      hiringRegions: shape.hiringRegions.map((region) => ({ countryCode: region.countryCode, stateCode: region.stateCode ?? null })),
      payBasis: shape.payBasis,
      payPeriod: shape.payPeriod,
      benefitsDescription: shape.benefitsDescription,
      asksPayHistory: shape.asksPayHistory,
      headcount,
      outOfBandApproved: approved(shape.approval),
      locations: shape.locations.map((location) => ({
        key: location.key,
        name: location.name,
        countryCode: location.countryCode,
        stateCode: location.stateCode,
        city: location.city,
        range: location.range ? { ...location.range, currency: location.currency } : null,
        band: location.band ? { ...location.band, currency: location.currency } : null,
        noBandReason: location.label,
        ...(live ? { liveBand: live.bands.get(location.key) ?? null } : {}),
        bandHidden: !sees(visible, location),
      })),
    },
    { today: today() },
  );
  return { meetsAll: check.meetsAll, outOfBand: shape.locations.some(isOutOfBand), headcount, findings: check.findings };
}

/** The zones whose band figures the caller may see: null for every zone. */
async function visibleZones(db: Knex, scope: CompanyScope, caller: Caller): Promise<ReadonlySet<string> | null> {
  if (!zoneLimited(caller)) return null;
  return zoneReach(caller, await listZones(db, scope));
}

/** Whether the reader may see the band figures of the place's pay zone. */
const sees = (visible: ReadonlySet<string> | null, location: Pick<StoredLocation, 'payZoneId'>): boolean => visible === null || (location.payZoneId !== null && visible.has(location.payZoneId));

function presentLocations(shape: PostingShape, visible: ReadonlySet<string> | null): Schemas['JobPostingLocation'][] {
  return shape.locations.map((location) => {
    const seen = sees(visible, location);
    return {
      key: location.key,
      locationId: location.locationId,
      name: location.name,
      countryCode: location.countryCode,
      stateCode: location.stateCode,
      city: location.city,
      payZoneId: location.payZoneId,
      payZoneName: location.payZoneName,
      currency: location.currency,
      band: location.band && seen ? { min: money(location.band.min, location.currency), max: money(location.band.max, location.currency) } : null,
      bandSource: seen ? location.bandSource : null,
      range: location.range ? { min: money(location.range.min, location.currency), max: money(location.range.max, location.currency) } : null,
      outOfBand: isOutOfBand(location),
      label: seen ? location.label : 'Your salary-bands access does not reach this pay zone',
      payText: payText(shape, location),
    };
  });
}

const shapeOf = (row: PostingRow): PostingShape => ({
  title: row.title,
  remote: Boolean(row.remote),
  hiringRegions: regionsOf(row),
  payBasis: row.pay_basis === 'hourly' ? 'hourly' : 'salary',
  payPeriod: row.pay_period === 'hour' ? 'hour' : 'year',
  benefitsDescription: row.benefits_description,
  asksPayHistory: Boolean(row.asks_pay_history),
  employerHeadcount: row.employer_headcount,
  locations: locationsOf(row),
  approval: approvalOf(row),
});

/** A saved posting's checks, as its readers see them: against every rule, and (not closed) against the live bands. */
export async function checksOfRow(db: Knex, scope: CompanyScope, row: PostingRow, visible: ReadonlySet<string> | null = null): Promise<Schemas['JobPostingChecks']> {
  const shape = shapeOf(row);
  return checksOf(db, scope, shape, row.state === 'closed' ? null : await liveComparison(db, scope, row, shape.locations), visible);
}

async function present(db: Knex, scope: CompanyScope, caller: Caller, row: PostingRow): Promise<JobPosting> {
  const shape = shapeOf(row);
  const job = await findJob(db, scope, row.company_job_id);
  const set = row.band_set_id ? await findSet(db, scope, row.band_set_id) : undefined;
  const visible = await visibleZones(db, scope, caller);
  // The stored reason names the new bands' figures: a reader who may not see every place's zone reads it without them.
  const staleReason = visible === null || shape.locations.every((location) => sees(visible, location)) ? (row.stale_reason ?? '') : 'The live band set no longer holds some of this posting’s ranges; the checks say which places.';
  return {
    id: row.id,
    companyJobId: row.company_job_id,
    jobFamilyId: job?.job_family_id ?? '',
    levelId: job?.level_id ?? '',
    title: row.title,
    state: row.state as Schemas['JobPostingState'],
    remote: shape.remote,
    hiringRegions: shape.hiringRegions,
    payBasis: shape.payBasis,
    payPeriod: shape.payPeriod,
    rounding: row.rounding,
    benefitsDescription: row.benefits_description,
    asksPayHistory: shape.asksPayHistory,
    employerHeadcount: row.employer_headcount,
    bandSetId: row.band_set_id,
    bandSetName: set?.name ?? null,
    bandSetVersion: row.band_set_version,
    locations: presentLocations(shape, visible),
    checks: await checksOfRow(db, scope, row, visible),
    approval: shape.approval,
    stale: row.stale_at ? { at: new Date(row.stale_at).toISOString(), reason: staleReason } : null,
    ownerUserId: row.owner_user_id,
    version: row.version,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export async function listPostings(ctx: Pick<ServiceContext, 'db' | 'caller'>, query: { stale?: boolean }): Promise<JobPosting[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const rows = await listPostingRows(db, scope, { stale: query.stale === true ? true : undefined });
  const out: JobPosting[] = [];
  for (const row of rows) out.push(await present(db, scope, caller, row));
  return out;
}

export async function getPosting(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<JobPosting> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return present(db, scope, caller, await requirePosting(db, scope, id));
}

type Input = Schemas['JobPostingInput'];

function regionsFrom(regions: readonly Region[] | undefined): Region[] {
  return (regions ?? []).map((region) => ({ countryCode: region.countryCode, stateCode: region.stateCode ?? null }));
}

async function shapeFromInput(db: Knex, scope: CompanyScope, live: LiveBands, input: Input): Promise<{ shape: PostingShape; rounding: number }> {
  const job = await requireJob(db, scope, input.companyJobId);
  const rounding = input.rounding ?? DEFAULT_ROUNDING;
  const remote = input.remote ?? false;
  if (remote && !(input.hiringRegions ?? []).length) throw new HttpError(400, 'validation_failed', { message: 'A remote posting names the regions it may be filled from.', errors: [{ field: 'body.hiringRegions', message: 'must name at least one region for a remote posting' }] });
  const locations = proposeLocations(live, { job, rounding, inputs: input.locations, at: 'body.locations' });
  const payBasis = input.payBasis ?? 'salary';
  return {
    rounding,
    shape: {
      title: input.title ?? job.title,
      remote,
      hiringRegions: regionsFrom(input.hiringRegions),
      payBasis,
      payPeriod: input.payPeriod ?? (payBasis === 'hourly' ? 'hour' : 'year'),
      benefitsDescription: input.benefitsDescription ?? '',
      asksPayHistory: input.asksPayHistory ?? false,
      employerHeadcount: input.employerHeadcount ?? null,
      locations,
      approval: null,
    },
  };
}

/** The ranges, texts and checks a posting would have: the editor's live view. */
export async function previewPosting(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Input): Promise<Schemas['JobPostingPreview']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const live = await liveBands(db, scope, caller);
  const { shape } = await shapeFromInput(db, scope, live, input);
  return { bandSetId: live.set?.id ?? null, bandSetName: live.set?.name ?? null, locations: presentLocations(shape, live.reach), checks: await checksOf(db, scope, shape, null, live.reach) };
}

export async function createPosting(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Input): Promise<JobPosting> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const live = await liveBands(db, scope, caller);
  const { shape, rounding } = await shapeFromInput(db, scope, live, input);
  const now = new Date().toISOString();
  const row: PostingRow = {
    id: newId(),
    company_id: scope.companyId,
    company_job_id: input.companyJobId,
    title: shape.title,
    state: 'draft',
    remote: shape.remote,
    hiring_regions: JSON.stringify(shape.hiringRegions),
    locations: JSON.stringify(shape.locations),
    pay_basis: shape.payBasis,
    pay_period: shape.payPeriod,
    rounding,
    benefits_description: shape.benefitsDescription,
    asks_pay_history: shape.asksPayHistory,
    employer_headcount: shape.employerHeadcount,
    band_set_id: live.set?.id ?? null,
    band_set_version: live.set ? Number(live.set.version) : null,
    approval: null,
    stale_at: null,
    stale_reason: null,
    owner_user_id: caller.userId,
    version: 1,
    created_by: caller.userId,
    updated_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  await db.transaction(async (trx) => {
    await insertPosting(trx, row);
    await emit(trx, { name: 'posting.created', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'jobPosting', subjectId: row.id, payload: { state: 'draft', version: 1, ...auditRanges(shape.locations, row) } });
  });
  return getPosting({ db, caller }, row.id);
}

export async function updatePosting(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, patch: Schemas['JobPostingPatch']): Promise<JobPosting> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const current = await requirePosting(db, scope, id);
  if (current.version !== version) throw versionConflict('this posting', current.version);
  if (current.state === 'closed') throw new HttpError(409, 'invalid_transition', { message: 'A closed posting cannot be changed.' });
  const job = await requireJob(db, scope, current.company_job_id);
  const rounding = patch.rounding ?? current.rounding;
  const changes: Partial<PostingRow> = { updated_by: caller.userId, updated_at: new Date().toISOString() };
  if (patch.title !== undefined) changes.title = patch.title;
  if (patch.remote !== undefined) changes.remote = patch.remote;
  if (patch.hiringRegions !== undefined) changes.hiring_regions = JSON.stringify(regionsFrom(patch.hiringRegions));
  if (patch.payBasis !== undefined) changes.pay_basis = patch.payBasis;
  if (patch.payPeriod !== undefined) changes.pay_period = patch.payPeriod;
  if (patch.rounding !== undefined) changes.rounding = patch.rounding;
  if (patch.benefitsDescription !== undefined) changes.benefits_description = patch.benefitsDescription;
  if (patch.asksPayHistory !== undefined) changes.asks_pay_history = patch.asksPayHistory;
  if (patch.employerHeadcount !== undefined) changes.employer_headcount = patch.employerHeadcount;
  const remote = patch.remote ?? Boolean(current.remote);
  if (remote && !regionsOf({ hiring_regions: changes.hiring_regions ?? current.hiring_regions }).length) {
    throw new HttpError(400, 'validation_failed', { message: 'A remote posting names the regions it may be filled from.', errors: [{ field: 'body.hiringRegions', message: 'must name at least one region for a remote posting' }] });
  }
  let event: 'posting.updated' | 'posting.reopenedAsDraft' = 'posting.updated';
  if (patch.locations) {
    // New places: the ranges (and the bands they came from) from today's live set; the old approval ends.
    const live = await liveBands(db, scope, caller);
    const locations = proposeLocations(live, { job, rounding, inputs: patch.locations, at: 'body.locations' });
    changes.locations = JSON.stringify(locations);
    changes.band_set_id = live.set?.id ?? null;
    changes.band_set_version = live.set ? Number(live.set.version) : null;
    changes.approval = null;
    changes.stale_at = null;
    changes.stale_reason = null;
    if (current.state !== 'draft' && locations.some(isOutOfBand)) {
      changes.state = 'draft';
      event = 'posting.reopenedAsDraft';
    }
  }
  await db.transaction(async (trx) => {
    const stored = await updateAtVersion(() => postingsOf(trx, scope).where('id', id), version, changes, 'this posting');
    const ranges = changes.locations ? auditRanges(locationsOf({ locations: changes.locations }), { band_set_id: changes.band_set_id ?? null, band_set_version: changes.band_set_version ?? null }) : {};
    await emit(trx, { name: event, companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'jobPosting', subjectId: id, payload: { state: changes.state ?? current.state, version: stored, ...ranges } });
  });
  return getPosting({ db, caller }, id);
}

export async function transitionPosting(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, action: 'open' | 'approve' | 'close'): Promise<JobPosting> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const current = await requirePosting(db, scope, id);
  if (current.version !== version) throw versionConflict('this posting', current.version);
  const locations = locationsOf(current);
  const refuse = (message: string) => new HttpError(409, 'invalid_transition', { message });
  // Approving needs view and being an approver the posting waits for; opening and closing need edit.
  if (action !== 'approve' && !hasPermission(caller.permissions, 'postings', 'edit', undefined)) throw new HttpError(403, 'forbidden', { message: 'Opening or closing a posting needs the job postings permission to edit.' });
  const changes: Partial<PostingRow> = { updated_by: caller.userId, updated_at: new Date().toISOString() };
  let event: 'posting.opened' | 'posting.submitted' | 'posting.approved' | 'posting.closed';
  if (action === 'open') {
    if (current.state !== 'draft') throw refuse(`Only a draft opens; this posting is ${current.state}.`);
    if (!locations.some((location) => location.range)) throw refuse('No place of this posting has a pay range yet.');
    if (locations.some(isOutOfBand)) {
      // The rule of the first place whose range goes beyond its band: that place's approvers answer for it.
      const beyond = locations.find(isOutOfBand);
      const route = await approvalRouteFor(db, scope, { department: null, locationId: beyond?.locationId ?? '' });
      if (!route) throw new HttpError(409, 'approval_rule_missing', { message: 'A range goes beyond its band, and no offer approval rule names who approves it. Narrow the range to the band, or add an approval rule.' });
      changes.state = 'pendingApproval';
      changes.approval = JSON.stringify({ ruleId: route.ruleId, requiredApprovals: route.requiredApprovals, approverUserIds: route.approvers.map((approver) => approver.userId), approvedBy: [] } satisfies StoredApproval);
      event = 'posting.submitted';
    } else {
      changes.state = 'open';
      event = 'posting.opened';
    }
  } else if (action === 'approve') {
    const approval = approvalOf(current);
    if (current.state !== 'pendingApproval' || !approval) throw refuse('This posting does not wait for approval.');
    if (!approval.approverUserIds.includes(caller.userId) || approval.approvedBy.includes(caller.userId)) throw new HttpError(403, 'forbidden', { message: 'This posting does not wait for your approval.' });
    const next: StoredApproval = { ...approval, approvedBy: [...approval.approvedBy, caller.userId] };
    changes.approval = JSON.stringify(next);
    if (approved(next)) changes.state = 'open';
    event = 'posting.approved';
  } else {
    if (current.state === 'closed') throw refuse('This posting is closed already.');
    changes.state = 'closed';
    event = 'posting.closed';
  }
  await db.transaction(async (trx) => {
    const stored = await updateAtVersion(() => postingsOf(trx, scope).where('id', id), version, changes, 'this posting');
    // Opening (or the approval that opens it) records the ranges published, so the audit log shows what was posted when.
    const published = (changes.state ?? current.state) === 'open' ? auditRanges(locations, current) : {};
    await emit(trx, { name: event, companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'jobPosting', subjectId: id, payload: { state: changes.state ?? current.state, version: stored, ...published } });
  });
  return getPosting({ db, caller }, id);
}

/** The posting as schema.org JobPosting JSON-LD, one per place, and each place's pay text. */
export async function postingStructuredData(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<{ jsonLd: Record<string, unknown>[]; texts: Schemas['JobPostingPayText'][] }> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await requirePosting(db, scope, id);
  const shape = shapeOf(row);
  const job = await findJob(db, scope, row.company_job_id);
  const company = await findCompany(db, scope);
  const options = { datePosted: new Date(row.created_at).toISOString().slice(0, 10), hiringOrganization: company?.name ?? '', remote: shape.remote, hiringRegions: shape.hiringRegions.map((region) => ({ countryCode: region.countryCode, stateCode: region.stateCode ?? null })), jobFamilyId: job?.job_family_id ?? '' };
  return {
    jsonLd: shape.locations.map((location) => jobPostingJsonLd(shape, location, options)),
    texts: shape.locations.map((location) => ({ locationKey: location.key, name: location.name, text: payText(shape, location) })),
  };
}
