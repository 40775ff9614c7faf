import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { callerForUser } from '../access/authenticate.js';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { newId } from '../db/ids.js';
import { isoTimestamp, isoTimestampOrNull } from '../db/timestamps.js';
import type { DownloadStorage } from '../downloads/storage.js';
import { saveDownload } from '../downloads/service.js';
import { badRequest, notFound } from '../kernel/errors.js';
import type { UploadedFile } from '../http/body.js';
import { CONTENT_TYPES, type FileFormat, type SourceTable, UnreadableFile, formatOf, readTable } from '../hris/table.js';
import { findUserById } from '../access/users.js';
import { jobKind } from '../jobs/kind.js';
import { queueJobIn } from '../jobs/queue.js';
import { JobCancelled } from '../jobs/worker.js';
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
import { storageKeyOf } from '../downloads/store.js';
import { ensureZones } from './zones.js';

type Schemas = components['schemas'];
type BandFile = Schemas['BandFile'];
type BandImport = Schemas['BandImport'];
type BandFileKind = Schemas['BandFileKind'];

/** The download kind an uploaded file is kept as (its uploader's, a week). */
export const BAND_IMPORT_FILE = 'bandImportFile';

// ---- files ------------------------------------------------------------------------------------

function presentFile(row: BandFileRow): BandFile {
  const kind = row.kind as BandFileKind;
  const columns = JSON.parse(row.columns) as string[];
  const suggested = kind === 'survey' ? suggestSurveyMapping(columns) : null;
  return {
    id: row.id,
    kind,
    filename: row.filename,
    format: row.format as BandFile['format'],
    sizeBytes: Number(row.size_bytes),
    columns,
    rowCount: Number(row.row_count),
    suggestedMapping: suggested,
    missingRequiredFields: suggested ? missingSurveyFields(suggested) : missingBandColumns(bandColumns(columns)),
    createdAt: isoTimestamp(row.created_at),
    expiresAt: isoTimestamp(row.expires_at),
  };
}

/** Stores the file as a download of the uploader's (it expires with it) and reads its header row. */
export async function uploadBandFile(deps: AppDeps, caller: Caller, query: { kind: BandFileKind; filename?: string }, file: UploadedFile): Promise<BandFile> {
  const scope = companyScope(caller);
  const format = formatOf(file.contentType, query.filename, file.bytes.subarray(0, 4));
  let table: SourceTable;
  try {
    table = await readTable(Readable.from(file.bytes), format, { keepRows: false });
  } catch (error) {
    if (error instanceof UnreadableFile) throw badRequest(error.message, [{ field: 'body', message: error.message }]);
    throw error;
  }
  const filename = query.filename ?? `${query.kind === 'survey' ? 'survey' : 'bands'}.${format}`;
  const download = await saveDownload(deps.db, deps.downloads, {
    companyId: scope.companyId,
    ownerUserId: caller.userId,
    jobId: null,
    kind: BAND_IMPORT_FILE,
    filename,
    contentType: CONTENT_TYPES[format],
    permission: null,
    content: Readable.from(file.bytes),
  });
  const row: BandFileRow = {
    id: newId(),
    company_id: scope.companyId,
    owner_user_id: caller.userId,
    download_id: download.id,
    kind: query.kind,
    format,
    filename,
    size_bytes: file.bytes.length,
    columns: JSON.stringify(table.columns),
    row_count: table.rowCount,
    created_at: download.created_at,
    expires_at: download.expires_at,
  };
  await insertBandFile(deps.db, row);
  return presentFile(row);
}

/** An uploaded file is its uploader's alone: anyone else, in this company or another, gets 404. */
async function ownFile(db: Knex, caller: Caller, id: string, field?: string): Promise<BandFileRow> {
  const row = await findBandFile(db, companyScope(caller), id);
  const gone = !row || row.owner_user_id !== caller.userId;
  if (gone && field) throw badRequest('There is no uploaded file with this id; upload it first.', [{ field, message: 'is not a file you uploaded' }]);
  if (gone) throw notFound();
  if (new Date(row.expires_at).getTime() <= Date.now()) throw notFound('The file has expired; upload it again.');
  return row;
}

export async function getBandFile(db: Knex, caller: Caller, id: string): Promise<BandFile> {
  return presentFile(await ownFile(db, caller, id));
}

