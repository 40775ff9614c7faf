import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { newId } from '../db/ids.js';
import { isoTimestamp } from '../db/timestamps.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf, writeAtVersion } from '../kernel/versions.js';
import { emit } from '../platform/events.js';
import { parseWholeNumber } from '../kernel/files/cells.js';
import { parseAmount } from '../money/parse.js';
import type { SourceTable } from '../kernel/files/table.js';
import { JOB_FAMILIES, familyOfOccupation, findJobFamily } from '../reference/catalog/index.js';
import { type BlsWage, readBlsOccupations } from '../market/generator/bls.js';
import { servedReleaseId, servedRelease } from '../market/releases.js';
import { type FileRow, RowProblems, fileRows } from './fileRows.js';
import { PERCENTILE_FIELDS, type SurveyFieldName, type SurveyMapping } from './surveyFields.js';
import {
  type AssociationRow,
  type SurveyJobRow,
  type SurveyListRow,
  type SurveyRow,
  associationsOf,
  deleteSurveyRow,
  jobsOf,
  findSurvey,
  insertSurvey,
  insertSurveyJobs,
  listSurveyJobs,
  listSurveyRows,
  surveyJobsOf,
  surveysOf,
} from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A survey's jobs were replaced from a new file; associations whose job the file lacks were removed. */
    'survey.replaced': { surveyId: string; name: string; jobs: number; removedAssociations: number };
  }
}

type Schemas = components['schemas'];
type Survey = Schemas['Survey'];
type SurveyJob = Schemas['SurveyJob'];
type Percentile = (typeof PERCENTILE_FIELDS)[number];

const money = (amount: number | string | null, currency: string) => (amount === null ? null : { amount: Number(amount), currency });
const countOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

export function presentSurvey(row: SurveyRow, associationCount: number): Survey {
  return {
    id: row.id,
    kind: row.kind as Survey['kind'],
    name: row.name,
    provider: row.provider,
    effectiveDate: row.effective_date,
    currency: row.currency,
    jobCount: Number(row.job_count),
    filename: row.filename,
    associationCount,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
    version: Number(row.version),
  };
}

export function presentSurveyJob(row: SurveyJobRow, currency: string): SurveyJob {
  return {
    code: row.code,
    title: row.title,
    family: row.family,
    jobFamilyId: row.job_family_id,
    level: row.level,
    location: row.location,
    p10: money(row.p10, currency),
    p25: money(row.p25, currency),
    p50: money(row.p50, currency),
    p75: money(row.p75, currency),
    p90: money(row.p90, currency),
    incumbentCount: countOrNull(row.incumbent_count),
    companyCount: countOrNull(row.company_count),
  };
}

export async function requireSurvey(db: Knex, scope: CompanyScope, id: string): Promise<SurveyListRow> {
  const row = await findSurvey(db, scope, id);
  if (!row) throw notFound();
  return row;
}

/** The served market release as a source, like a survey: effective the day it was published. */
export function marketSource(deps: AppDeps): Schemas['MarketSurveySource'] | null {
  if (!servedReleaseId(deps)) return null;
  const { row } = servedRelease(deps);
  return {
    kind: 'market',
    name: 'Paybench market data',
    provider: 'Paybench',
    releaseId: row.id,
    releaseVersion: row.version,
    effectiveDate: releaseEffectiveDate(row),
  };
}

export const releaseEffectiveDate = (row: { published_at: string | Date | null; built_at: string | Date }): string => isoTimestamp(row.published_at ?? row.built_at).slice(0, 10);

export async function listSurveys(ctx: Pick<ServiceContext, 'deps' | 'caller'>): Promise<{ data: Survey[]; market: Schemas['MarketSurveySource'] | null }> {
  const { deps, caller } = ctx;
  const rows = await listSurveyRows(deps.db, companyScope(caller));
  return { data: rows.map((row) => presentSurvey(row, Number(row.association_count))), market: marketSource(deps) };
}

export async function getSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['SurveyDetail']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await requireSurvey(db, scope, id);
  const jobs = await listSurveyJobs(db, scope, id);
  return { ...presentSurvey(row, Number(row.association_count)), jobs: jobs.map((job) => presentSurveyJob(job, row.currency)) };
}

export async function updateSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, patch: Schemas['SurveyPatch']): Promise<Survey> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const changes: Partial<SurveyRow> = { updated_at: new Date().toISOString() };
  if (patch.name !== undefined) changes.name = patch.name.trim();
  if (patch.provider !== undefined) changes.provider = patch.provider.trim();
  if (patch.effectiveDate !== undefined) changes.effective_date = patch.effectiveDate;
  await updateAtVersion(() => surveysOf(db, scope).where({ id }), version, changes, 'this survey');
  const row = await requireSurvey(db, scope, id);
  return presentSurvey(row, Number(row.association_count));
}

