import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { callerForUser } from '../access/authenticate.js';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { newId } from '../db/ids.js';
import type { DownloadStorage } from '../downloads/storage.js';
import { badRequest } from '../kernel/errors.js';
import { mappingMessage } from '../kernel/files/mapping.js';
import { type AfterCommit, ImportStopped, type Launch, queueImportJob, queuedRecord, readingProgress, runImport } from '../fileImports/run.js';
import { ownRun, presentRecord, presentUpload } from '../fileImports/present.js';
import { acceptUpload, ownUpload, readUpload } from '../fileImports/uploads.js';
import type { UploadedFile } from '../http/body.js';
import type { SourceTable } from '../kernel/files/table.js';
import { findUserById } from '../access/users.js';
import { jobKind } from '../jobs/kind.js';
import { minorUnitOf, minorUnits, requireMinorUnit } from '../money/minorUnits.js';
import { emit } from '../platform/events.js';
import { applyBandPlan, bandColumns, checkBandRows, missingBandColumns } from './bandImport.js';
import { RowProblems } from './fileRows.js';
import { requireSet } from './sets.js';
import { type SurveyMapping, missingSurveyFields, suggestSurveyMapping, surveyMappingProblems } from './surveyFields.js';
import { savedMappingFitting } from './surveyMappings.js';
import { type SurveyInput, checkSurveyRows, replaceSurveyJobs, surveyToReplace, writeSurvey } from './surveys.js';
import { versionOf } from '../kernel/versions.js';
import { type BandFileRow, type BandImportRow, findBandFile, findImport, insertBandFile, insertImport, listBands, listGradeBands, listGrades, listJobs, touchSet, updateImport } from './store.js';
import { ensureZones } from './zones.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type BandFile = Schemas['BandFile'];
type BandImport = Schemas['BandImport'];
type BandFileKind = Schemas['BandFileKind'];

/** The download kind an uploaded file is kept as (its uploader's, a week). */
export const BAND_IMPORT_FILE = 'bandImportFile';

// ---- files ------------------------------------------------------------------------------------

function presentFile(row: BandFileRow): BandFile {
  const kind = row.kind as BandFileKind;
  const upload = presentUpload(row);
  const suggested = kind === 'survey' ? suggestSurveyMapping(upload.columns) : null;
  return { ...upload, kind, suggestedMapping: suggested, missingRequiredFields: suggested ? missingSurveyFields(suggested) : missingBandColumns(bandColumns(upload.columns)) };
}

/** Stores the file as a download of the uploader's (it expires with it) and reads its header row. */
export async function uploadBandFile(ctx: Pick<ServiceContext, 'deps' | 'caller'>, query: { kind: BandFileKind; filename?: string }, file: UploadedFile): Promise<BandFile> {
  const { deps, caller } = ctx;
  const row = await acceptUpload(deps, caller, {
    file,
    kind: query.kind,
    ...(query.filename === undefined ? {} : { filename: query.filename }),
    baseName: query.kind === 'survey' ? 'survey' : 'bands',
    downloadKind: BAND_IMPORT_FILE,
  });
  await insertBandFile(deps.db, row);
  return presentFile(row);
}

/** An uploaded file is its uploader's alone: anyone else, in this company or another, gets 404 (400 naming `field` when given). */
async function ownFile(db: Knex, caller: Caller, id: string, field?: string): Promise<BandFileRow> {
  return ownUpload(await findBandFile(db, companyScope(caller), id), caller, field);
}

