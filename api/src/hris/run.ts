import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { minorUnits } from '../money/minorUnits.js';
import { callerForUser } from '../access/authenticate.js';
import type { Caller, CompanyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { emit } from '../platform/events.js';
import type { DownloadStorage } from '../downloads/storage.js';
import { findUserById } from '../access/users.js';
import { compensationTypesOf, planEmployees } from './employees.js';
import { type FieldName, type FieldPermission, type PeopleImportKind, fieldsOf } from './fields.js';
import { planGrants } from './grants.js';
import { marketExclusionsOf } from './marketExclusions.js';
import { type ColumnMapping, mappingProblems, suggestMapping } from './mapping.js';
import { type PeopleImportPlan, RowErrors, mappedRows } from './rows.js';
import {
  type CompensationRow,
  type EmployeeRow,
  type GrantRow,
  companyEmployees,
  companyGrants,
  compensationHistory,
  employeeNumbers,
  peopleDataVersion,
  refreshStatistics,
  upsertEmployeeRows,
  upsertGrantRows,
} from '../people/importRows.js';
import { type RunRow, companyCurrency, companyUserIdsByEmail, findImportFile, findMappingByName, findRun, lockCompanyForImport, updateRun } from './store.js';
import { ImportStopped, readingProgress, runImport } from '../fileImports/run.js';
import { readUpload } from '../fileImports/uploads.js';
import { mappingMessage } from '../kernel/files/mapping.js';
import type { SourceTable } from '../kernel/files/table.js';
import { today } from '../kernel/files/cells.js';

/** The edit permissions (whole company) a file of this kind with this mapping needs. */
export function permissionsFor(kind: PeopleImportKind, mapping: ColumnMapping): FieldPermission[] {
  const needed = new Set<FieldPermission>([kind === 'employees' ? 'team' : 'employeeCompensation']);
  for (const definition of fieldsOf(kind)) if (mapping[definition.field]) needed.add(definition.permission);
  return [...needed];
}

export function missingPermissions(caller: Caller, kind: PeopleImportKind, mapping: ColumnMapping): FieldPermission[] {
  return permissionsFor(kind, mapping).filter((permission) => !hasPermission(caller.permissions, permission, 'edit', 'all'));
}

export function permissionMessage(missing: FieldPermission[]): string {
  return `This import needs ${missing.map((permission) => `the ${permission} permission (edit, whole company)`).join(' and ')}.`;
}

/** Where an import's rows come from; connectors give tables too. */
export type TableSource = (onRows: (rowsRead: number) => Promise<void>) => Promise<SourceTable>;

export function uploadedTable(db: Knex, storage: DownloadStorage, scope: CompanyScope, fileId: string | null): TableSource {
  return async (onRows) => {
    const file = fileId ? await findImportFile(db, scope, fileId) : undefined;
    return readUpload({ db, storage, scope, file, expiredStatus: 'failed' }, { onProgress: onRows });
  };
}

export interface RunOptions {
  db: Knex;
  log: Logger;
  scope: CompanyScope;
  runId: string;
  source: TableSource;
  /** Reports progress (0–100); throws when the job was cancelled. */
  progress: (percent: number, message?: string) => Promise<void>;
  /** Rows expected, when known before reading (uploads): makes the reading progress exact. */
  expectedRows?: number | null;
  /** Sees the table and its mapping before any row is checked (a connection keeps fields edited in Paybench). */
  beforeCheck?: (table: SourceTable, mapping: ColumnMapping) => Promise<void>;
}

const json = (value: unknown): string => JSON.stringify(value);

async function mappingFor(db: Knex, scope: CompanyScope, run: RunRow, table: SourceTable): Promise<ColumnMapping> {
  if (run.mapping) return JSON.parse(run.mapping) as ColumnMapping;
  if (run.mapping_name) {
    const saved = await findMappingByName(db, scope, run.kind, run.mapping_name);
    if (!saved) throw new ImportStopped(`There is no saved mapping named "${run.mapping_name}" any more.`, 'rejected');
    return JSON.parse(saved.mapping) as ColumnMapping;
  }
  return suggestMapping(table.columns, run.kind as PeopleImportKind);
}

/** The person the import runs as, with their permissions as they are now. */
async function ownerOf(db: Knex, run: RunRow): Promise<Caller> {
  const user = await findUserById(db, run.owner_user_id);
  if (!user || user.company_id !== run.company_id) {
    throw new ImportStopped('The person who started this import no longer has access to the company.');
  }
  return callerForUser(db, user, 'apiToken');
}

interface Outcome {
  plan: PeopleImportPlan | null;
  errors: RowErrors;
}

/** A checked file: its plan and problems, and (when it may be applied) what it writes. */
interface Checked extends Outcome {
  writes: { employees: EmployeeRow[]; compensation: CompensationRow[] } | { grants: GrantRow[] } | null;
}

/** Reads what the company holds, checks every row against it and plans; writes nothing. */
async function check(db: Knex, run: RunRow, scope: CompanyScope, table: SourceTable, mapping: ColumnMapping): Promise<Checked> {
  const errors = new RowErrors();
  const rows = mappedRows(table, mapping, errors);
  const dryRun = Boolean(run.dry_run);
  const now = new Date().toISOString();
  const currencies = await minorUnits(db);
  const currency = await companyCurrency(db, scope);
  const fromIntegration = run.integration_id !== null;
  if (run.kind === 'employees') {
    const mapped = (field: FieldName): boolean => mapping[field] !== undefined;
    const existing = await companyEmployees(db, scope);
    const { plan, writes, inFile } = await planEmployees(
      rows,
      {
        companyId: scope.companyId,
        companyCurrency: currency,
        currencies,
        existing,
        history: await compensationHistory(
          db,
          scope,
          compensationTypesOf(mapped),
          existing.map((employee) => employee.id),
        ),
        userIdsByEmail: mapped('email') ? await companyUserIdsByEmail(db, scope) : new Map(),
        today: today(),
        now,
        source: fromIntegration ? 'integration' : 'hris_import',
      },
      dryRun,
    );
    if (errors.count) return { plan: null, errors, writes: null };
    // Said before anything is written, in the dry run as in the result: what the market will leave out.
    const marketExclusions = await marketExclusionsOf(db, scope, { inFile, compensation: writes.compensation, minor: currencies, day: today() });
    return { plan: { ...plan, marketExclusions }, errors, writes: dryRun ? null : writes };
  }
  const { plan, writes } = await planGrants(
    rows,
    {
      companyId: scope.companyId,
      companyCurrency: currency,
      currencies,
      employees: await employeeNumbers(db, scope),
      existing: await companyGrants(db, scope),
      now,
      source: fromIntegration ? 'integration' : 'cap_table_import',
    },
    dryRun,
  );
  return { plan: errors.count ? null : plan, errors, writes: errors.count || dryRun ? null : { grants: writes } };
}

/** Writes a checked file's rows, a thousand-odd per statement; the event loop runs between statements. */
async function write(db: Knex, writes: NonNullable<Checked['writes']>, writing: (percent: number, message: string) => Promise<void>): Promise<void> {
  if ('grants' in writes) await upsertGrantRows(db, writes.grants, writing);
  else await upsertEmployeeRows(db, writes.employees, writes.compensation, writing);
}

/** Writes of at least this many rows refresh the planner's statistics afterwards. */
const BULK_ROWS = 1_000;

/** Plans checked outside the write that another change overtook before it began; then the plan is made within it. */
const OPTIMISTIC_ATTEMPTS = 2;

/**
 * Checks and applies all or nothing. The file is checked and planned against what the company
 * holds, outside any transaction (on SQLite, outside the one write lock), and then written in one
 * transaction that first makes sure the company's people data is still what was read; if anything
 * changed in between, it plans again. After two such misses the plan is made inside the
 * transaction, as other writers wait.
 */
async function checkAndApply(options: RunOptions, run: RunRow, table: SourceTable, mapping: ColumnMapping): Promise<Outcome> {
  const { db, scope, progress } = options;
  const kind = run.kind as PeopleImportKind;
  // On SQLite a progress write from the pool would wait for this transaction's write lock: it waits for the commit.
  const live = db.client.config.client === 'pg';
  for (let attempt = 1; ; attempt += 1) {
    const optimistic = attempt <= OPTIMISTIC_ATTEMPTS;
    const seen = optimistic ? await peopleDataVersion(db, scope, kind) : null;
    const checked = optimistic ? await check(db, run, scope, table, mapping) : null;
    if (checked && !checked.writes) return checked;
    if (checked) await progress(55, 'Checked every row');
    const applied = await db.transaction(async (trx): Promise<Checked | null> => {
      await lockCompanyForImport(trx, scope);
      if (seen !== null && (await peopleDataVersion(trx, scope, kind)) !== seen) return null;
      const result = checked ?? (await check(trx, run, scope, table, mapping));
      if (!result.writes || !result.plan) return result;
      await write(trx, result.writes, live ? progress : async () => undefined);
      await emit(trx, {
        companyId: scope.companyId,
        actorUserId: run.owner_user_id,
        name: run.kind === 'employees' ? 'employees.imported' : 'equityGrants.imported',
        subjectType: 'peopleImport',
        subjectId: run.id,
        payload: { rows: result.plan.rows, create: result.plan.create, update: result.plan.update, unchanged: result.plan.unchanged, compensationRecords: result.plan.compensationRecords },
      });
      return result;
    });
    if (applied) {
      const written = applied.writes ? ('grants' in applied.writes ? applied.writes.grants.length : applied.writes.employees.length + applied.writes.compensation.length) : 0;
      if (written >= BULK_ROWS) await refreshStatistics(db, kind).catch((error: unknown) => options.log.warn({ err: error }, 'people import: refreshing planner statistics failed'));
      return applied;
    }
    options.log.info({ runId: run.id, attempt }, 'people import: the company changed while the file was checked; checking again');
  }
}

/**
 * Runs one import: reads the rows, checks them all, then plans or applies in one transaction.
 * Whatever happens is recorded on the import (fileImports/run.ts); a file with any bad row writes nothing.
 */
export async function executeRun(options: RunOptions): Promise<RunRow> {
  const { db, scope, runId } = options;
  return runImport<RunRow>({
    log: options.log,
    name: 'people import',
    id: runId,
    find: () => findRun(db, scope, runId),
    update: (changes) => updateRun(db, scope, runId, changes),
    work: async (run) => {
      const caller = await ownerOf(db, run);
      await options.progress(1, 'Reading the file');
      const table = await options.source(readingProgress(options.progress, options.expectedRows ?? null));
      const mapping = await mappingFor(db, scope, run, table);
      await updateRun(db, scope, runId, { mapping: json(mapping), row_count: table.rows.length });
      const problems = mappingProblems(mapping, run.kind as PeopleImportKind, table.columns);
      if (problems.length) throw new ImportStopped(mappingMessage(problems, 'mapping.'), 'rejected');
      const missing = missingPermissions(caller, run.kind as PeopleImportKind, mapping);
      if (missing.length) throw new ImportStopped(permissionMessage(missing));
      await options.beforeCheck?.(table, mapping);
      await options.progress(45, `Checking ${table.rows.length} rows`);
      const outcome: Outcome = run.dry_run ? await check(db, run, scope, table, mapping) : await checkAndApply(options, run, table, mapping);
      return { problems: outcome.errors, plan: outcome.plan };
    },
  });
}