export async function deleteSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Survey> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const row = await requireSurvey(trx, scope, id);
    const used = Number(row.association_count);
    if (used) throw new HttpError(409, 'survey_in_use', { message: `${used} market-data association${used === 1 ? '' : 's'} use this survey; remove them first.` });
    // Its jobs go with it (on delete cascade).
    await deleteSurveyRow(trx, scope, id);
    return presentSurvey(row, 0);
  });
}

// ---- the BLS survey ---------------------------------------------------------------------------

export const BLS_SURVEY = {
  name: 'BLS OEWS national, May 2023',
  provider: 'U.S. Bureau of Labor Statistics',
  // OEWS estimates are for the pay period that includes May 12.
  effectiveDate: '2023-05-12',
  currency: 'USD',
  filename: 'national_M2023_dl.csv',
} as const;


/** Whole dollars → cents; a top-coded figure is only a lower bound, so it is left out rather than understated. */
const cents = (wage: BlsWage | null): number | null => (wage && !wage.censored ? Math.round(wage.value * 100) : null);

let blsRows: Omit<SurveyJobRow, 'id' | 'company_id' | 'survey_id'>[] | undefined;

/** The detailed occupations of the national file with any published percentile. */
function blsSurveyJobs(): Omit<SurveyJobRow, 'id' | 'company_id' | 'survey_id'>[] {
  if (!blsRows) {
    const families = familyOfOccupation();
    blsRows = [...readBlsOccupations().values()]
      .map((occupation) => {
        const familyId = families.get(occupation.code) ?? null;
        return {
          code: occupation.code,
          title: occupation.title.slice(0, 255),
          family: familyId ? (findJobFamily(familyId)?.name ?? null) : null,
          job_family_id: familyId,
          level: null,
          location: 'United States',
          p10: cents(occupation.p10),
          p25: cents(occupation.p25),
          p50: cents(occupation.median),
          p75: cents(occupation.p75),
          p90: cents(occupation.p90),
          incumbent_count: occupation.employment > 0 ? Math.round(occupation.employment) : null,
          company_count: null,
        };
      })
      .filter((row) => PERCENTILE_FIELDS.some((name) => row[name] !== null))
      .sort((a, b) => a.code.localeCompare(b.code));
  }
  return blsRows;
}

/** Adds the BLS national survey the product ships; a company has it once (409 otherwise). */
export async function addBlsSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Survey> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const jobs = blsSurveyJobs();
  const now = new Date().toISOString();
  const row: SurveyRow = {
    id: newId(),
    company_id: scope.companyId,
    kind: 'bls',
    name: BLS_SURVEY.name,
    provider: BLS_SURVEY.provider,
    effective_date: BLS_SURVEY.effectiveDate,
    currency: BLS_SURVEY.currency,
    job_count: jobs.length,
    filename: BLS_SURVEY.filename,
    version: 1,
    created_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  const exists = () => new HttpError(409, 'survey_exists', { message: 'The company already has the BLS survey.' });
  if (await surveysOf(db, scope).where({ kind: 'bls' }).first('id')) throw exists();
  try {
    await db.transaction(async (trx) => {
      await insertSurvey(trx, row);
      await insertSurveyJobs(
        trx,
        jobs.map((job) => ({ ...job, id: newId(), company_id: scope.companyId, survey_id: row.id })),
      );
    });
  } catch (error) {
    // Two adds at once: the partial unique index lets one in.
    if (/unique|duplicate/i.test(String(error))) throw exists();
    throw error;
  }
  return presentSurvey(row, 0);
}

// ---- checking a survey file -------------------------------------------------------------------

export interface SurveyInput {
  name: string;
  provider: string;
  effectiveDate: string;
  currency: string;
  /** Set when the file replaces this survey's jobs; the version it was read at. */
  replace?: { surveyId: string; version: number };
}

const PERCENTILE_ORDER: readonly Percentile[] = PERCENTILE_FIELDS;

/** A family written as a catalog id or name → the catalog's id. */
const familyByText = new Map<string, string>(JOB_FAMILIES.flatMap((family) => [[family.id, family.id] as const, [family.name.toLowerCase(), family.id] as const]));