export async function getBandFile(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<BandFile> {
  const { db, caller } = ctx;
  return presentFile(await ownFile(db, caller, id));
}

// ---- imports ----------------------------------------------------------------------------------

function presentImport(row: BandImportRow): BandImport {
  return {
    ...presentRecord<Schemas['BandImportPlan'], Schemas['BandImportRowError']>(row),
    kind: row.kind as BandFileKind,
    status: row.status as BandImport['status'],
    fileId: row.file_id,
    filename: row.filename,
    bandSetId: row.band_set_id,
    surveyId: row.survey_id,
    mapping: row.mapping ? (JSON.parse(row.mapping) as SurveyMapping) : null,
  };
}

/** An import is its starter's: anyone else gets 404 (its problems quote the file). */
export async function getBandImport(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<BandImport> {
  const { db, caller } = ctx;
  return presentImport(ownRun(await findImport(db, companyScope(caller), id), caller));
}

export type { AfterCommit, Launch };

export interface ImportJobInput {
  importId: string;
}

/** Records the import and queues its job in the request's transaction, so the job never runs before the import is visible. */
async function queueImport(deps: AppDeps, row: BandImportRow, launch: Launch): Promise<BandImport> {
  await insertImport(deps.db, row);
  const jobId = await queueImportJob(deps, {
    kind: row.kind === 'survey' ? surveyImportJob : bandsImportJob,
    companyId: row.company_id,
    ownerUserId: row.owner_user_id,
    input: { importId: row.id },
    ...launch,
    recordJob: (id) => updateImport(deps.db, { companyId: row.company_id }, row.id, { job_id: id }),
  });
  return presentImport({ ...row, job_id: jobId });
}

function newImport(scope: CompanyScope, caller: Caller, file: BandFileRow, fields: Partial<BandImportRow>): BandImportRow {
  return {
    ...queuedRecord(),
    id: newId(),
    company_id: scope.companyId,
    owner_user_id: caller.userId,
    kind: file.kind,
    file_id: file.id,
    filename: file.filename,
    band_set_id: null,
    survey_id: null,
    survey_input: null,
    dry_run: false,
    mapping: null,
    row_count: Number(file.row_count),
    ...fields,
  };
}

/**
 * The uploaded survey file and the mapping it is read through: the one sent, else the one saved for
 * the provider when the file has every column it names, else the suggestion; 400 when it does not fit.
 */
async function surveyFileAndMapping(deps: AppDeps, caller: Caller, fileId: string, sent: SurveyMapping | undefined, provider: string): Promise<{ file: BandFileRow; mapping: SurveyMapping }> {
  const file = await ownFile(deps.db, caller, fileId, 'body.fileId');
  if (file.kind !== 'survey') throw badRequest('This file was uploaded as a bands file; upload it again as a survey file.', [{ field: 'body.fileId', message: 'is not a survey file' }]);
  const columns = JSON.parse(file.columns) as string[];
  const mapping = sent ?? (await savedMappingFitting(deps.db, companyScope(caller), provider, columns)) ?? suggestSurveyMapping(columns);
  const problems = surveyMappingProblems(mapping, columns);
  if (problems.length) throw badRequest(mappingMessage(problems, 'body.mapping.'), problems);
  return { file, mapping };
}

/** Checks the file, the mapping and the survey's currency, then queues the survey import. */
export async function startSurveyImport(ctx: Pick<ServiceContext, 'deps' | 'caller'>, body: Schemas['SurveyImportRequest'], launch: Launch): Promise<BandImport> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const survey: SurveyInput = { name: body.survey.name.trim(), provider: body.survey.provider.trim(), effectiveDate: body.survey.effectiveDate, currency: body.survey.currency };
  const { file, mapping } = await surveyFileAndMapping(deps, caller, body.fileId, body.mapping, survey.provider);
  await requireMinorUnit(deps.db, body.survey.currency, 'body.survey.currency');
  if (!survey.name || !survey.provider) throw badRequest('A survey needs a name and a provider.', [{ field: survey.name ? 'body.survey.provider' : 'body.survey.name', message: 'must not be blank' }]);
  return queueImport(deps, newImport(scope, caller, file, { dry_run: body.dryRun ?? false, mapping: JSON.stringify(mapping), survey_input: JSON.stringify(survey) }), launch);
}

/** Checks the survey (at the version read), the file and the mapping, then queues replacing the survey's jobs from the file. */
export async function startSurveyReplace(ctx: Pick<ServiceContext, 'deps' | 'caller'>, surveyId: string, request: { ifMatch: string; body: Schemas['SurveyReplaceRequest'] }, launch: Launch): Promise<BandImport> {
  const { deps, caller } = ctx;
  const { ifMatch, body } = request;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const target = await surveyToReplace(deps.db, scope, surveyId, version);
  const { file, mapping } = await surveyFileAndMapping(deps, caller, body.fileId, body.mapping, target.provider);
  const survey: SurveyInput = { name: target.name, provider: target.provider, effectiveDate: body.effectiveDate ?? target.effective_date, currency: target.currency, replace: { surveyId, version } };
  return queueImport(deps, newImport(scope, caller, file, { dry_run: body.dryRun ?? false, mapping: JSON.stringify(mapping), survey_input: JSON.stringify(survey), survey_id: surveyId }), launch);
}

/** Checks the set is a draft and the file has the export's columns, then queues the bands import. */
export async function startBandImport(ctx: Pick<ServiceContext, 'deps' | 'caller'>, bandSetId: string, body: Schemas['BandImportRequest'], launch: Launch): Promise<BandImport> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const set = await requireSet(deps.db, scope, bandSetId);
  const file = await ownFile(deps.db, caller, body.fileId, 'body.fileId');
  if (file.kind !== 'bands') throw badRequest('This file was uploaded as a survey file; upload it again as a bands file.', [{ field: 'body.fileId', message: 'is not a bands file' }]);
  if (set.status !== 'draft') throw badRequest(`This band set is ${set.status}; bands are imported into a draft (duplicate it first).`, [{ field: 'path.bandSetId', message: `is ${set.status}` }]);
  const missing = missingBandColumns(bandColumns(JSON.parse(file.columns) as string[]));
  if (missing.length) throw badRequest(`The file lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (name them as the export does).`, missing.map((column) => ({ field: 'body.fileId', message: `has no column "${column}"` })));
  return queueImport(deps, newImport(scope, caller, file, { dry_run: body.dryRun ?? false, band_set_id: set.id }), launch);
}

