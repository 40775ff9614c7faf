import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { usersOf } from '../access/usersStore.js';

/* The merit-cycle tables; every function takes the company's scope. */

export interface CycleRow {
  id: string;
  company_id: string;
  name: string;
  state: string;
  effective_date: string;
  period_start: string;
  period_end: string;
  currency: string;
  components: string;
  band_set_id: string | null;
  planner_mode: string;
  performance: string;
  eligibility: string;
  recommendation: string;
  budget: string;
  columns: string;
  planning_windows: string;
  /** Hours before a window's close that those still to act are told (0: never). */
  closing_notice_hours: number;
  rates_as_of: string | null;
  exchange_rates: string;
  launched_at: string | Date | null;
  launched_by: string | null;
  closed_at: string | Date | null;
  pay_records_written: number;
  version: number;
  created_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface WorksheetRow {
  id: string;
  company_id: string;
  cycle_id: string;
  planner_employee_id: string | null;
  planner_user_id: string | null;
  planner_name: string | null;
  parent_worksheet_id: string | null;
  depth: number;
  state: string;
  reviewers: string;
  review_step: number | null;
  pulled_up_into: string | null;
  allocated_override: number | string | null;
  sum_employees: number | string;
  sum_eligible: number | string;
  sum_reviewed: number | string;
  sum_changed: number | string;
  sum_flagged_errors: number | string;
  sum_eligible_payroll: number | string;
  sum_budget: number | string;
  sum_recommended: number | string;
  sum_used: number | string;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface EmployeeRowOfCycle {
  id: string;
  company_id: string;
  cycle_id: string;
  employee_id: string;
  worksheet_id: string | null;
  employee_number: string;
  first_name: string;
  last_name: string;
  title: string;
  department: string | null;
  job_family_id: string | null;
  level_id: string | null;
  manager_id: string | null;
  user_id: string | null;
  rating: string | null;
  currency: string;
  current_base: number | string | null;
  base_in_cycle: number | string | null;
  eligibility: string;
  reasons: string;
  excluded_reason: string | null;
  days_employed: number;
  days_in_period: number;
  band_id: string | null;
  band_min: number | string | null;
  band_mid: number | string | null;
  band_max: number | string | null;
  rec_min_bp: number | null;
  rec_target_bp: number | null;
  rec_max_bp: number | null;
  rec_target_amount: number | string | null;
  rec_target_in_cycle: number | string;
  budget_in_cycle: number | string;
  merit_amount: number | string;
  promotion_amount: number | string | null;
  lump_sum_amount: number | string | null;
  equity_refresh_amount: number | string | null;
  /** A pay equity adjustment sent from pay equity's cost to close (minor units of the row's currency), and why. */
  equity_adjustment_amount?: number | string | null;
  equity_adjustment_reason?: string | null;
  spend_in_cycle: number | string;
  comment: string | null;
  flags: string;
  reviewed: boolean | number;
  edited: boolean | number;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface RowChangeRow {
  id: string;
  company_id: string;
  cycle_id: string;
  employee_id: string;
  worksheet_id: string | null;
  row_version: number;
  actor_user_id: string | null;
  changes: string;
  created_at: string | Date;
}

export interface CommentRow {
  id: string;
  company_id: string;
  cycle_id: string;
  worksheet_id: string | null;
  employee_id: string | null;
  author_user_id: string | null;
  body: string;
  created_at: string | Date;
}

export interface ExclusionRow {
  id: string;
  company_id: string;
  cycle_id: string;
  employee_id: string;
  reason: string;
  excluded_by: string | null;
  created_at: string | Date;
}

export interface ChainRow {
  id: string;
  company_id: string;
  cycle_id: string;
  branch_employee_id: string | null;
  reviewers: string;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/**
 * Runs `work` in a transaction: the caller's when `db` is one already (on Postgres a request runs in
 * its tenant transaction, and a savepoint would only add round trips), else a new one.
 */
export function inTransaction<T>(db: Knex, work: (trx: Knex) => Promise<T>): Promise<T> {
  return (db as Knex.Transaction).isTransaction ? work(db) : db.transaction(work);
}

/** Both engines give bigints back as numbers or strings; nulls stay null. */
export const amountOf = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** Timestamps come back as Date (Postgres) or text (SQLite). */
export const isoOf = (value: string | Date): string => new Date(value).toISOString();

// ---- cycles -----------------------------------------------------------------------------------

export const cyclesOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('merit_cycles').where('merit_cycles.company_id', scope.companyId);

export async function listCycles(db: Knex, scope: CompanyScope): Promise<CycleRow[]> {
  return cyclesOf(db, scope).select('*').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

export async function findCycle(db: Knex, scope: CompanyScope, id: string): Promise<CycleRow | undefined> {
  return cyclesOf(db, scope).where({ id }).first();
}

export async function insertCycle(db: Knex, row: CycleRow): Promise<void> {
  await db('merit_cycles').insert(row);
}

export interface CycleCounts {
  employees: number;
  eligible: number;
  ineligible: number;
  excluded: number;
  worksheets: number;
}

export async function cycleCounts(db: Knex, scope: CompanyScope, cycleIds: string[]): Promise<Map<string, CycleCounts>> {
  const counts = new Map<string, CycleCounts>();
  if (!cycleIds.length) return counts;
  const rows = (await db('merit_cycle_employees')
    .where({ company_id: scope.companyId })
    .whereIn('cycle_id', cycleIds)
    .groupBy('cycle_id', 'eligibility')
    .select('cycle_id', 'eligibility')
    .count({ count: '*' })) as { cycle_id: string; eligibility: string; count: number | string }[];
  const sheets = (await db('merit_cycle_worksheets')
    .where({ company_id: scope.companyId })
    .whereIn('cycle_id', cycleIds)
    .whereNot('state', 'pulled_up')
    .groupBy('cycle_id')
    .select('cycle_id')
    .count({ count: '*' })) as { cycle_id: string; count: number | string }[];
  for (const id of cycleIds) counts.set(id, { employees: 0, eligible: 0, ineligible: 0, excluded: 0, worksheets: 0 });
  for (const row of rows) {
    const entry = counts.get(row.cycle_id);
    if (!entry) continue;
    const count = Number(row.count);
    entry.employees += count;
    if (row.eligibility === 'eligible' || row.eligibility === 'ineligible' || row.eligibility === 'excluded') entry[row.eligibility] += count;
  }
  for (const row of sheets) {
    const entry = counts.get(row.cycle_id);
    if (entry) entry.worksheets = Number(row.count);
  }
  return counts;
}

// ---- worksheets ---------------------------------------------------------------------------------

export const worksheetsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('merit_cycle_worksheets').where('merit_cycle_worksheets.company_id', scope.companyId);

export async function listWorksheets(db: Knex, scope: CompanyScope, cycleId: string): Promise<WorksheetRow[]> {
  return worksheetsOf(db, scope).where({ cycle_id: cycleId }).select('*').orderBy([{ column: 'depth' }, { column: 'planner_name' }, { column: 'id' }]);
}

export async function findWorksheet(db: Knex, scope: CompanyScope, cycleId: string, id: string): Promise<WorksheetRow | undefined> {
  return worksheetsOf(db, scope).where({ cycle_id: cycleId, id }).first();
}

/**
 * Many rows in few statements, each with one JSON parameter the database spreads into columns
 * (knex's own multi-row insert on SQLite is a compound select, several times slower).
 */
async function insertMany<T extends object>(db: Knex, table: string, rows: readonly T[], perStatement: number): Promise<void> {
  const first = rows[0];
  if (!first) return;
  if (db.client.config.client === 'pg') {
    // One JSON parameter per few thousand rows: Postgres spreads it into the table's own column types.
    for (let at = 0; at < rows.length; at += 2_000) {
      await db.raw(`insert into ?? select * from json_populate_recordset(null::??, ?::json)`, [table, table, JSON.stringify(rows.slice(at, at + 2_000))]);
    }
    return;
  }
  // SQLite: the rows as one JSON array of arrays per statement, spread into columns by json_each.
  // Binding each of a launch's ~500,000 values one by one (knex's formatter, then the driver) cost
  // more than the insert itself; SQLite reads the JSON in C. Booleans arrive as 1 / 0, as bound.
  // (A multi-row `values` statement with plain bound parameters was measured too: the same CPU in
  // all, but spent binding on the event loop instead of in SQLite's thread.)
  const columns = Object.keys(first) as (keyof T & string)[];
  const sql = `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) select ${columns.map((_, index) => `json_extract(value, '$[${index}]')`).join(', ')} from json_each(?)`;
  for (let at = 0; at < rows.length; at += perStatement) {
    const part = rows.slice(at, at + perStatement);
    await db.raw(sql, [JSON.stringify(part.map((row) => columns.map((column) => row[column] ?? null)))]);
  }
}

export async function insertWorksheets(db: Knex, rows: WorksheetRow[]): Promise<void> {
  await insertMany(db, 'merit_cycle_worksheets', rows, 2_000);
}

// ---- rows ---------------------------------------------------------------------------------------

export const rowsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('merit_cycle_employees').where('merit_cycle_employees.company_id', scope.companyId);

export async function listRows(db: Knex, scope: CompanyScope, cycleId: string, worksheetIds?: readonly string[]): Promise<EmployeeRowOfCycle[]> {
  const query = rowsOf(db, scope).where({ cycle_id: cycleId });
  if (worksheetIds) {
    if (!worksheetIds.length) return [];
    if (worksheetIds.length <= 500) query.whereIn('worksheet_id', worksheetIds);
  }
  const rows = (await query.select('*').orderBy([{ column: 'last_name' }, { column: 'first_name' }, { column: 'employee_id' }])) as EmployeeRowOfCycle[];
  if (!worksheetIds || worksheetIds.length <= 500) return rows;
  const wanted = new Set(worksheetIds);
  return rows.filter((row) => row.worksheet_id !== null && wanted.has(row.worksheet_id));
}

/** Org-tree facts of every row (manager, worksheet, sign-in), light enough to read whole for a 10,000-employee cycle. */
export interface RowTreeFacts {
  employee_id: string;
  manager_id: string | null;
  worksheet_id: string | null;
  user_id: string | null;
}

export async function rowTree(db: Knex, scope: CompanyScope, cycleId: string): Promise<RowTreeFacts[]> {
  return rowsOf(db, scope).where({ cycle_id: cycleId }).select('employee_id', 'manager_id', 'worksheet_id', 'user_id');
}

export async function findRow(db: Knex, scope: CompanyScope, cycleId: string, employeeId: string): Promise<EmployeeRowOfCycle | undefined> {
  return rowsOf(db, scope).where({ cycle_id: cycleId, employee_id: employeeId }).first();
}

export async function insertRows(db: Knex, rows: EmployeeRowOfCycle[]): Promise<void> {
  await insertMany(db, 'merit_cycle_employees', rows, 2_000);
}

/** What a worksheet's rows add up to (money in the cycle currency, eligible rows only). */
export interface WorksheetSums {
  employees: number;
  eligible: number;
  reviewed: number;
  changed: number;
  flagged_errors: number;
  eligible_payroll: number;
  computed_budget: number;
  recommended: number;
  used: number;
}

const SUM_COLUMNS: Record<keyof WorksheetSums, string> = {
  employees: 'sum_employees',
  eligible: 'sum_eligible',
  reviewed: 'sum_reviewed',
  changed: 'sum_changed',
  flagged_errors: 'sum_flagged_errors',
  eligible_payroll: 'sum_eligible_payroll',
  computed_budget: 'sum_budget',
  recommended: 'sum_recommended',
  used: 'sum_used',
};
const SUM_KEYS = Object.keys(SUM_COLUMNS) as (keyof WorksheetSums)[];

export const NO_SUMS: WorksheetSums = { employees: 0, eligible: 0, reviewed: 0, changed: 0, flagged_errors: 0, eligible_payroll: 0, computed_budget: 0, recommended: 0, used: 0 };

type RowFactsSource = Pick<
  EmployeeRowOfCycle,
  'eligibility' | 'reviewed' | 'edited' | 'merit_amount' | 'promotion_amount' | 'lump_sum_amount' | 'equity_refresh_amount' | 'flags' | 'base_in_cycle' | 'budget_in_cycle' | 'rec_target_in_cycle' | 'spend_in_cycle'
>;

/** One row's part of its worksheet's sums. */
export function rowSums(row: RowFactsSource): WorksheetSums {
  if (row.eligibility !== 'eligible') return { ...NO_SUMS, employees: 1 };
  const planned = Number(row.merit_amount) > 0 || Number(row.promotion_amount ?? 0) > 0 || Number(row.lump_sum_amount ?? 0) > 0 || Number(row.equity_refresh_amount ?? 0) > 0;
  return {
    employees: 1,
    eligible: 1,
    reviewed: row.reviewed || row.edited ? 1 : 0,
    changed: planned ? 1 : 0,
    flagged_errors: row.flags.includes('"severity":"error"') ? 1 : 0,
    eligible_payroll: Number(row.base_in_cycle ?? 0),
    computed_budget: Number(row.budget_in_cycle),
    recommended: Number(row.rec_target_in_cycle),
    used: Number(row.spend_in_cycle),
  };
}

export function addSums(a: WorksheetSums, b: WorksheetSums, sign = 1): WorksheetSums {
  const out = { ...a };
  for (const key of SUM_KEYS) out[key] = a[key] + sign * b[key];
  return out;
}

/** Adds `part` into `total` in place (for summing thousands of rows). */
export function addInto(total: WorksheetSums, part: WorksheetSums): WorksheetSums {
  for (const key of SUM_KEYS) total[key] += part[key];
  return total;
}

/** The sums a worksheet row holds. */
export function sumsOf(worksheet: WorksheetRow): WorksheetSums {
  const out = { ...NO_SUMS };
  for (const key of SUM_KEYS) out[key] = Number(worksheet[SUM_COLUMNS[key] as keyof WorksheetRow] ?? 0);
  return out;
}

type SumColumns = Pick<WorksheetRow, 'sum_employees' | 'sum_eligible' | 'sum_reviewed' | 'sum_changed' | 'sum_flagged_errors' | 'sum_eligible_payroll' | 'sum_budget' | 'sum_recommended' | 'sum_used'>;

/** The columns holding these sums. */
export function sumColumns(sums: WorksheetSums): SumColumns {
  return {
    sum_employees: sums.employees,
    sum_eligible: sums.eligible,
    sum_reviewed: sums.reviewed,
    sum_changed: sums.changed,
    sum_flagged_errors: sums.flagged_errors,
    sum_eligible_payroll: sums.eligible_payroll,
    sum_budget: sums.computed_budget,
    sum_recommended: sums.recommended,
    sum_used: sums.used,
  };
}

/** Adds a change of one row (after − before) to its worksheet's sums, in the change's transaction. */
export async function addToSums(db: Knex, scope: CompanyScope, cycleId: string, worksheetId: string, delta: WorksheetSums): Promise<void> {
  const changes: Record<string, Knex.Raw> = {};
  for (const key of SUM_KEYS) if (delta[key] !== 0) changes[SUM_COLUMNS[key]] = db.raw('?? + ?', [SUM_COLUMNS[key], delta[key]]);
  if (Object.keys(changes).length) await worksheetsOf(db, scope).where({ cycle_id: cycleId, id: worksheetId }).update(changes);
}

/** Per worksheet of the cycle, the sums kept on it. */
export function keptSums(worksheets: readonly WorksheetRow[]): Map<string, WorksheetSums> {
  return new Map(worksheets.map((worksheet) => [worksheet.id, sumsOf(worksheet)]));
}

/** The same sums counted from the rows (what the kept ones must always equal). */
export async function countedSums(db: Knex, scope: CompanyScope, cycleId: string): Promise<Map<string, WorksheetSums>> {
  const rows = (await rowsOf(db, scope)
    .where({ cycle_id: cycleId })
    .select('worksheet_id', 'eligibility', 'reviewed', 'edited', 'merit_amount', 'promotion_amount', 'lump_sum_amount', 'equity_refresh_amount', 'flags', 'base_in_cycle', 'budget_in_cycle', 'rec_target_in_cycle', 'spend_in_cycle')) as (RowFactsSource & { worksheet_id: string | null })[];
  const sums = new Map<string, WorksheetSums>();
  for (const row of rows) {
    if (!row.worksheet_id) continue;
    const total = sums.get(row.worksheet_id) ?? { ...NO_SUMS };
    sums.set(row.worksheet_id, addInto(total, rowSums(row)));
  }
  return sums;
}

// ---- row changes, comments, exclusions, chains, viewers ------------------------------------------

export async function insertRowChange(db: Knex, row: RowChangeRow): Promise<void> {
  await db('merit_cycle_row_changes').insert(row);
}

export async function rowChanges(db: Knex, scope: CompanyScope, cycleId: string, employeeId: string, afterVersion = 0): Promise<RowChangeRow[]> {
  return db('merit_cycle_row_changes')
    .where({ company_id: scope.companyId, cycle_id: cycleId, employee_id: employeeId })
    .where('row_version', '>', afterVersion)
    .select('*')
    .orderBy([{ column: 'row_version' }, { column: 'id' }]);
}

export async function insertComment(db: Knex, row: CommentRow): Promise<void> {
  await db('merit_cycle_comments').insert(row);
}

export async function listComments(db: Knex, scope: CompanyScope, cycleId: string, where: { worksheet_id: string } | { employee_id: string }): Promise<CommentRow[]> {
  return db('merit_cycle_comments')
    .where({ company_id: scope.companyId, cycle_id: cycleId, ...where })
    .select('*')
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

export async function listExclusions(db: Knex, scope: CompanyScope, cycleId: string): Promise<ExclusionRow[]> {
  return db('merit_cycle_exclusions').where({ company_id: scope.companyId, cycle_id: cycleId }).select('*');
}

export async function deleteExclusion(db: Knex, scope: CompanyScope, cycleId: string, employeeId: string): Promise<void> {
  await db('merit_cycle_exclusions').where({ company_id: scope.companyId, cycle_id: cycleId, employee_id: employeeId }).delete();
}

export async function upsertExclusion(db: Knex, row: ExclusionRow): Promise<void> {
  await db('merit_cycle_exclusions').insert(row).onConflict(['cycle_id', 'employee_id']).merge(['reason', 'excluded_by', 'created_at']);
}

export const chainsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('merit_cycle_approval_chains').where('merit_cycle_approval_chains.company_id', scope.companyId);

export async function listChains(db: Knex, scope: CompanyScope, cycleId: string): Promise<ChainRow[]> {
  return chainsOf(db, scope).where({ cycle_id: cycleId }).select('*').orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

export async function replaceChains(db: Knex, scope: CompanyScope, cycleId: string, rows: ChainRow[]): Promise<void> {
  await chainsOf(db, scope).where({ cycle_id: cycleId }).delete();
  for (let at = 0; at < rows.length; at += 400) await db('merit_cycle_approval_chains').insert(rows.slice(at, at + 400));
}

export async function touchViewer(db: Knex, scope: CompanyScope, cycleId: string, userId: string, at: string): Promise<void> {
  await db('merit_cycle_viewers').insert({ company_id: scope.companyId, cycle_id: cycleId, user_id: userId, seen_at: at }).onConflict(['cycle_id', 'user_id']).merge(['seen_at']);
}

export async function recentViewers(db: Knex, scope: CompanyScope, cycleId: string, since: string): Promise<string[]> {
  const rows = (await db('merit_cycle_viewers').where({ company_id: scope.companyId, cycle_id: cycleId }).where('seen_at', '>=', since).select('user_id')) as { user_id: string }[];
  return rows.map((row) => row.user_id);
}

export interface UserName {
  name: string;
  email: string;
}

/** Names of the company's users by id (people who left the company are not named). */
export async function userNames(db: Knex, scope: CompanyScope, ids: readonly (string | null)[]): Promise<Map<string, UserName>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  const names = new Map<string, UserName>();
  if (!wanted.length) return names;
  const rows = (await usersOf(db, scope).whereIn('users.id', wanted).select('users.id', 'users.first_name', 'users.last_name', 'users.email')) as { id: string; first_name: string | null; last_name: string | null; email: string }[];
  for (const row of rows) names.set(row.id, { name: [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email, email: row.email });
  return names;
}

export interface WindowNoticeRow {
  id: string;
  company_id: string;
  cycle_id: string;
  stage: string;
  closes_at: string;
  user_id: string;
  sent_at: string;
}

/** Who was told already of this window's close. */
export async function windowNoticeRecipients(db: Knex, scope: CompanyScope, cycleId: string, stage: string, closesAt: string): Promise<string[]> {
  const rows = (await db('merit_cycle_window_notices').where({ company_id: scope.companyId, cycle_id: cycleId, stage, closes_at: closesAt }).select('user_id')) as { user_id: string }[];
  return rows.map((row) => row.user_id);
}

/** Notes a notice as sent; one already noted (a run racing this one) is left as it is. */
export async function insertWindowNotice(db: Knex, row: WindowNoticeRow): Promise<void> {
  await db('merit_cycle_window_notices').insert(row).onConflict(['cycle_id', 'stage', 'closes_at', 'user_id']).ignore();
}
