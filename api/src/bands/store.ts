import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { RunRecord } from '../fileImports/run.js';
import { importStore } from '../fileImports/store.js';
import type { UploadRow } from '../fileImports/uploads.js';
import { moveVersionOn } from '../kernel/versions.js';

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
  /** The currency the zone's bands are in; null: each band set's own. */
  currency: string | null;
  /** JSON: the users a `bands` grant scoped to `zones` lets see this zone (bands/zoneAccess.ts). */
  viewer_user_ids: string;
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
  /** The comp grade assigned; null when none. */
  grade_id: string | null;
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
  /** The merit cycle a set published to a cycle serves; null for every other set. */
  merit_cycle_id: string | null;
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
  /** The currency of its amounts: its zone's when it was made (the set's for a zone without one). */
  currency: string;
  source: string | null;
  /** The zone's benchmark at the build (minor units of the band's currency), kept through edits; null when none is recorded. */
  benchmark_amount: number | string | null;
  /** How many sources that benchmark blends (1 for the market release alone). */
  benchmark_count: number | string;
  /** JSON: variable / bonus target / equity ranges (BandRanges); null when none. */
  ranges: string | null;
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

/** The set published to this merit cycle (state `cycle`), if any: what the cycle prices its people against. */
export async function findCycleSet(db: Knex, scope: CompanyScope, meritCycleId: string): Promise<BandSetRow | undefined> {
  return setsOf(db, scope).where({ status: 'cycle', merit_cycle_id: meritCycleId }).first();
}

export async function insertSet(db: Knex, row: BandSetRow): Promise<void> {
  await db('band_sets').insert(row);
}

export async function deleteSet(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await setsOf(db, scope).where({ id }).delete();
}

