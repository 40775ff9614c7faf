import type { Knex } from 'knex';
import { type CompanyScope, rowsOfCompany } from '../access/caller.js';
import { nextTurn } from '../kernel/pace.js';
import { chunks } from '../kernel/importPlan.js';
import type { CompensationRecordRow, EmployeeRow, EquityGrantRow } from './store.js';

/*
 * What people-data imports (HRIS files, cap tables, integrations) read of the people tables to plan
 * an import, and how they write whole rows of them in bulk.
 */


/** The import writes whole rows of the people tables; their shapes are the people store's. */
export type { EmployeeRow };
/** A pay record as an import writes it: the version and update time are the database's. */
export type CompensationRow = Omit<CompensationRecordRow, 'version' | 'updated_at'>;
export type CompensationHistoryRow = Pick<CompensationRow, 'id' | 'employee_id' | 'type' | 'amount' | 'currency' | 'percent_of_base_bp' | 'effective_date'>;
export type GrantRow = Omit<EquityGrantRow, 'version'>;

/** Rows read per query by the readers below: each answer is turned into objects in one go on the event loop, so a few hundred at a time. */
const PAGE = 500;

/**
 * All rows of a query in pages, in the order of a unique `key` (keyset paging), with a turn of the
 * event loop between pages: a 50,000-row read never holds the loop for long.
 */
export async function inPages<T extends Record<string, unknown>>(query: () => Knex.QueryBuilder, key: string): Promise<T[]> {
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
 * The dated records of the given types of these employees, read 250 employees at a time
 * through the (employee, type, date) key; only what the plan compares. Each employee's records
 * of a type come oldest first.
 */
export async function compensationHistory(db: Knex, scope: CompanyScope, types: string[], employeeIds: string[]): Promise<CompensationHistoryRow[]> {
  if (!types.length) return [];
  const out: CompensationHistoryRow[] = [];
  // A few records each: about a thousand rows per answer, turned into objects in one go on the event loop.
  for (const part of chunks(employeeIds, 250)) {
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

/**
 * Well under SQLite's 32,766 and Postgres's 65,535 bound values, and few enough that building one
 * statement and handing its values to the driver (both on the event loop) takes a few milliseconds.
 */
const BINDINGS_PER_STATEMENT = 3_000;

const quoted = (name: string): string => `"${name}"`;

/**
 * Inserts new rows and overwrites changed ones by their natural key: one multi-row
 * `insert … on conflict do update` per few hundred rows, the same statement on both engines
 * (written out rather than built by knex, which costs more than the database at this size); the
 * event loop runs between statements.
 */
async function upsertInChunks(db: Knex, table: string, rows: Record<string, unknown>[], key: string[], keep: string[]): Promise<void> {
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


/** Writes a checked employees file: the employees, then their pay records (by natural key). */
export async function upsertEmployeeRows(db: Knex, employees: EmployeeRow[], compensation: CompensationRow[], writing: (percent: number, message: string) => Promise<void>): Promise<void> {
  await writing(60, `Writing ${employees.length} employees`);
  await upsertInChunks(db, 'employees', employees as unknown as Record<string, unknown>[], ['company_id', 'employee_number'], ['id', 'created_at']);
  await writing(80, `Writing ${compensation.length} compensation records`);
  await upsertInChunks(db, 'compensation_records', compensation as unknown as Record<string, unknown>[], ['employee_id', 'type', 'effective_date'], ['id', 'created_at']);
}

/** Writes a checked cap-table file's grants (by natural key). */
export async function upsertGrantRows(db: Knex, grants: GrantRow[], writing: (percent: number, message: string) => Promise<void>): Promise<void> {
  await writing(70, `Writing ${grants.length} equity grants`);
  await upsertInChunks(db, 'equity_grants', grants as unknown as Record<string, unknown>[], ['company_id', 'grant_number'], ['id', 'created_at']);
}
