import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { minorUnits } from '../money/minorUnits.js';
import { roundFigures, widthAround } from './formulas.js';
import { type CompGrade, type GradeBand, presentGrade, presentGradeBand } from './present.js';
import { checkFigures, checkRanges, rangesText } from './ranges.js';
import { requireDraft, requireSet } from './sets.js';
import {
  type BandSetRow,
  type GradeBandRow,
  type PayZoneRow,
  type GradeRow,
  deleteGradeBandRow,
  deleteGradeRow,
  findGrade,
  findGradeBand,
  gradeBandsOf,
  gradeBandsUsingGrade,
  gradesOf,
  insertGrade,
  insertGradeBands,
  jobCountsByGrade,
  listGrades,
  touchSet,
} from './store.js';
import { zoneReach } from './zoneAccess.js';
import { ensureZones } from './zones.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * Comp grades ("G1".."G12": a key unique in the company, a name, an order) and grade bands: min / mid
 * / max per grade × pay zone of a band set. A company job with a grade and no band of its own in a
 * zone is priced by its grade's band there (evaluate.ts says `source: grade`).
 */

type Schemas = components['schemas'];

export async function listCompGrades(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<CompGrade[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const [grades, counts] = await Promise.all([listGrades(db, scope), jobCountsByGrade(db, scope)]);
  return grades.map((grade) => presentGrade(grade, counts.get(grade.id) ?? 0));
}

const gradeExists = (key: string): HttpError => new HttpError(409, 'grade_exists', { message: `There is already a grade “${key}”.` });

async function keyTaken(db: Knex, scope: CompanyScope, key: string, exceptId?: string): Promise<boolean> {
  const lower = key.toLowerCase();
  return (await listGrades(db, scope)).some((grade) => grade.key.toLowerCase() === lower && grade.id !== exceptId);
}

export async function createCompGrade(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['CompGradeInput']): Promise<CompGrade> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const key = input.key.trim();
  return db.transaction(async (trx) => {
    if (await keyTaken(trx, scope, key)) throw gradeExists(key);
    const grades = await listGrades(trx, scope);
    const now = new Date().toISOString();
    const row: GradeRow = {
      id: newId(),
      company_id: scope.companyId,
      key,
      name: input.name?.trim() || key,
      position: input.order ?? Math.max(0, ...grades.map((grade) => Number(grade.position))) + 1,
      version: 1,
      updated_by: caller.userId,
      created_at: now,
      updated_at: now,
    };
    await insertGrade(trx, row);
    return presentGrade(row, 0);
  });
}

export async function updateCompGrade(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, patch: Schemas['CompGradePatch']): Promise<CompGrade> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  return db.transaction(async (trx) => {
    if (!(await findGrade(trx, scope, id))) throw notFound();
    const changes: Partial<GradeRow> = { updated_by: caller.userId, updated_at: new Date().toISOString() };
    if (patch.key !== undefined) {
      const key = patch.key.trim();
      if (await keyTaken(trx, scope, key, id)) throw gradeExists(key);
      changes.key = key;
    }
    if (patch.name !== undefined) changes.name = patch.name.trim();
    if (patch.order !== undefined) changes.position = patch.order;
    await updateAtVersion(() => gradesOf(trx, scope).where({ id }), version, changes, 'this grade');
    const row = (await findGrade(trx, scope, id)) as GradeRow;
    return presentGrade(row, (await jobCountsByGrade(trx, scope)).get(id) ?? 0);
  });
}