/**
 * Checks every row of a survey file: job code and title present and codes unique, amounts exactly in
 * the currency's minor units, at least one percentile, percentiles not decreasing, counts whole.
 * Returns the survey's jobs (without ids) and every problem; writes nothing.
 */
export function checkSurveyRows(table: SourceTable, mapping: SurveyMapping, currency: string, minor: number, problems: RowProblems): Omit<SurveyJobRow, 'id' | 'company_id' | 'survey_id'>[] {
  const rows = fileRows<SurveyFieldName>(table, mapping, problems);
  const seen = new Map<string, number>();
  const out: Omit<SurveyJobRow, 'id' | 'company_id' | 'survey_id'>[] = [];
  const amount = (text: string) => parseAmount(text, currency, minor);
  for (const row of rows) {
    const before = problems.count;
    const code = required(row, 'jobCode', 100);
    const title = required(row, 'title', 255);
    if (code !== null) {
      const earlier = seen.get(code.toLowerCase());
      if (earlier !== undefined) row.problem('jobCode', `"${code}" is already the code of line ${earlier}`);
      else seen.set(code.toLowerCase(), row.line);
    }
    const figures = {} as Record<Percentile, number | null>;
    for (const name of PERCENTILE_ORDER) figures[name] = row.parse(name, amount) ?? null;
    const given = PERCENTILE_ORDER.filter((name) => figures[name] !== null);
    if (!given.length && problems.count === before) row.problem(null, 'has no percentile: give at least one of p10, p25, p50, p75 and p90');
    for (let at = 1; at < given.length; at += 1) {
      const [lower, higher] = [given[at - 1] as Percentile, given[at] as Percentile];
      if ((figures[higher] ?? 0) < (figures[lower] ?? 0)) row.problem(higher, `is below ${lower}: percentiles never decrease`);
    }
    const incumbents = row.parse('incumbentCount', (text) => parseWholeNumber(text, 0, 100_000_000)) ?? null;
    const companies = row.parse('companyCount', (text) => parseWholeNumber(text, 0, 10_000_000)) ?? null;
    const family = row.text('family', 200) ?? null;
    const entry = {
      code: code ?? '',
      title: title ?? '',
      family,
      job_family_id: family ? (familyByText.get(family.toLowerCase()) ?? null) : null,
      level: row.text('level', 100) ?? null,
      location: row.text('location', 200) ?? null,
      p10: figures.p10,
      p25: figures.p25,
      p50: figures.p50,
      p75: figures.p75,
      p90: figures.p90,
      incumbent_count: incumbents,
      company_count: companies,
    };
    if (problems.count === before) out.push(entry);
  }
  return out;
}

function required(row: FileRow<SurveyFieldName>, field: SurveyFieldName, max: number): string | null {
  const text = row.cell(field);
  if (!text) {
    row.problem(field, 'is required');
    return null;
  }
  return row.text(field, max) ?? null;
}

type FileJob = Omit<SurveyJobRow, 'id' | 'company_id' | 'survey_id'>;

/** A survey read from a file: who imported it, what they said of it, the file's name and its jobs. */
export interface ImportedSurvey {
  ownerUserId: string;
  input: SurveyInput;
  filename: string | null;
  jobs: readonly FileJob[];
}

/** Creates the survey and its jobs (in the caller's transaction). */
export async function writeSurvey(trx: Knex, scope: CompanyScope, survey: ImportedSurvey): Promise<string> {
  const { ownerUserId, input, filename, jobs } = survey;
  const now = new Date().toISOString();
  const id = newId();
  await insertSurvey(trx, {
    id,
    company_id: scope.companyId,
    kind: 'imported',
    name: input.name.trim(),
    provider: input.provider.trim(),
    effective_date: input.effectiveDate,
    currency: input.currency,
    job_count: jobs.length,
    filename,
    version: 1,
    created_by: ownerUserId,
    created_at: now,
    updated_at: now,
  });
  await insertSurveyJobs(
    trx,
    jobs.map((job) => ({ ...job, id: newId(), company_id: scope.companyId, survey_id: id })),
  );
  return id;
}

// ---- replacing a survey's jobs from a new file ------------------------------------------------


/** The survey a file will replace the jobs of: the company's (else 404), imported, at the version read. */
export async function surveyToReplace(db: Knex, scope: CompanyScope, id: string, version: number): Promise<SurveyListRow> {
  const row = await requireSurvey(db, scope, id);
  if (row.kind === 'bls') throw badRequest('The BLS survey is the file the product ships; it is not replaced from a file.', [{ field: 'path.surveyId', message: 'is the BLS survey' }]);
  if (Number(row.version) !== version) throw versionConflict('this survey', Number(row.version));
  return row;
}