/** Marks the set changed (a band was edited): its version moves on, so a publish names what it saw. */
export async function touchSet(db: Knex, scope: CompanyScope, id: string, extra: Partial<BandSetRow> = {}): Promise<void> {
  await moveVersionOn(() => setsOf(db, scope).where({ id }), { ...extra, updated_at: new Date().toISOString() });
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

/** What measuring a set needs of its bands: figures, job and benchmark; no edit metadata. */
export type BandFiguresRow = Pick<BandJobRow, 'id' | 'company_job_id' | 'pay_zone_id' | 'min_amount' | 'mid_amount' | 'max_amount' | 'currency' | 'source' | 'benchmark_amount' | 'benchmark_count' | 'job_family_id' | 'level_id' | 'track'>;

/**
 * A set's bands for the evaluation. The source (a composite's is a few KB of parts) is read only for
 * bands without a recorded benchmark, the one case that needs it: reading every source was most of
 * an evaluation's reading time.
 */
export async function listBandFigures(db: Knex, scope: CompanyScope, setId: string): Promise<BandFiguresRow[]> {
  return bandsOf(db, scope)
    .where('bands.band_set_id', setId)
    .join('band_company_jobs as j', 'j.id', 'bands.company_job_id')
    .select(
      'bands.id',
      'bands.company_job_id',
      'bands.pay_zone_id',
      'bands.min_amount',
      'bands.mid_amount',
      'bands.max_amount',
      'bands.currency',
      'bands.benchmark_amount',
      'bands.benchmark_count',
      db.raw('case when bands.benchmark_amount is null then bands.source else null end as source'),
      'j.job_family_id',
      'j.level_id',
      'j.track',
    )
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

export async function updateBandFigures(db: Knex, scope: CompanyScope, id: string, changes: Pick<BandRow, 'min_amount' | 'mid_amount' | 'max_amount' | 'source' | 'updated_by' | 'updated_at'> & Partial<Pick<BandRow, 'ranges'>>): Promise<void> {
  await moveVersionOn(() => bandsOf(db, scope).where({ id }), changes);
}

// ---- settings ---------------------------------------------------------------------------------

export interface BandSettingsRow {
  company_id: string;
  aging_rate_bp: number;
  /** How employees map to company jobs: familyLevel, titleLevel, title or jobCode. */
  job_matching: string;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export async function findSettings(db: Knex, scope: CompanyScope): Promise<BandSettingsRow | undefined> {
  return db<BandSettingsRow>('band_settings').where({ company_id: scope.companyId }).first();
}

export async function insertSettings(db: Knex, row: BandSettingsRow): Promise<void> {
  await db('band_settings').insert(row);
}

export const settingsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_settings').where('band_settings.company_id', scope.companyId);

// ---- surveys ----------------------------------------------------------------------------------

export interface SurveyRow {
  id: string;
  company_id: string;
  kind: string;
  name: string;
  provider: string;
  effective_date: string;
  currency: string;
  job_count: number | string;
  filename: string | null;
  version: number;
  created_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface SurveyListRow extends SurveyRow {
  association_count: number | string;
}

export interface SurveyJobRow {
  id: string;
  company_id: string;
  survey_id: string;
  code: string;
  title: string;
  family: string | null;
  job_family_id: string | null;
  level: string | null;
  location: string | null;
  p10: number | string | null;
  p25: number | string | null;
  p50: number | string | null;
  p75: number | string | null;
  p90: number | string | null;
  incumbent_count: number | string | null;
  company_count: number | string | null;
}

export const surveysOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_surveys').where('band_surveys.company_id', scope.companyId);

const withAssociationCount = (db: Knex, query: Knex.QueryBuilder): Knex.QueryBuilder =>
  query.select('band_surveys.*', db('band_market_associations').count('*').whereRaw('band_market_associations.survey_id = band_surveys.id').as('association_count'));

export async function listSurveyRows(db: Knex, scope: CompanyScope): Promise<SurveyListRow[]> {
  return withAssociationCount(db, surveysOf(db, scope)).orderBy([{ column: 'band_surveys.effective_date', order: 'desc' }, { column: 'band_surveys.id', order: 'desc' }]);
}

export async function findSurvey(db: Knex, scope: CompanyScope, id: string): Promise<SurveyListRow | undefined> {
  return withAssociationCount(db, surveysOf(db, scope).where('band_surveys.id', id)).first();
}

export async function findSurveysByIds(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<SurveyRow[]> {
  if (!ids.length) return [];
  return surveysOf(db, scope).whereIn('id', [...ids]).select('*');
}

export async function insertSurvey(db: Knex, row: SurveyRow): Promise<void> {
  await db('band_surveys').insert(row);
}

export async function deleteSurveyRow(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await surveysOf(db, scope).where({ id }).delete();
}

export const surveyJobsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_survey_jobs').where('band_survey_jobs.company_id', scope.companyId);

export async function listSurveyJobs(db: Knex, scope: CompanyScope, surveyId: string): Promise<SurveyJobRow[]> {
  return surveyJobsOf(db, scope).where({ survey_id: surveyId }).select('*').orderBy([{ column: 'code' }]);
}

/** The jobs of these surveys with these codes (a survey's rows are read once per composite, not per job). */
export async function surveyJobsByCodes(db: Knex, scope: CompanyScope, surveyIds: readonly string[], codes: readonly string[]): Promise<SurveyJobRow[]> {
  if (!surveyIds.length || !codes.length) return [];
  const out: SurveyJobRow[] = [];
  const unique = [...new Set(codes)];
  for (let at = 0; at < unique.length; at += 500) {
    out.push(...((await surveyJobsOf(db, scope).whereIn('survey_id', [...surveyIds]).whereIn('code', unique.slice(at, at + 500)).select('*')) as SurveyJobRow[]));
  }
  return out;
}

export async function findSurveyJob(db: Knex, scope: CompanyScope, surveyId: string, code: string): Promise<SurveyJobRow | undefined> {
  return surveyJobsOf(db, scope).where({ survey_id: surveyId, code }).first();
}

export async function insertSurveyJobs(db: Knex, rows: SurveyJobRow[]): Promise<void> {
  // 17 columns a row: 100 rows stay well under SQLite's 32,766 bound parameters.
  for (let at = 0; at < rows.length; at += 100) await db('band_survey_jobs').insert(rows.slice(at, at + 100));
}

// ---- market-data associations -----------------------------------------------------------------

export interface AssociationRow {
  id: string;
  company_id: string;
  company_job_id: string;
  kind: string;
  survey_id: string | null;
  survey_job_code: string | null;
  market_cell: string | null;
  weight: number | string;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export const associationsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_market_associations').where('band_market_associations.company_id', scope.companyId);

export async function listAssociations(db: Knex, scope: CompanyScope, companyJobIds?: readonly string[]): Promise<AssociationRow[]> {
  const query = associationsOf(db, scope).select('*').orderBy([{ column: 'created_at' }, { column: 'id' }]);
  if (companyJobIds) {
    if (!companyJobIds.length) return [];
    if (companyJobIds.length <= 500) query.whereIn('company_job_id', [...companyJobIds]);
    else {
      const wanted = new Set(companyJobIds);
      return ((await query) as AssociationRow[]).filter((row) => wanted.has(row.company_job_id));
    }
  }
  return query;
}

export async function findAssociation(db: Knex, scope: CompanyScope, companyJobId: string, id: string): Promise<AssociationRow | undefined> {
  return associationsOf(db, scope).where({ company_job_id: companyJobId, id }).first();
}

export async function insertAssociation(db: Knex, row: AssociationRow): Promise<void> {
  await db('band_market_associations').insert(row);
}

export async function deleteAssociation(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await associationsOf(db, scope).where({ id }).delete();
}

// ---- files and imports ------------------------------------------------------------------------

/** An uploaded bands or survey file (band_files): the columns every import keeps about an upload. */
export type BandFileRow = UploadRow;

export interface BandImportRow extends RunRecord {
  band_set_id: string | null;
  survey_id: string | null;
  survey_input: string | null;
}

const tables = importStore<BandImportRow>({ files: 'band_files', runs: 'band_imports' });
export const { insertFile: insertBandFile, findFile: findBandFile, insertRun: insertImport, findRun: findImport, updateRun: updateImport } = tables;

// ---- comp grades and grade bands ----------------------------------------------------------------

export interface GradeRow {
  id: string;
  company_id: string;
  key: string;
  name: string;
  position: number;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface GradeBandRow {
  id: string;
  company_id: string;
  band_set_id: string;
  grade_id: string;
  pay_zone_id: string;
  min_amount: number | string;
  mid_amount: number | string;
  max_amount: number | string;
  /** The currency of its amounts, as a job's band's. */
  currency: string;
  ranges: string | null;
  /** JSON GradeBandSource of a grade band a build made; null when entered by hand or imported. */
  source: string | null;
  benchmark_amount: number | string | null;
  benchmark_count: number | null;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export const gradesOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_grades').where('band_grades.company_id', scope.companyId);

export async function listGrades(db: Knex, scope: CompanyScope): Promise<GradeRow[]> {
  return gradesOf(db, scope).select('*').orderBy([{ column: 'position' }, { column: 'key' }]);
}

export async function findGrade(db: Knex, scope: CompanyScope, id: string): Promise<GradeRow | undefined> {
  return gradesOf(db, scope).where({ id }).first();
}

export async function insertGrade(db: Knex, row: GradeRow): Promise<void> {
  await db('band_grades').insert(row);
}

export async function deleteGradeRow(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await gradesOf(db, scope).where({ id }).delete();
}

/** Company jobs per grade. */
export async function jobCountsByGrade(db: Knex, scope: CompanyScope): Promise<Map<string, number>> {
  const rows = (await jobsOf(db, scope).whereNotNull('grade_id').groupBy('grade_id').select('grade_id', db.raw('count(*) as count'))) as { grade_id: string; count: number | string }[];
  return new Map(rows.map((row) => [row.grade_id, Number(row.count)]));
}

export async function gradeBandsUsingGrade(db: Knex, scope: CompanyScope, gradeId: string): Promise<number> {
  const row = (await gradeBandsOf(db, scope).where({ grade_id: gradeId }).count({ count: '*' }).first()) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
}

export const gradeBandsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_grade_bands').where('band_grade_bands.company_id', scope.companyId);

/** A set's grade bands with their grade's key, by grade order then zone. */
export async function listGradeBands(db: Knex, scope: CompanyScope, setId: string): Promise<(GradeBandRow & { grade_key: string })[]> {
  return gradeBandsOf(db, scope)
    .where('band_grade_bands.band_set_id', setId)
    .join('band_grades as g', 'g.id', 'band_grade_bands.grade_id')
    .select('band_grade_bands.*', 'g.key as grade_key')
    .orderBy([{ column: 'g.position' }, { column: 'g.key' }, { column: 'band_grade_bands.pay_zone_id' }]);
}

export async function findGradeBand(db: Knex, scope: CompanyScope, setId: string, id: string): Promise<(GradeBandRow & { grade_key: string }) | undefined> {
  return gradeBandsOf(db, scope)
    .where({ 'band_grade_bands.band_set_id': setId, 'band_grade_bands.id': id })
    .join('band_grades as g', 'g.id', 'band_grade_bands.grade_id')
    .first('band_grade_bands.*', 'g.key as grade_key');
}

export async function insertGradeBands(db: Knex, rows: GradeBandRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 400) await db('band_grade_bands').insert(rows.slice(at, at + 400));
}

export async function deleteGradeBandRow(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await gradeBandsOf(db, scope).where({ id }).delete();
}

export async function gradeBandsUsingZone(db: Knex, scope: CompanyScope, zoneId: string): Promise<number> {
  const row = (await gradeBandsOf(db, scope).where({ pay_zone_id: zoneId }).count({ count: '*' }).first()) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
}

/** A submission for approval: the approvers named at submission, in order, and their decisions (approvals.ts). */
export interface BandSetApprovalRow {
  band_set_id: string;
  company_id: string;
  approver_user_ids: string;
  decisions: string;
  submitted_by: string;
  submitted_at: string | Date;
}

export const approvalsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_set_approvals').where('band_set_approvals.company_id', scope.companyId);

export async function findBandSetApproval(db: Knex, scope: CompanyScope, bandSetId: string): Promise<BandSetApprovalRow | undefined> {
  return (await approvalsOf(db, scope).where({ band_set_id: bandSetId }).first()) as BandSetApprovalRow | undefined;
}

/** A submission replaces the approval of the one before. */
export async function replaceBandSetApproval(db: Knex, scope: CompanyScope, row: BandSetApprovalRow): Promise<void> {
  await approvalsOf(db, scope).where({ band_set_id: row.band_set_id }).delete();
  await db('band_set_approvals').insert(row);
}

export async function updateDecisions(db: Knex, scope: CompanyScope, bandSetId: string, decisions: string): Promise<void> {
  await approvalsOf(db, scope).where({ band_set_id: bandSetId }).update({ decisions });
}

/** What publishing to a merit cycle needs to know of it: its name and whether it launched. */
export interface PublicationCycle {
  id: string;
  name: string;
  launched_at: string | Date | null;
}

/**
 * The merit cycle a set is published to, as its row says (the cycle names its band set through
 * `band_sets.merit_cycle_id`); read from the table so that bands import nothing of merit cycles,
 * which read band sets (meritCycles/launch.ts).
 */
export async function findPublicationCycle(db: Knex, scope: CompanyScope, meritCycleId: string): Promise<PublicationCycle | undefined> {
  return (await db('merit_cycles').where({ company_id: scope.companyId, id: meritCycleId }).first('id', 'name', 'launched_at')) as PublicationCycle | undefined;
}