// ---- imports ----------------------------------------------------------------------------------

function presentImport(row: BandImportRow): BandImport {
  return {
    id: row.id,
    kind: row.kind as BandFileKind,
    status: row.status as BandImport['status'],
    dryRun: Boolean(row.dry_run),
    fileId: row.file_id,
    filename: row.filename,
    bandSetId: row.band_set_id,
    surveyId: row.survey_id,
    mapping: row.mapping ? (JSON.parse(row.mapping) as SurveyMapping) : null,
    jobId: row.job_id,
    rowCount: row.row_count === null ? null : Number(row.row_count),
    plan: row.plan ? (JSON.parse(row.plan) as Schemas['BandImportPlan']) : null,
    errors: row.errors ? (JSON.parse(row.errors) as Schemas['BandImportRowError'][]) : [],
    errorCount: Number(row.error_count),
    message: row.message,
    createdAt: isoTimestamp(row.created_at),
    startedAt: isoTimestampOrNull(row.started_at),
    finishedAt: isoTimestampOrNull(row.finished_at),
  };
}

/** An import is its starter's: anyone else gets 404 (its problems quote the file). */
export async function getBandImport(db: Knex, caller: Caller, id: string): Promise<BandImport> {
  const row = await findImport(db, companyScope(caller), id);
  if (!row || row.owner_user_id !== caller.userId) throw notFound();
  return presentImport(row);
}

/** After the request's writes are committed: wake the worker and tell the owner's screens. */
export type AfterCommit = (task: () => Promise<unknown>) => void;

export interface ImportJobInput {
  importId: string;
}

/** Records the import and queues its job in the request's transaction, so the job never runs before the import is visible. */
async function queueImport(deps: AppDeps, row: BandImportRow, originSocketId: string | undefined, afterCommit: AfterCommit): Promise<BandImport> {
  await insertImport(deps.db, row);
  const kind = row.kind === 'survey' ? surveyImportJob : bandsImportJob;
  const job = await queueJobIn(deps.db, kind, { companyId: row.company_id, ownerUserId: row.owner_user_id, input: { importId: row.id }, originSocketId });
  await updateImport(deps.db, { companyId: row.company_id }, row.id, { job_id: job.id });
  afterCommit(async () => {
    deps.jobs.announce(job);
    deps.jobs.worker.wake();
  });
  return presentImport({ ...row, job_id: job.id });
}

