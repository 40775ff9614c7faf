import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { UploadedFile } from '../http/body.js';
import { newId } from '../db/ids.js';
import type { JobKind } from '../jobs/kind.js';
import { type RunJobInput, peopleImportJob } from './jobs.js';
import type { AppDeps } from '../deps.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { type PeopleImportKind, fieldsOf } from './fields.js';
import { type ColumnMapping, mappingProblems, suggestMapping } from './mapping.js';
import { presentField, presentFile, presentMapping, presentRun } from './present.js';
import { missingPermissions, permissionMessage } from './run.js';
import {
  type ImportFileRow,
  type RunRow,
  deleteMapping,
  findImportFile,
  findMapping,
  findMappingByName,
  findRun,
  insertImportFile,
  insertMapping,
  insertRun,
  listMappings,
  updateMapping,
  updateRun,
} from './store.js';
import { mappingMessage } from '../kernel/files/mapping.js';
import { type AfterCommit, type Launch, queueImportJob, queuedRecord } from '../fileImports/run.js';
import { ownRun } from '../fileImports/present.js';
import { acceptUpload, ownUpload } from '../fileImports/uploads.js';
import type { ServiceContext } from '../kernel/operations.js';


export function importFields(kind: PeopleImportKind) {
  // Required fields first, then the file's usual order.
  return [...fieldsOf(kind)].sort((a, b) => Number(b.required) - Number(a.required)).map(presentField);
}

/** Cap-table files are equity data: besides team edit, they need employeeCompensation edit for the whole company. */
export function requireKindPermission(caller: Caller, kind: PeopleImportKind): void {
  const needed = kind === 'employees' ? 'team' : 'employeeCompensation';
  if (!hasPermission(caller.permissions, needed, 'edit', 'all')) throw new HttpError(403, 'forbidden', { message: permissionMessage([needed]) });
}

/** Stores the file as a download of the uploader's (it expires with it) and reads its header row and rows. */
export async function uploadFile(ctx: Pick<ServiceContext, 'deps' | 'caller'>, query: { kind: PeopleImportKind; filename?: string }, file: UploadedFile) {
  const { deps, caller } = ctx;
  requireKindPermission(caller, query.kind);
  const row: ImportFileRow = await acceptUpload(deps, caller, {
    file,
    kind: query.kind,
    ...(query.filename === undefined ? {} : { filename: query.filename }),
    baseName: query.kind === 'employees' ? 'employees' : 'equity-grants',
    downloadKind: 'peopleImportFile',
  });
  await insertImportFile(deps.db, row);
  return presentFile(row);
}

/** An uploaded file is its uploader's alone: anyone else, in this company or another, gets 404. */
async function ownFile(db: Knex, caller: Caller, id: string): Promise<ImportFileRow> {
  return ownUpload(await findImportFile(db, companyScope(caller), id), caller);
}

export async function getFile(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string) {
  const { db, caller } = ctx;
  return presentFile(await ownFile(db, caller, id));
}

async function savedMapping(db: Knex, scope: CompanyScope, kind: PeopleImportKind, name: string): Promise<ColumnMapping> {
  const saved = await findMappingByName(db, scope, kind, name);
  if (!saved) throw badRequest(`There is no saved mapping named "${name}" for ${kind} files.`, [{ field: 'mappingName', message: `no saved mapping is named "${name}"` }]);
  return JSON.parse(saved.mapping) as ColumnMapping;
}

export interface NewRun {
  scope: CompanyScope;
  ownerUserId: string;
  kind: PeopleImportKind;
  dryRun: boolean;
  mapping: ColumnMapping | null;
  mappingName: string | null;
  fileId?: string | null;
  filename?: string | null;
  integrationId?: string | null;
  trigger?: 'manual' | 'schedule';
  rowCount?: number | null;
}

