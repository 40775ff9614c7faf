import type { Knex } from 'knex';
import type { CompensationRecordRow, EmployeeRow, EquityGrantRow } from '../people/store.js';
import { type CompanyScope, rowsOfCompany } from '../access/caller.js';
import { chunks } from '../imports/plan.js';
import { nextTurn } from './pace.js';

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

/** Rows read per query by the readers below: a whole company in one answer is handed to JavaScript in one go. */
const PAGE = 2_000;

/**
 * All rows of a query in pages, in the order of a unique `key` (keyset paging), with a turn of the
 * event loop between pages: a 50,000-row read never holds the loop for long.
 */
async function inPages<T extends Record<string, unknown>>(query: () => Knex.QueryBuilder, key: string): Promise<T[]> {
  const out: T[] = [];
  let after: unknown;
  for (;;) {
    const page = query().orderBy(key).limit(PAGE);
    if (after !== undefined) page.where(key, '>', after as Knex.Value);
    const rows = (await page) as T[];
    for (const row of rows) out.push(row);
    if (rows.length < PAGE) return out;
    after = rows[rows.length - 1]?.[key.replace(/^.*\./, '')];
    await nextTurn();
  }
}

export async function companyEmployees(db: Knex, scope: CompanyScope): Promise<EmployeeRow[]> {
  return inPages<EmployeeRow & Record<string, unknown>>(() => db('employees').where({ company_id: scope.companyId }), 'employee_number');
}

/** Employee id → number, for files that only name employees (grants). */
export async function employeeNumbers(db: Knex, scope: CompanyScope): Promise<Map<string, string>> {
  const rows = await inPages<{ id: string; employee_number: string }>(() => db('employees').where({ company_id: scope.companyId }).select('id', 'employee_number'), 'employee_number');
  return new Map(rows.map((row) => [row.employee_number, row.id]));
}

/**
 * The dated records of the given types of these employees, read a thousand employees at a time
 * through the (employee, type, date) key; only what the plan compares. Each employee's records
 * of a type come oldest first.
 */
export async function compensationHistory(db: Knex, scope: CompanyScope, types: string[], employeeIds: string[]): Promise<CompensationHistoryRow[]> {
  if (!types.length) return [];
  const out: CompensationHistoryRow[] = [];
  for (const part of chunks(employeeIds, 1_000)) {
    const rows = (await db('compensation_records')
      .select('id', 'company_id', 'employee_id', 'type', 'amount', 'currency', 'percent_of_base_bp', 'effective_date')
      .whereIn('employee_id', part)
      .whereIn('type', types)
      .orderBy(['employee_id', 'type', 'effective_date'])) as (CompensationHistoryRow & { company_id: string })[];
    for (const row of rowsOfCompany(scope, rows)) out.push(row);
    await nextTurn();
  }
  return out;
}

export async function companyGrants(db: Knex, scope: CompanyScope): Promise<GrantRow[]> {
  return inPages<GrantRow & Record<string, unknown>>(() => db('equity_grants').where({ company_id: scope.companyId }), 'grant_number');
}

/** Active sign-ins of the company by lower-cased e-mail, to link employee records to their people. */
export async function companyUserIdsByEmail(db: Knex, scope: CompanyScope): Promise<Map<string, string>> {
  const rows = await inPages<{ id: string; email: string }>(() => db('users').where({ company_id: scope.companyId, status: 'active' }).select('id', 'email'), 'email');
  return new Map(rows.map((row) => [row.email.toLowerCase(), row.id]));
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

/**
 * Changes whenever the company's people data an import reads does: a row added, edited (records
 * carry a version and an update time) or removed. A plan made from one reading is written only if
 * this still reads the same inside the write.
 */
export async function peopleDataVersion(db: Knex, scope: CompanyScope, kind: 'employees' | 'equityGrants'): Promise<string> {
  const summary = (table: string, versioned: string) =>
    db(table)
      .where('company_id', scope.companyId)
      .first(db.raw('count(*) as n'), db.raw(`coalesce(sum(${versioned}), 0) as v`), db.raw('max(created_at) as c'), db.raw('max(updated_at) as u'));
  const parts = [await summary('employees', 'version'), await summary(kind === 'employees' ? 'compensation_records' : 'equity_grants', 'coalesce(version, 1)')];
  return JSON.stringify(parts, (_key, value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === 'number' || typeof value === 'bigint' ? String(value) : value));
}

/**
 * After a bulk write, Postgres's planner statistics of the people tables are refreshed, so the next
 * reading of them (the next import's, the team table's) is planned on their real size rather than
 * on what autovacuum last saw. SQLite plans these queries by their indexes alone.
 */
export async function refreshStatistics(db: Knex, kind: 'employees' | 'equityGrants'): Promise<void> {
  if (db.client.config.client !== 'pg') return;
  await db.raw(kind === 'employees' ? 'analyze employees, compensation_records' : 'analyze equity_grants');
}

/** Well under SQLite's 32,766 and Postgres's 65,535 bound values, and few enough that building one statement takes milliseconds. */
const BINDINGS_PER_STATEMENT = 8_000;

const quoted = (name: string): string => `"${name}"`;

/**
 * Inserts new rows and overwrites changed ones by their natural key: one multi-row
 * `insert … on conflict do update` per few hundred rows, the same statement on both engines
 * (written out rather than built by knex, which costs more than the database at this size); the
 * event loop runs between statements.
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