function newImport(scope: CompanyScope, caller: Caller, file: BandFileRow, fields: Partial<BandImportRow>): BandImportRow {
  return {
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
    status: 'queued',
    job_id: null,
    row_count: Number(file.row_count),
    plan: null,
    errors: null,
    error_count: 0,
    message: null,
    created_at: new Date().toISOString(),
    started_at: null,
    finished_at: null,
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
  if (problems.length) throw badRequest(`The column mapping does not fit the file: ${problems.map((p) => `${p.field.replace(/^body\.mapping\./, '')} ${p.message}`).join('; ')}.`, problems);
  return { file, mapping };
}

/** Checks the file, the mapping and the survey's currency, then queues the survey import. */
export async function startSurveyImport(deps: AppDeps, caller: Caller, body: Schemas['SurveyImportRequest'], originSocketId: string | undefined, afterCommit: AfterCommit): Promise<BandImport> {
  const scope = companyScope(caller);
  const survey: SurveyInput = { name: body.survey.name.trim(), provider: body.survey.provider.trim(), effectiveDate: body.survey.effectiveDate, currency: body.survey.currency };
  const { file, mapping } = await surveyFileAndMapping(deps, caller, body.fileId, body.mapping, survey.provider);
  await requireMinorUnit(deps.db, body.survey.currency, 'body.survey.currency');
  if (!survey.name || !survey.provider) throw badRequest('A survey needs a name and a provider.', [{ field: survey.name ? 'body.survey.provider' : 'body.survey.name', message: 'must not be blank' }]);
  return queueImport(deps, newImport(scope, caller, file, { dry_run: body.dryRun ?? false, mapping: JSON.stringify(mapping), survey_input: JSON.stringify(survey) }), originSocketId, afterCommit);
}

/** Checks the survey (at the version read), the file and the mapping, then queues replacing the survey's jobs from the file. */
export async function startSurveyReplace(deps: AppDeps, caller: Caller, surveyId: string, ifMatch: string, body: Schemas['SurveyReplaceRequest'], originSocketId: string | undefined, afterCommit: AfterCommit): Promise<BandImport> {
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const target = await surveyToReplace(deps.db, scope, surveyId, version);
  const { file, mapping } = await surveyFileAndMapping(deps, caller, body.fileId, body.mapping, target.provider);
  const survey: SurveyInput = { name: target.name, provider: target.provider, effectiveDate: body.effectiveDate ?? target.effective_date, currency: target.currency, replace: { surveyId, version } };
  return queueImport(deps, newImport(scope, caller, file, { dry_run: body.dryRun ?? false, mapping: JSON.stringify(mapping), survey_input: JSON.stringify(survey), survey_id: surveyId }), originSocketId, afterCommit);
}

/** Checks the set is a draft and the file has the export's columns, then queues the bands import. */
export async function startBandImport(deps: AppDeps, caller: Caller, bandSetId: string, body: Schemas['BandImportRequest'], originSocketId: string | undefined, afterCommit: AfterCommit): Promise<BandImport> {
  const scope = companyScope(caller);
  const set = await requireSet(deps.db, scope, bandSetId);
  const file = await ownFile(deps.db, caller, body.fileId, 'body.fileId');
  if (file.kind !== 'bands') throw badRequest('This file was uploaded as a survey file; upload it again as a bands file.', [{ field: 'body.fileId', message: 'is not a bands file' }]);
  if (set.status !== 'draft') throw badRequest(`This band set is ${set.status}; bands are imported into a draft (duplicate it first).`, [{ field: 'path.bandSetId', message: `is ${set.status}` }]);
  const missing = missingBandColumns(bandColumns(JSON.parse(file.columns) as string[]));
  if (missing.length) throw badRequest(`The file lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (name them as the export does).`, missing.map((column) => ({ field: 'body.fileId', message: `has no column "${column}"` })));
  return queueImport(deps, newImport(scope, caller, file, { dry_run: body.dryRun ?? false, band_set_id: set.id }), originSocketId, afterCommit);
}

// ---- running ----------------------------------------------------------------------------------

/** A problem that ends an import before (or instead of) checking its rows. */
class ImportStopped extends Error {
  constructor(
    message: string,
    readonly status: 'failed' | 'rejected' = 'rejected',
  ) {
    super(message);
  }
}

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

async function readUpload(ctx: RunContext, row: BandImportRow): Promise<SourceTable> {
  const file = row.file_id ? await findBandFile(ctx.db, ctx.scope, row.file_id) : undefined;
  const key = file && new Date(file.expires_at).getTime() > Date.now() ? await storageKeyOf(ctx.db, ctx.scope, file.download_id) : undefined;
  if (!file || !key) throw new ImportStopped('The uploaded file has expired; upload it again.');
  const expected = Number(file.row_count) || null;
  try {
    return await readTable(ctx.storage.read(key), file.format as FileFormat, {
      onProgress: async (rows) => ctx.progress(expected ? Math.min(40, 2 + (rows / expected) * 38) : 20, `Read ${rows} rows`),
    });
  } catch (error) {
    if (error instanceof UnreadableFile) throw new ImportStopped(error.message);
    throw error;
  }
}

async function runSurvey(ctx: RunContext, row: BandImportRow, table: SourceTable): Promise<Outcome> {
  const mapping = row.mapping ? (JSON.parse(row.mapping) as SurveyMapping) : suggestSurveyMapping(table.columns);
  const mappingProblems = surveyMappingProblems(mapping, table.columns);
  if (mappingProblems.length) throw new ImportStopped(`The column mapping does not fit the file: ${mappingProblems.map((p) => `${p.field.replace(/^body\.mapping\./, '')} ${p.message}`).join('; ')}.`);
  const survey = JSON.parse(row.survey_input ?? '{}') as SurveyInput;
  const minor = await minorUnitOf(ctx.db, survey.currency);
  if (minor === undefined) throw new ImportStopped(`${survey.currency} is not a current ISO 4217 currency.`);
  const problems = new RowProblems();
  const jobs = checkSurveyRows(table, mapping, survey.currency, minor, problems);
  const plan = { dryRun: Boolean(row.dry_run), rows: table.rows.length, create: jobs.length, update: 0, unchanged: 0 };
  if (problems.count) return { problems, plan };
  if (survey.replace) {
    const replaced = await replaceSurveyJobs(ctx.db, ctx.scope, row.owner_user_id, survey, row.filename, jobs, { dryRun: Boolean(row.dry_run), rows: table.rows.length });
    if ('stopped' in replaced) throw new ImportStopped(replaced.stopped);
    return { problems, plan: replaced.plan, surveyId: survey.replace.surveyId };
  }
  if (row.dry_run) return { problems, plan };
  await ctx.progress(70, `Writing ${jobs.length} survey jobs`);
  const surveyId = await ctx.db.transaction(async (trx) => {
    const id = await writeSurvey(trx, ctx.scope, row.owner_user_id, survey, row.filename, jobs);
    await emit(trx, { name: 'survey.imported', companyId: ctx.scope.companyId, actorUserId: row.owner_user_id, subjectType: 'survey', subjectId: id, payload: { surveyId: id, name: survey.name, jobs: jobs.length } });
    return id;
  });
  return { problems, plan, surveyId };
}

async function runBands(ctx: RunContext, row: BandImportRow, table: SourceTable): Promise<Outcome> {
  const missing = missingBandColumns(bandColumns(table.columns));
  if (missing.length) throw new ImportStopped(`The file lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (name them as the export does).`);
  const setId = row.band_set_id ?? '';
  // Checked against the draft as it is when written: a real import checks inside its transaction.
  const check = async (db: Knex) => {
    const set = await requireSet(db, ctx.scope, setId).catch(() => {
      throw new ImportStopped('The band set is gone.');
    });
    if (set.status !== 'draft') throw new ImportStopped(`The band set is ${set.status} now; bands are imported into a draft.`);
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

const finished = (): string => new Date().toISOString();

/** Runs one import to its end and records what happened on it; a file with any bad row writes nothing. */
async function executeImport(ctx: RunContext, importId: string): Promise<BandImportRow> {
  const { db, scope } = ctx;
  const row = await findImport(db, scope, importId);
  if (!row) throw new Error(`band import ${importId} is gone`);
  await updateImport(db, scope, importId, { status: 'running', started_at: new Date().toISOString(), finished_at: null, message: null });
  try {
    const user = await findUserById(db, row.owner_user_id);
    const owner = user && user.company_id === row.company_id ? await callerForUser(db, user, 'apiToken') : undefined;
    if (!owner || !hasPermission(owner.permissions, 'bands', 'edit', undefined)) throw new ImportStopped('The person who started this import may no longer edit bands.', 'failed');
    await ctx.progress(1, 'Reading the file');
    const table = await readUpload(ctx, row);
    await updateImport(db, scope, importId, { row_count: table.rows.length });
    await ctx.progress(45, `Checking ${table.rows.length} rows`);
    const outcome = row.kind === 'survey' ? await runSurvey(ctx, row, table) : await runBands(ctx, row, table);
    const count = outcome.problems.count;
    await updateImport(db, scope, importId, {
      ...(count
        ? { status: 'rejected', errors: JSON.stringify(outcome.problems.first()), error_count: count, message: `The file has ${count} problem${count === 1 ? '' : 's'}; nothing was written.` }
        : { status: row.dry_run ? 'planned' : 'applied', plan: JSON.stringify(outcome.plan), errors: '[]', error_count: 0, survey_id: outcome.surveyId ?? null }),
      finished_at: finished(),
    });
  } catch (error) {
    if (error instanceof ImportStopped) {
      await updateImport(db, scope, importId, { status: error.status, message: error.message, finished_at: finished() });
    } else if (error instanceof JobCancelled) {
      await updateImport(db, scope, importId, { status: 'cancelled', message: 'Cancelled; nothing was written.', finished_at: finished() });
      throw error;
    } else {
      ctx.log.error({ err: error, importId }, 'band import failed');
      await updateImport(db, scope, importId, { status: 'failed', message: 'The import failed unexpectedly; nothing was written.', finished_at: finished() });
      throw error;
    }
  }
  const final = await findImport(db, scope, importId);
  if (!final) throw new Error(`band import ${importId} is gone`);
  return final;
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