// ---- running ----------------------------------------------------------------------------------

interface RunContext {
  db: Knex;
  log: Logger;
  storage: DownloadStorage;
  scope: CompanyScope;
  progress: (percent: number, message?: string) => Promise<void>;
}

interface Outcome {
  problems: RowProblems;
  plan: Schemas['BandImportPlan'] | null;
  surveyId?: string | null;
}

async function readFile(ctx: RunContext, row: BandImportRow): Promise<SourceTable> {
  const file = row.file_id ? await findBandFile(ctx.db, ctx.scope, row.file_id) : undefined;
  const onProgress = readingProgress(ctx.progress, Number(file?.row_count) || null);
  return readUpload({ db: ctx.db, storage: ctx.storage, scope: ctx.scope, file, expiredStatus: 'rejected' }, { onProgress });
}

async function runSurvey(ctx: RunContext, row: BandImportRow, table: SourceTable): Promise<Outcome> {
  const mapping = row.mapping ? (JSON.parse(row.mapping) as SurveyMapping) : suggestSurveyMapping(table.columns);
  const mappingProblems = surveyMappingProblems(mapping, table.columns);
  if (mappingProblems.length) throw new ImportStopped(mappingMessage(mappingProblems, 'body.mapping.'), 'rejected');
  const survey = JSON.parse(row.survey_input ?? '{}') as SurveyInput;
  const minor = await minorUnitOf(ctx.db, survey.currency);
  if (minor === undefined) throw new ImportStopped(`${survey.currency} is not a current ISO 4217 currency.`, 'rejected');
  const problems = new RowProblems();
  const jobs = checkSurveyRows(table, mapping, survey.currency, minor, problems);
  const plan = { dryRun: Boolean(row.dry_run), rows: table.rows.length, create: jobs.length, update: 0, unchanged: 0 };
  if (problems.count) return { problems, plan };
  if (survey.replace) {
    const replaced = await replaceSurveyJobs(ctx.db, ctx.scope, { ownerUserId: row.owner_user_id, input: survey, filename: row.filename, jobs }, { dryRun: Boolean(row.dry_run), rows: table.rows.length });
    if ('stopped' in replaced) throw new ImportStopped(replaced.stopped, 'rejected');
    return { problems, plan: replaced.plan, surveyId: survey.replace.surveyId };
  }
  if (row.dry_run) return { problems, plan };
  await ctx.progress(70, `Writing ${jobs.length} survey jobs`);
  const surveyId = await ctx.db.transaction(async (trx) => {
    const id = await writeSurvey(trx, ctx.scope, { ownerUserId: row.owner_user_id, input: survey, filename: row.filename, jobs });
    await emit(trx, { name: 'survey.imported', companyId: ctx.scope.companyId, actorUserId: row.owner_user_id, subjectType: 'survey', subjectId: id, payload: { surveyId: id, name: survey.name, jobs: jobs.length } });
    return id;
  });
  return { problems, plan, surveyId };
}

