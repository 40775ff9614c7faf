import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/* The bands tables; every function takes the company's scope. */

export interface PayZoneRow {
  id: string;
  company_id: string;
  name: string;
  differential_bp: number;
  is_anchor: boolean | number;
  is_catch_all: boolean | number;
  rules: string;
  position: number;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface CompanyJobRow {
  id: string;
  company_id: string;
  job_family_id: string;
  level_id: string;
  track: string;
  title: string;
  job_code: string | null;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface BandSetRow {
  id: string;
  company_id: string;
  name: string;
  status: string;
  currency: string;
  effective_date: string;
  philosophy: string | null;
  published_at: string | Date | null;
  published_by: string | null;
  version: number;
  created_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface BandSetListRow extends BandSetRow {
  band_count: number | string;
}

export interface BandRow {
  id: string;
  company_id: string;
  band_set_id: string;
  company_job_id: string;
  pay_zone_id: string;
  min_amount: number | string;
  mid_amount: number | string;
  max_amount: number | string;
  source: string | null;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** A band with its job's family, level and track. */
export interface BandJobRow extends BandRow {
  job_family_id: string;
  level_id: string;
  track: string;
}

// ---- pay zones --------------------------------------------------------------------------------

export const zonesOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_pay_zones').where('band_pay_zones.company_id', scope.companyId);

export async function listZones(db: Knex, scope: CompanyScope): Promise<PayZoneRow[]> {
  return zonesOf(db, scope).select('*').orderBy([{ column: 'position' }, { column: 'id' }]);
}

export async function findZone(db: Knex, scope: CompanyScope, id: string): Promise<PayZoneRow | undefined> {
  return zonesOf(db, scope).where({ id }).first();
}

export async function insertZone(db: Knex, row: PayZoneRow): Promise<void> {
  await db('band_pay_zones').insert(row);
}

export async function deleteZone(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await zonesOf(db, scope).where({ id }).delete();
}

export async function bandsUsingZone(db: Knex, scope: CompanyScope, zoneId: string): Promise<number> {
  const row = (await db('bands').where({ company_id: scope.companyId, pay_zone_id: zoneId }).count({ count: '*' }).first()) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
}

// ---- company jobs -----------------------------------------------------------------------------

export const jobsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_company_jobs').where('band_company_jobs.company_id', scope.companyId);

export async function listJobs(db: Knex, scope: CompanyScope): Promise<CompanyJobRow[]> {
  return jobsOf(db, scope).select('*').orderBy([{ column: 'job_family_id' }, { column: 'track' }, { column: 'level_id' }, { column: 'id' }]);
}

export async function findJob(db: Knex, scope: CompanyScope, id: string): Promise<CompanyJobRow | undefined> {
  return jobsOf(db, scope).where({ id }).first();
}

export async function findJobByCell(db: Knex, scope: CompanyScope, jobFamilyId: string, levelId: string): Promise<CompanyJobRow | undefined> {
  return jobsOf(db, scope).where({ job_family_id: jobFamilyId, level_id: levelId }).first();
}

export async function insertJobs(db: Knex, rows: CompanyJobRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 500) await db('band_company_jobs').insert(rows.slice(at, at + 500));
}

export async function deleteJob(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await jobsOf(db, scope).where({ id }).delete();
}

export async function bandsUsingJob(db: Knex, scope: CompanyScope, jobId: string): Promise<number> {
  const row = (await db('bands').where({ company_id: scope.companyId, company_job_id: jobId }).count({ count: '*' }).first()) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
}

// ---- band sets --------------------------------------------------------------------------------

export const setsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_sets').where('band_sets.company_id', scope.companyId);

export async function listSets(db: Knex, scope: CompanyScope): Promise<BandSetListRow[]> {
  return setsOf(db, scope)
    .select('band_sets.*', db('bands').count('*').whereRaw('bands.band_set_id = band_sets.id').as('band_count'))
    .orderBy([{ column: 'band_sets.created_at', order: 'desc' }, { column: 'band_sets.id', order: 'desc' }]);
}

export async function findSet(db: Knex, scope: CompanyScope, id: string): Promise<BandSetRow | undefined> {
  return setsOf(db, scope).where({ id }).first();
}

export async function findLiveSet(db: Knex, scope: CompanyScope): Promise<BandSetRow | undefined> {
  return setsOf(db, scope).where({ status: 'live' }).first();
}

export async function insertSet(db: Knex, row: BandSetRow): Promise<void> {
  await db('band_sets').insert(row);
}

export async function deleteSet(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await setsOf(db, scope).where({ id }).delete();
}

/** Marks the set changed (a band was edited): its version moves on, so a publish names what it saw. */
export async function touchSet(db: Knex, scope: CompanyScope, id: string, extra: Partial<BandSetRow> = {}): Promise<void> {
  await setsOf(db, scope)
    .where({ id })
    .update({ ...extra, version: db.raw('version + 1'), updated_at: new Date().toISOString() });
}

// ---- bands ------------------------------------------------------------------------------------

export const bandsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('bands').where('bands.company_id', scope.companyId);

export async function listBands(db: Knex, scope: CompanyScope, setId: string): Promise<BandJobRow[]> {
  return bandsOf(db, scope)
    .where('bands.band_set_id', setId)
    .join('band_company_jobs as j', 'j.id', 'bands.company_job_id')
    .select('bands.*', 'j.job_family_id', 'j.level_id', 'j.track')
    .orderBy([{ column: 'j.job_family_id' }, { column: 'j.track' }, { column: 'j.level_id' }, { column: 'bands.pay_zone_id' }]);
}

export async function findBand(db: Knex, scope: CompanyScope, setId: string, bandId: string): Promise<BandJobRow | undefined> {
  return bandsOf(db, scope)
    .where({ 'bands.band_set_id': setId, 'bands.id': bandId })
    .join('band_company_jobs as j', 'j.id', 'bands.company_job_id')
    .first('bands.*', 'j.job_family_id', 'j.level_id', 'j.track');
}

export async function insertBands(db: Knex, rows: BandRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 400) await db('bands').insert(rows.slice(at, at + 400));
}

export async function deleteBandsOfSet(db: Knex, scope: CompanyScope, setId: string): Promise<void> {
  await bandsOf(db, scope).where({ band_set_id: setId }).delete();
}