export async function deleteCompGrade(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<CompGrade> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const row = await findGrade(trx, scope, id);
    if (!row) throw notFound();
    const jobs = (await jobCountsByGrade(trx, scope)).get(id) ?? 0;
    const bands = await gradeBandsUsingGrade(trx, scope, id);
    if (jobs || bands) {
      const uses = [jobs ? `${jobs} company job${jobs === 1 ? '' : 's'}` : '', bands ? `${bands} grade band${bands === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
      throw new HttpError(409, 'grade_in_use', { message: `${uses} use${jobs + bands === 1 ? 's' : ''} grade “${row.key}”; take it off them first.` });
    }
    await deleteGradeRow(trx, scope, id);
    return presentGrade(row, 0);
  });
}

// ---- grade bands --------------------------------------------------------------------------------

type Money = Schemas['Money'];

/** The figures of a new grade band: as given, or the mid with a width and rounding as a build makes them. */
async function figuresOf(db: Knex, input: Schemas['GradeBandInput'], currency: string): Promise<{ min: Money; mid: Money; max: Money }> {
  if (input.min && input.max) return { min: input.min, mid: input.mid, max: input.max };
  if (!input.width) {
    throw badRequest('Give the band’s minimum and maximum, or a width around its midpoint.', [{ field: input.min ? 'body.max' : 'body.min', message: 'is required without a width' }]);
  }
  if (input.mid.currency !== currency) throw badRequest(`This band is in ${currency}.`, [{ field: 'body.mid.currency', message: `must be ${currency}` }]);
  const scale = 10 ** (await minorUnits(db)).of(currency);
  const figures = roundFigures(widthAround(input.mid.amount / scale, input.width), input.rounding ?? 1000);
  const money = (value: number): Money => ({ amount: Math.round(value * scale), currency });
  return { min: money(figures.min), mid: money(figures.mid), max: money(figures.max) };
}

/** A zone the caller may change bands in (404 for a zone of no reach: it is not theirs to see). */
async function requireZoneInReach(db: Knex, scope: CompanyScope, caller: Caller, zoneId: string, field?: string): Promise<PayZoneRow> {
  const zones = await ensureZones(db, scope);
  const zone = zones.find((candidate) => candidate.id === zoneId);
  const reach = zoneReach(caller, zones, 'edit');
  if (!zone || (reach && !reach.has(zoneId))) {
    if (field) throw badRequest('That pay zone is not one of the company’s that you can change.', [{ field, message: 'is not a pay zone you can change' }]);
    throw notFound();
  }
  return zone;
}

export async function createGradeBand(ctx: Pick<ServiceContext, 'db' | 'caller'>, setId: string, input: Schemas['GradeBandInput']): Promise<GradeBand> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await ensureZones(db, scope);
  return db.transaction(async (trx) => {
    const set = await requireSet(trx, scope, setId);
    requireDraft(set);
    if (!(await findGrade(trx, scope, input.gradeId))) throw badRequest('That comp grade is not one of the company’s.', [{ field: 'body.gradeId', message: 'is not a grade of the company' }]);
    const zone = await requireZoneInReach(trx, scope, caller, input.payZoneId, 'body.payZoneId');
    // A new band is in its zone's currency.
    const currency = zone.currency ?? set.currency;
    const figures = await figuresOf(trx, input, currency);
    checkFigures(figures, currency);
    checkRanges(input.ranges, currency);
    const existing = await gradeBandsOf(trx, scope).where({ band_set_id: set.id, grade_id: input.gradeId, pay_zone_id: input.payZoneId }).first('id');
    if (existing) throw new HttpError(409, 'grade_band_exists', { message: 'This set already has a band for that grade in that pay zone; change it instead.' });
    const now = new Date().toISOString();
    const row: GradeBandRow = {
      id: newId(),
      company_id: scope.companyId,
      band_set_id: set.id,
      grade_id: input.gradeId,
      pay_zone_id: input.payZoneId,
      currency,
      min_amount: figures.min.amount,
      mid_amount: figures.mid.amount,
      max_amount: figures.max.amount,
      ranges: rangesText(input.ranges),
      source: null,
      benchmark_amount: null,
      benchmark_count: null,
      version: 1,
      updated_by: caller.userId,
      created_at: now,
      updated_at: now,
    };
    await insertGradeBands(trx, [row]);
    await touchSet(trx, scope, set.id);
    return presentGradeBand((await findGradeBand(trx, scope, set.id, row.id)) as GradeBandRow & { grade_key: string });
  });
}

/** A grade band the caller may change: of this set (404 otherwise), in a zone of their reach (404), the set a draft (409). */
async function draftGradeBand(trx: Knex, scope: CompanyScope, caller: Caller, setId: string, gradeBandId: string): Promise<{ set: BandSetRow; band: GradeBandRow & { grade_key: string } }> {
  const set = await requireSet(trx, scope, setId);
  const band = await findGradeBand(trx, scope, setId, gradeBandId);
  if (!band) throw notFound();
  await requireZoneInReach(trx, scope, caller, band.pay_zone_id);
  requireDraft(set);
  return { set, band };
}

/** A hand edit of a draft's grade band at the version read; ranges absent are kept, null removes them. */
export async function updateGradeBand(ctx: Pick<ServiceContext, 'db' | 'caller'>, { setId, gradeBandId, ifMatch, input }: { setId: string; gradeBandId: string; ifMatch: string; input: Schemas['BandInput'] }): Promise<GradeBand> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await ensureZones(db, scope);
  return db.transaction(async (trx) => {
    const { band } = await draftGradeBand(trx, scope, caller, setId, gradeBandId);
    checkFigures(input, band.currency);
    checkRanges(input.ranges, band.currency);
    const changes: Partial<GradeBandRow> = { min_amount: input.min.amount, mid_amount: input.mid.amount, max_amount: input.max.amount, updated_by: caller.userId, updated_at: new Date().toISOString() };
    if (input.ranges !== undefined) changes.ranges = rangesText(input.ranges);
    await updateAtVersion(() => gradeBandsOf(trx, scope).where({ id: gradeBandId, band_set_id: setId }), version, changes, 'this grade band');
    await touchSet(trx, scope, setId);
    return presentGradeBand((await findGradeBand(trx, scope, setId, gradeBandId)) as GradeBandRow & { grade_key: string });
  });
}

export async function deleteGradeBand(ctx: Pick<ServiceContext, 'db' | 'caller'>, setId: string, gradeBandId: string): Promise<GradeBand> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await ensureZones(db, scope);
  return db.transaction(async (trx) => {
    const { band } = await draftGradeBand(trx, scope, caller, setId, gradeBandId);
    await deleteGradeBandRow(trx, scope, gradeBandId);
    await touchSet(trx, scope, setId);
    return presentGradeBand(band);
  });
}