async function runBands(ctx: RunContext, row: BandImportRow, table: SourceTable): Promise<Outcome> {
  const missing = missingBandColumns(bandColumns(table.columns));
  if (missing.length) throw new ImportStopped(`The file lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (name them as the export does).`, 'rejected');
  const setId = row.band_set_id ?? '';
  // Checked against the draft as it is when written: a real import checks inside its transaction.
  const check = async (db: Knex) => {
    const set = await requireSet(db, ctx.scope, setId).catch(() => {
      throw new ImportStopped('The band set is gone.', 'rejected');
    });
    if (set.status !== 'draft') throw new ImportStopped(`The band set is ${set.status} now; bands are imported into a draft.`, 'rejected');
    const [minor, jobs, zones, bands, grades, gradeBands] = await Promise.all([
      minorUnits(db),
      listJobs(db, ctx.scope),
      ensureZones(db, ctx.scope),
      listBands(db, ctx.scope, set.id),
      listGrades(db, ctx.scope),
      listGradeBands(db, ctx.scope, set.id),
    ]);
    const problems = new RowProblems();
    const plan = checkBandRows(table, { set, minor: (currency) => minor.of(currency), jobs, zones, bands, grades, gradeBands, userId: row.owner_user_id }, problems);
    return { set, problems, plan, bands };
  };
  // Grade bands count with the bands they sit beside.
  const summary = (plan: Awaited<ReturnType<typeof check>>['plan']) => ({
    dryRun: Boolean(row.dry_run),
    rows: plan.rows,
    create: plan.create.length + plan.createGrade.length,
    update: plan.update.length + plan.updateGrade.length,
    unchanged: plan.unchanged,
  });
  if (row.dry_run) {
    const { problems, plan } = await check(ctx.db);
    return { problems, plan: summary(plan) };
  }
  // Zones are made before the transaction (a company without zones gets its catch-all on first use).
  await ensureZones(ctx.db, ctx.scope);
  await ctx.progress(60, 'Checking and writing the bands');
  return ctx.db.transaction(async (trx) => {
    const { set, problems, plan, bands } = await check(trx);
    if (problems.count) return { problems, plan: summary(plan) };
    if (plan.create.length || plan.update.length || plan.createGrade.length || plan.updateGrade.length) {
      await applyBandPlan(trx, ctx.scope, plan, row.owner_user_id, bands);
      await touchSet(trx, ctx.scope, set.id);
      await emit(trx, {
        name: 'bandSet.imported',
        companyId: ctx.scope.companyId,
        actorUserId: row.owner_user_id,
        subjectType: 'bandSet',
        subjectId: set.id,
        payload: { bandSetId: set.id, created: plan.create.length + plan.createGrade.length, updated: plan.update.length + plan.updateGrade.length },
      });
    }
    return { problems, plan: summary(plan) };
  });
}

/** Runs one import to its end and records what happened on it (fileImports/run.ts); a file with any bad row writes nothing. */
async function executeImport(ctx: RunContext, importId: string): Promise<BandImportRow> {
  const { db, scope } = ctx;
  return runImport<BandImportRow>({
    log: ctx.log,
    name: 'band import',
    id: importId,
    find: () => findImport(db, scope, importId),
    update: (changes) => updateImport(db, scope, importId, changes),
    work: async (row) => {
      const user = await findUserById(db, row.owner_user_id);
      const owner = user && user.company_id === row.company_id ? await callerForUser(db, user, 'apiToken') : undefined;
      if (!owner || !hasPermission(owner.permissions, 'bands', 'edit', undefined)) throw new ImportStopped('The person who started this import may no longer edit bands.', 'failed');
      await ctx.progress(1, 'Reading the file');
      const table = await readFile(ctx, row);
      await updateImport(db, scope, importId, { row_count: table.rows.length });
      await ctx.progress(45, `Checking ${table.rows.length} rows`);
      const outcome = row.kind === 'survey' ? await runSurvey(ctx, row, table) : await runBands(ctx, row, table);
      return { problems: outcome.problems, plan: outcome.plan, record: { survey_id: outcome.surveyId ?? null } };
    },
  });
}

const importHandler = (deps: AppDeps) => async ({ job, db, log, progress }: { job: { companyId: string; input: ImportJobInput }; db: Knex; log: Logger; progress: RunContext['progress'] }) => {
  const final = await executeImport({ db, log, storage: deps.downloads, scope: { companyId: job.companyId }, progress }, job.input.importId);
  // A failed import fails its job too; a rejected file is a finished check.
  if (final.status === 'failed') throw new Error(final.message ?? 'The import failed.');
  return { importId: final.id, status: final.status, surveyId: final.survey_id, bandSetId: final.band_set_id };
};

/** A survey file's import (dry run or not). */
export const surveyImportJob = jobKind<ImportJobInput>({ type: 'surveyImport', title: 'Survey import' }, importHandler);
/** A bands file's import into a draft (dry run or not). */
export const bandsImportJob = jobKind<ImportJobInput>({ type: 'bandsImport', title: 'Salary bands import' }, importHandler);