const FIGURES = ['title', 'family', 'job_family_id', 'level', 'location', 'p10', 'p25', 'p50', 'p75', 'p90', 'incumbent_count', 'company_count'] as const;
const figure = (value: string | number | null): string | null => (value === null ? null : String(value));
const sameJob = (stored: SurveyJobRow, read: FileJob): boolean => FIGURES.every((name) => figure(stored[name]) === figure(read[name]));

/** Why replacing stopped before writing (the survey is gone, or someone changed it since it was read). */
export type ReplaceOutcome = { plan: Schemas['BandImportPlan'] } | { stopped: string };

/**
 * Plans replacing the survey's jobs with the file's (by code: added, changed, unchanged, removed) and
 * finds the associations whose survey job the file no longer has; unless a dry run, writes it all in
 * one transaction — the jobs, the survey at its next version, those associations removed — and emits
 * `survey.replaced`. Rows were checked before: a file with any problem never gets here.
 */
export async function replaceSurveyJobs(db: Knex, scope: CompanyScope, survey: ImportedSurvey, options: { dryRun: boolean; rows: number }): Promise<ReplaceOutcome> {
  const { ownerUserId, input, filename, jobs } = survey;
  const target = input.replace;
  if (!target) throw new Error('replaceSurveyJobs needs the survey to replace');
  const run = async (trx: Knex): Promise<ReplaceOutcome> => {
    const survey = await findSurvey(trx, scope, target.surveyId);
    if (!survey) return { stopped: 'The survey is gone; nothing was written.' };
    if (Number(survey.version) !== target.version) return { stopped: 'Someone else changed this survey first; nothing was written. Reload and try again.' };
    const stored = await listSurveyJobs(trx, scope, survey.id);
    const before = new Map(stored.map((job) => [job.code, job]));
    const codes = new Set(jobs.map((job) => job.code));
    let create = 0;
    let update = 0;
    for (const job of jobs) {
      const old = before.get(job.code);
      if (!old) create += 1;
      else if (!sameJob(old, job)) update += 1;
    }
    const associations = (await associationsOf(trx, scope).where({ survey_id: survey.id }).select('*').orderBy([{ column: 'created_at' }, { column: 'id' }])) as AssociationRow[];
    const unmatched = associations.filter((row) => !codes.has(row.survey_job_code ?? ''));
    const titles = new Map<string, string>(
      unmatched.length ? ((await jobsOf(trx, scope).whereIn('id', [...new Set(unmatched.map((row) => row.company_job_id))]).select('id', 'title')) as { id: string; title: string }[]).map((job) => [job.id, job.title]) : [],
    );
    const plan: Schemas['BandImportPlan'] = {
      dryRun: options.dryRun,
      rows: options.rows,
      create,
      update,
      unchanged: jobs.length - create - update,
      remove: stored.filter((job) => !codes.has(job.code)).length,
      unmatchedAssociations: unmatched.map((row) => ({
        associationId: row.id,
        companyJobId: row.company_job_id,
        companyJobTitle: titles.get(row.company_job_id) ?? '',
        surveyJobCode: row.survey_job_code ?? '',
        surveyJobTitle: before.get(row.survey_job_code ?? '')?.title ?? '',
        weight: Number(row.weight),
      })),
    };
    if (options.dryRun) return { plan };
    const now = new Date().toISOString();
    const moved = await writeAtVersion(() => surveysOf(trx, scope).where({ id: survey.id }), target.version, { job_count: jobs.length, filename, effective_date: input.effectiveDate, updated_at: now });
    if (!moved) return { stopped: 'Someone else changed this survey first; nothing was written. Reload and try again.' };
    if (unmatched.length) await associationsOf(trx, scope).whereIn('id', unmatched.map((row) => row.id)).delete();
    await surveyJobsOf(trx, scope).where({ survey_id: survey.id }).delete();
    await insertSurveyJobs(
      trx,
      jobs.map((job) => ({ ...job, id: newId(), company_id: scope.companyId, survey_id: survey.id })),
    );
    await emit(trx, {
      name: 'survey.replaced',
      companyId: scope.companyId,
      actorUserId: ownerUserId,
      subjectType: 'survey',
      subjectId: survey.id,
      payload: { surveyId: survey.id, name: survey.name, jobs: jobs.length, removedAssociations: unmatched.length },
    });
    return { plan };
  };
  return options.dryRun ? run(db) : db.transaction(run);
}