export function runRow(input: NewRun): RunRow {
  return {
    ...queuedRecord(),
    id: newId(),
    company_id: input.scope.companyId,
    owner_user_id: input.ownerUserId,
    kind: input.kind,
    file_id: input.fileId ?? null,
    filename: input.filename ?? null,
    integration_id: input.integrationId ?? null,
    trigger: input.trigger ?? 'manual',
    dry_run: input.dryRun,
    mapping: input.mapping ? JSON.stringify(input.mapping) : null,
    mapping_name: input.mappingName,
    row_count: input.rowCount ?? null,
  };
}

export type { AfterCommit, Launch };

/** Records the import and queues its job in the same transaction; the job runs it (see run.ts). */
export async function queueRun(deps: AppDeps, input: NewRun, kind: JobKind<RunJobInput>, launch: Launch) {
  const row = runRow(input);
  await insertRun(deps.db, row);
  const jobId = await queueImportJob(deps, {
    kind,
    companyId: row.company_id,
    ownerUserId: row.owner_user_id,
    input: { runId: row.id },
    ...launch,
    recordJob: (id) => updateRun(deps.db, input.scope, row.id, { job_id: id }),
  });
  return presentRun({ ...row, job_id: jobId });
}

/** Checks the mapping against the file and the caller's permissions, then queues the import. */
export async function startImport(ctx: Pick<ServiceContext, 'deps' | 'caller'>, fileId: string, body: { mapping?: ColumnMapping; mappingName?: string; dryRun?: boolean }, launch: Launch) {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const file = await ownFile(deps.db, caller, fileId);
  const kind = file.kind as PeopleImportKind;
  const columns = JSON.parse(file.columns) as string[];
  const mapping = body.mapping ?? (body.mappingName ? await savedMapping(deps.db, scope, kind, body.mappingName) : suggestMapping(columns, kind));
  const problems = mappingProblems(mapping, kind, columns);
  if (problems.length) throw badRequest(mappingMessage(problems), problems);
  const missing = missingPermissions(caller, kind, mapping);
  if (missing.length) throw new HttpError(403, 'forbidden', { message: permissionMessage(missing) });
  return queueRun(
    deps,
    {
      scope,
      ownerUserId: caller.userId,
      kind,
      dryRun: body.dryRun ?? false,
      mapping,
      mappingName: body.mapping ? null : (body.mappingName ?? null),
      fileId: file.id,
      filename: file.filename,
      rowCount: Number(file.row_count),
    },
    peopleImportJob,
    launch,
  );
}

/** An import is its starter's: anyone else gets 404 (its problems quote the file's cells). */
export async function getRun(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string) {
  const { db, caller } = ctx;
  return presentRun(ownRun(await findRun(db, companyScope(caller), id), caller));
}

export async function mappings(ctx: Pick<ServiceContext, 'db' | 'caller'>, kind: PeopleImportKind | undefined) {
  const { db, caller } = ctx;
  return (await listMappings(db, companyScope(caller), kind)).map(presentMapping);
}

/** Saves under the name, replacing the company's mapping of that name and kind. */
export async function saveMapping(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: { kind: PeopleImportKind; name: string; mapping: ColumnMapping }) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const name = input.name.trim();
  if (!name) throw badRequest('Give the mapping a name.', [{ field: 'name', message: 'is required' }]);
  const problems = mappingProblems(input.mapping, input.kind, undefined);
  if (problems.length) throw badRequest(`The mapping is not complete: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems);
  const now = new Date().toISOString();
  return db.transaction(async (trx) => {
    const existing = await findMappingByName(trx, scope, input.kind, name);
    if (existing) {
      await updateMapping(trx, scope, existing.id, { mapping: JSON.stringify(input.mapping), updated_by: caller.userId, updated_at: now });
    } else {
      await insertMapping(trx, { id: newId(), company_id: scope.companyId, kind: input.kind, name, mapping: JSON.stringify(input.mapping), updated_by: caller.userId, created_at: now, updated_at: now });
    }
    const saved = await findMappingByName(trx, scope, input.kind, name);
    if (!saved) throw new Error('the saved mapping is gone');
    return presentMapping(saved);
  });
}

export async function removeMapping(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await findMapping(db, scope, id);
  if (!row) throw notFound();
  await deleteMapping(db, scope, id);
  return presentMapping(row);
}
