import type { Knex } from 'knex';
import type { CompensationRecordRow, EmployeeRow, EquityGrantRow } from '../people/store.js';
import type { CompanyScope } from '../access/caller.js';
import { chunks } from '../imports/plan.js';
import type { NewJob } from '../jobs/queue.js';
import { type JobRow, insertJob, queuedJobRow } from '../jobs/store.js';

export interface ImportFileRow {
  id: string;
  company_id: string;
  owner_user_id: string;
  download_id: string;
  kind: string;
  format: string;
  filename: string;
  size_bytes: number | string;
  columns: string;
  row_count: number;
  created_at: string | Date;
  expires_at: string | Date;
}

export interface MappingRow {
  id: string;
  company_id: string;
  kind: string;
  name: string;
  mapping: string;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface RunRow {
  id: string;
  company_id: string;
  owner_user_id: string;
  kind: string;
  file_id: string | null;
  filename: string | null;
  integration_id: string | null;
  trigger: string;
  job_id: string | null;
  dry_run: boolean | number;
  mapping: string | null;
  mapping_name: string | null;
  status: string;
  row_count: number | null;
  plan: string | null;
  errors: string | null;
  error_count: number;
  message: string | null;
  created_at: string | Date;
  started_at: string | Date | null;
  finished_at: string | Date | null;
}

export async function insertImportFile(db: Knex, row: ImportFileRow): Promise<void> {
  await db('people_import_files').insert(row);
}

export async function findImportFile(db: Knex, scope: CompanyScope, id: string): Promise<ImportFileRow | undefined> {
  return db<ImportFileRow>('people_import_files').where({ company_id: scope.companyId, id }).first();
}

export async function storageKeyOf(db: Knex, scope: CompanyScope, downloadId: string): Promise<string | undefined> {
  const row = await db('downloads').where({ company_id: scope.companyId, id: downloadId }).first<{ storage_key: string } | undefined>('storage_key');
  return row?.storage_key;
}

export async function listMappings(db: Knex, scope: CompanyScope, kind: string | undefined): Promise<MappingRow[]> {
  const query = db<MappingRow>('people_import_mappings').where({ company_id: scope.companyId });
  if (kind) query.andWhere({ kind });
  return query.orderBy(['kind', 'name']);
}

export async function findMappingByName(db: Knex, scope: CompanyScope, kind: string, name: string): Promise<MappingRow | undefined> {
  return db<MappingRow>('people_import_mappings').where({ company_id: scope.companyId, kind, name }).first();
}

export async function findMapping(db: Knex, scope: CompanyScope, id: string): Promise<MappingRow | undefined> {
  return db<MappingRow>('people_import_mappings').where({ company_id: scope.companyId, id }).first();
}

export async function insertMapping(db: Knex, row: MappingRow): Promise<void> {
  await db('people_import_mappings').insert(row);
}

export async function updateMapping(db: Knex, scope: CompanyScope, id: string, changes: Pick<MappingRow, 'mapping' | 'updated_by' | 'updated_at'>): Promise<void> {
  await db('people_import_mappings').where({ company_id: scope.companyId, id }).update(changes);
}

export async function deleteMapping(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await db('people_import_mappings').where({ company_id: scope.companyId, id }).delete();
}

export async function insertRun(db: Knex, row: RunRow): Promise<void> {
  await db('people_import_runs').insert(row);
}

export async function findRun(db: Knex, scope: CompanyScope, id: string): Promise<RunRow | undefined> {
  return db<RunRow>('people_import_runs').where({ company_id: scope.companyId, id }).first();
}

export async function updateRun(db: Knex, scope: CompanyScope, id: string, changes: Partial<RunRow>): Promise<void> {
  await db('people_import_runs').where({ company_id: scope.companyId, id }).update(changes);
}

export async function latestRunsOfIntegrations(db: Knex, scope: CompanyScope, integrationIds: string[]): Promise<Map<string, RunRow>> {
  const latest = new Map<string, RunRow>();
  for (const part of chunks(integrationIds)) {
    const rows = await db<RunRow>('people_import_runs')
      .where({ company_id: scope.companyId })
      .whereIn('integration_id', part)
      .orderBy('created_at', 'desc');
    for (const row of rows) if (row.integration_id && !latest.has(row.integration_id)) latest.set(row.integration_id, row);
  }
  return latest;
}

// ---- The people data the imports write. ----

/** The import writes whole rows of the people tables; their shapes are the people store's. */
export type { EmployeeRow };
/** A pay record as an import writes it: the version and update time are the database's. */
export type CompensationRow = Omit<CompensationRecordRow, 'version' | 'updated_at'>;
export type CompensationHistoryRow = Pick<CompensationRow, 'id' | 'employee_id' | 'type' | 'amount' | 'currency' | 'percent_of_base_bp' | 'effective_date'>;
export type GrantRow = Omit<EquityGrantRow, 'version'>;

export async function companyEmployees(db: Knex, scope: CompanyScope): Promise<EmployeeRow[]> {
  return db<EmployeeRow>('employees').where({ company_id: scope.companyId });
}

/** Employee id → number, for files that only name employees (grants). */
export async function employeeNumbers(db: Knex, scope: CompanyScope): Promise<Map<string, string>> {
  const rows = await db('employees').where({ company_id: scope.companyId }).select<{ id: string; employee_number: string }[]>('id', 'employee_number');
  return new Map(rows.map((row) => [row.employee_number, row.id]));
}

/** The dated records of the given types, oldest first per employee and type; only what the plan compares. */
export async function compensationHistory(db: Knex, scope: CompanyScope, types: string[]): Promise<CompensationHistoryRow[]> {
  if (!types.length) return [];
  return db('compensation_records')
    .select('id', 'employee_id', 'type', 'amount', 'currency', 'percent_of_base_bp', 'effective_date')
    .where({ company_id: scope.companyId })
    .whereIn('type', types)
    .orderBy(['employee_id', 'type', 'effective_date']);
}

export async function companyGrants(db: Knex, scope: CompanyScope): Promise<GrantRow[]> {
  return db<GrantRow>('equity_grants').where({ company_id: scope.companyId });
}

/** Active sign-ins of the company by lower-cased e-mail, to link employee records to their people. */
export async function companyUserIdsByEmail(db: Knex, scope: CompanyScope): Promise<Map<string, string>> {
  const rows = await db('users').where({ company_id: scope.companyId, status: 'active' }).select<{ id: string; email: string }[]>('id', 'email');
  return new Map(rows.map((row) => [row.email.toLowerCase(), row.id]));
}

export async function currencyMinorUnits(db: Knex): Promise<Map<string, number>> {
  const rows = await db('currencies').select<{ code: string; minor_unit: number | null }[]>('code', 'minor_unit');
  return new Map(rows.map((row) => [row.code, row.minor_unit ?? 0]));
}

export async function companyCurrency(db: Knex, scope: CompanyScope): Promise<string> {
  const row = await db('companies').where({ id: scope.companyId }).first<{ currency: string } | undefined>('currency');
  return row?.currency ?? 'USD';
}

/**
 * Takes the company's row lock for the length of the transaction, so two imports of one company
 * (on two nodes) apply one after the other. SQLite's write transactions are serial already.
 */
export async function lockCompanyForImport(db: Knex, scope: CompanyScope): Promise<void> {
  if (db.client.config.client === 'pg') await db('companies').where({ id: scope.companyId }).forUpdate().first('id');
}

/** Under SQLite's 32,766 and Postgres's 65,535 bound values per statement. */
const BINDINGS_PER_STATEMENT = 30_000;

const quoted = (name: string): string => `"${name}"`;

/**
 * Inserts new rows and overwrites changed ones by their natural key: one multi-row
 * `insert … on conflict do update` per thousand-odd rows, the same statement on both engines
 * (written out rather than built by knex, which costs more than the database at this size).
 */
export async function upsertInChunks(db: Knex, table: string, rows: Record<string, unknown>[], key: string[], keep: string[]): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const merge = columns.filter((column) => !key.includes(column) && !keep.includes(column));
  const perStatement = Math.max(1, Math.floor(BINDINGS_PER_STATEMENT / columns.length));
  const head = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values `;
  const tail = ` on conflict (${key.map(quoted).join(', ')}) do update set ${merge.map((column) => `${quoted(column)} = excluded.${quoted(column)}`).join(', ')}`;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const part = rows.slice(start, start + perStatement);
    const bindings: unknown[] = [];
    for (const row of part) for (const column of columns) bindings.push(row[column] ?? null);
    await db.raw(head + part.map(() => tuple).join(', ') + tail, bindings as Knex.RawBinding[]);
  }
}

/**
 * Inserts a job row with the caller's own connection: in a request that runs in a (tenant)
 * transaction, the job becomes visible together with the import it runs, never before it.
 */
export async function insertQueuedJob(db: Knex, job: NewJob & { runAfter?: string; message?: string }): Promise<JobRow> {
  const row = queuedJobRow(job);
  await insertJob(db, row);
  return row;
}
