import type { Knex } from 'knex';
import { recordsInForce } from './reads/payInForce.js';
import { STARTING, type StatusFilter, whereStatus } from './reads/status.js';
import type { CompanyScope } from '../access/caller.js';
import { type EmployeeReach, withinReach } from './visibility.js';
import { moveVersionOn, writeAtVersion } from '../kernel/versions.js';

// ── rows ─────────────────────────────────────────────────────────────────────────────────

export interface EmployeeRow {
  id: string;
  company_id: string;
  employee_number: string;
  user_id: string | null;
  email: string | null;
  first_name: string;
  last_name: string;
  title: string;
  company_job_id: string | null;
  /** The HR system's code for the person's job (ENG-3). */
  job_code: string | null;
  job_family_id: string | null;
  level_id: string | null;
  track: string | null;
  manager_id: string | null;
  department: string | null;
  country_code: string | null;
  location_id: string | null;
  currency: string;
  start_date: string | null;
  employment_type: string;
  status: string;
  termination_date: string | null;
  performance_rating: string | null;
  /** A dated leave: its first and last day (null while open); absent on rows written before leave was recorded. */
  leave_start_date?: string | null;
  leave_end_date?: string | null;
  /** The employing legal entity; absent on rows written before it was recorded. */
  legal_entity?: string | null;
  /** Full-time equivalent, 0 < fte ≤ 1 (a decimal: Postgres returns it as text). */
  fte?: number | string;
  /** Contractual hours a week (a decimal, text from Postgres); null when people data gives none. */
  weekly_hours?: number | string | null;
  demographics: string;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export type PayComponentType = 'base_salary' | 'bonus_target' | 'variable_pay' | 'commission' | 'benefits' | 'one_off_bonus';
export const PAY_COMPONENT_TYPES: readonly PayComponentType[] = ['base_salary', 'bonus_target', 'variable_pay', 'commission', 'benefits', 'one_off_bonus'];

export interface CompensationRecordRow {
  id: string;
  company_id: string;
  employee_id: string;
  type: PayComponentType;
  amount: number;
  currency: string;
  percent_of_base_bp: number | null;
  effective_date: string;
  reason: string | null;
  source: string;
  version: number | null;
  created_at: string | Date;
  updated_at: string | Date | null;
}

export interface EquityGrantRow {
  id: string;
  company_id: string;
  employee_id: string;
  grant_number: string;
  grant_type: 'option' | 'rsu' | 'rsa' | 'common_stock';
  reason: string;
  shares: number;
  exercise_price: number | null;
  currency: string;
  grant_date: string;
  vesting_start_date: string;
  vesting_months: number;
  cliff_months: number;
  vesting_frequency: 'monthly' | 'quarterly' | 'annually';
  source: string;
  version: number | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface CandidateRow {
  id: string;
  company_id: string;
  email: string;
  first_name: string;
  last_name: string;
  title: string;
  job_family_id: string | null;
  level_id: string | null;
  location_id: string | null;
  country_code: string | null;
  currency: string;
  status: string;
  source: string | null;
  hired_employee_id: string | null;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

/** Dates are stored as 'YYYY-MM-DD' text; numbers may come back as strings from some drivers. */
function normaliseRecord(row: CompensationRecordRow): CompensationRecordRow {
  return { ...row, amount: Number(row.amount), percent_of_base_bp: row.percent_of_base_bp === null ? null : Number(row.percent_of_base_bp), version: Number(row.version ?? 1) };
}

function normaliseGrant(row: EquityGrantRow): EquityGrantRow {
  return {
    ...row,
    shares: Number(row.shares),
    exercise_price: row.exercise_price === null ? null : Number(row.exercise_price),
    vesting_months: Number(row.vesting_months),
    cliff_months: Number(row.cliff_months),
    version: Number(row.version ?? 1),
  };
}

// ── employees ────────────────────────────────────────────────────────────────────────────

export function employeesOf(db: Knex, scope: CompanyScope) {
  return db<EmployeeRow>('employees').where('employees.company_id', scope.companyId);
}

export async function findEmployee(db: Knex, scope: CompanyScope, id: string): Promise<EmployeeRow | undefined> {
  return employeesOf(db, scope).where('employees.id', id).first();
}

export async function findEmployeeWithin(db: Knex, scope: CompanyScope, reach: EmployeeReach, id: string): Promise<EmployeeRow | undefined> {
  return withinReach(employeesOf(db, scope).where('employees.id', id), scope, reach).first<EmployeeRow | undefined>('employees.*');
}

export async function findEmployeeByUser(db: Knex, scope: CompanyScope, userId: string): Promise<EmployeeRow | undefined> {
  return employeesOf(db, scope).where('employees.user_id', userId).first();
}

export async function findEmployeeByNumber(db: Knex, scope: CompanyScope, employeeNumber: string): Promise<EmployeeRow | undefined> {
  return employeesOf(db, scope).where('employees.employee_number', employeeNumber).first();
}

export async function findEmployeeByEmail(db: Knex, scope: CompanyScope, email: string): Promise<EmployeeRow | undefined> {
  return employeesOf(db, scope).where('employees.email', email).first();
}

/** Of `ids`, those within the reach. */
export async function idsWithinReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, ids: string[]): Promise<Set<string>> {
  if (!ids.length || reach.kind === 'none') return new Set();
  if (reach.kind === 'all') return new Set(ids);
  const rows = await withinReach(employeesOf(db, scope).whereIn('employees.id', ids), scope, reach).select<{ id: string }[]>('employees.id');
  return new Set(rows.map((row) => row.id));
}

export interface EmployeeFilters {
  search?: string;
  department?: string;
  locationIds?: string[];
  familyIds?: string[];
  levelId?: string;
  managerId?: string;
  status: StatusFilter;
  employmentType?: string;
}

/** The employment contract a row holds, as the API writes it (decimals come back as text from Postgres; fte defaults to 1). */
export function contractOf(row: Pick<EmployeeRow, 'legal_entity' | 'fte' | 'weekly_hours'>): { legalEntity: string | null; fte: number; weeklyHours: number | null } {
  return {
    legalEntity: row.legal_entity ?? null,
    fte: row.fte === undefined ? 1 : Number(row.fte),
    weeklyHours: row.weekly_hours === undefined || row.weekly_hours === null ? null : Number(row.weekly_hours),
  };
}

/** Where a name-ordered page continues: after this last name, first name and id. */
export type NameCursor = [lastName: string, firstName: string, id: string];

const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

/** The employees of the reach that pass the filters, ordered by name; one page after `after`. */
export function filteredEmployees(db: Knex, scope: CompanyScope, reach: EmployeeReach, filters: EmployeeFilters) {
  const query = withinReach(employeesOf(db, scope), scope, reach);
  whereStatus(query, 'employees.status', filters.status);
  if (filters.department) query.andWhereRaw('lower(employees.department) = ?', [filters.department.toLowerCase()]);
  if (filters.locationIds) query.whereIn('employees.location_id', filters.locationIds);
  if (filters.familyIds) query.whereIn('employees.job_family_id', filters.familyIds);
  if (filters.levelId) query.andWhere('employees.level_id', filters.levelId);
  if (filters.managerId) query.andWhere('employees.manager_id', filters.managerId);
  if (filters.employmentType) query.andWhere('employees.employment_type', filters.employmentType);
  if (filters.search) {
    const like = likePattern(filters.search);
    query.andWhere((q) =>
      q
        .whereRaw("lower(employees.first_name || ' ' || employees.last_name) like ? escape '\\'", [like])
        .orWhereRaw("lower(coalesce(employees.email, '')) like ? escape '\\'", [like])
        .orWhereRaw("lower(employees.title) like ? escape '\\'", [like])
        .orWhereRaw("lower(employees.employee_number) like ? escape '\\'", [like]),
    );
  }
  return query;
}

export async function employeePage(
  db: Knex,
  scope: CompanyScope,
  reach: EmployeeReach,
  filters: EmployeeFilters,
  page: { limit: number; after: NameCursor | undefined },
): Promise<{ rows: EmployeeRow[]; hasMore: boolean }> {
  const { limit, after } = page;
  const query = filteredEmployees(db, scope, reach, filters);
  if (after) query.andWhereRaw('(employees.last_name, employees.first_name, employees.id) > (?, ?, ?)', after);
  const rows = await query
    .select<EmployeeRow[]>('employees.*')
    .orderBy([{ column: 'employees.last_name' }, { column: 'employees.first_name' }, { column: 'employees.id' }])
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function directReportsOf(db: Knex, scope: CompanyScope, reach: EmployeeReach, managerId: string, status: EmployeeFilters['status']): Promise<EmployeeRow[]> {
  return filteredEmployees(db, scope, reach, { managerId, status })
    .select<EmployeeRow[]>('employees.*')
    .orderBy([{ column: 'employees.last_name' }, { column: 'employees.first_name' }, { column: 'employees.id' }]);
}

/**
 * The management chain above `employeeId` (their manager, that manager's manager, …), nearest
 * first. Depth is capped so a cycle in bad data cannot loop.
 */
export async function managementChain(db: Knex, scope: CompanyScope, employeeId: string): Promise<{ id: string; first_name: string; last_name: string }[]> {
  const result = await db.raw(
    `WITH RECURSIVE chain(id, manager_id, first_name, last_name, depth) AS (
       SELECT id, manager_id, first_name, last_name, 0 FROM employees WHERE company_id = ? AND id = ?
       UNION ALL
       SELECT e.id, e.manager_id, e.first_name, e.last_name, chain.depth + 1 FROM employees e JOIN chain ON e.id = chain.manager_id
       WHERE e.company_id = ? AND chain.depth < 64
     ) SELECT id, first_name, last_name, depth FROM chain ORDER BY depth`,
    [scope.companyId, employeeId, scope.companyId],
  );
  // SQLite answers with the rows, Postgres with a result object.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: string; first_name: string; last_name: string; depth: number }[];
  return rows.filter((row) => Number(row.depth) > 0);
}

export async function countActiveReports(db: Knex, scope: CompanyScope, managerId: string): Promise<number> {
  // Future hires who will report to them count too: they must not start under someone who left.
  const row = await employeesOf(db, scope).where({ manager_id: managerId }).whereIn('status', ['active', STARTING]).count<{ count: number | string }[]>({ count: '*' }).first();
  return Number(row?.count ?? 0);
}

export async function insertEmployees(db: Knex, rows: EmployeeRow[]): Promise<void> {
  if (rows.length) await db.batchInsert('employees', rows, 200);
}

/** Optimistic update: true when the row still had `version`. */
export async function updateEmployee(db: Knex, scope: CompanyScope, id: string, version: number, changes: Partial<EmployeeRow>): Promise<boolean> {
  return writeAtVersion(() => employeesOf(db, scope).where({ id }), version, changes);
}

/** The ids of the active and future reports of a manager (whom a reassignment moves). */
export async function activeReportIds(db: Knex, scope: CompanyScope, managerId: string): Promise<string[]> {
  const rows = (await employeesOf(db, scope).where({ manager_id: managerId }).whereIn('status', ['active', STARTING]).select('id')) as { id: string }[];
  return rows.map((row) => row.id);
}

export async function reassignReports(db: Knex, scope: CompanyScope, fromManagerId: string, toManagerId: string, now: string): Promise<number> {
  return moveVersionOn(() => employeesOf(db, scope).where({ manager_id: fromManagerId }).whereIn('status', ['active', STARTING]), { manager_id: toManagerId, updated_at: now });
}

/** A company job of the salary bands (the bands area owns the table): its job, for an employee's record. */
export async function findCompanyJob(db: Knex, scope: CompanyScope, id: string): Promise<{ id: string; job_family_id: string; level_id: string; track: string; title: string } | undefined> {
  return db('band_company_jobs').where({ company_id: scope.companyId, id }).first('id', 'job_family_id', 'level_id', 'track', 'title');
}

// ── compensation records ─────────────────────────────────────────────────────────────────

export function recordsOf(db: Knex, scope: CompanyScope) {
  return db<CompensationRecordRow>('compensation_records').where('compensation_records.company_id', scope.companyId);
}

export async function employeeRecords(db: Knex, scope: CompanyScope, employeeId: string, type?: PayComponentType): Promise<CompensationRecordRow[]> {
  const query = recordsOf(db, scope).where({ employee_id: employeeId });
  if (type) query.andWhere({ type });
  const rows = await query.orderBy([{ column: 'effective_date', order: 'desc' }, { column: 'type' }]);
  return rows.map(normaliseRecord);
}

export async function findRecord(db: Knex, scope: CompanyScope, employeeId: string, id: string): Promise<CompensationRecordRow | undefined> {
  const row = await recordsOf(db, scope).where({ employee_id: employeeId, id }).first();
  return row ? normaliseRecord(row) : undefined;
}

export async function findRecordOn(db: Knex, scope: CompanyScope, employeeId: string, type: PayComponentType, effectiveDate: string): Promise<CompensationRecordRow | undefined> {
  const row = await recordsOf(db, scope).where({ employee_id: employeeId, type, effective_date: effectiveDate }).first();
  return row ? normaliseRecord(row) : undefined;
}

export async function insertRecords(db: Knex, rows: CompensationRecordRow[]): Promise<void> {
  if (rows.length) await db.batchInsert('compensation_records', rows, 200);
}

export async function updateRecord(db: Knex, scope: CompanyScope, id: string, version: number, changes: Partial<CompensationRecordRow>): Promise<boolean> {
  return writeAtVersion(() => recordsOf(db, scope).where({ id }), version, changes, { nullIsFirst: true });
}

export async function deleteRecord(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await recordsOf(db, scope).where({ id }).delete();
}

/** The record of each type in force on `asOf` (`reads/payInForce.ts`), for many employees at once. */
export async function currentRecords(db: Knex, scope: CompanyScope, employeeIds: string[], asOf: string): Promise<Map<string, Map<PayComponentType, CompensationRecordRow>>> {
  const result = new Map<string, Map<PayComponentType, CompensationRecordRow>>();
  for (let start = 0; start < employeeIds.length; start += 500) {
    const rows = (await recordsInForce(db, asOf)
      .where('c.company_id', scope.companyId)
      .whereIn('c.employee_id', employeeIds.slice(start, start + 500))
      .select('c.*')) as CompensationRecordRow[];
    for (const raw of rows) {
      const byType = result.get(raw.employee_id) ?? new Map<PayComponentType, CompensationRecordRow>();
      byType.set(raw.type, normaliseRecord(raw));
      result.set(raw.employee_id, byType);
    }
  }
  return result;
}

// ── equity grants ────────────────────────────────────────────────────────────────────────

export function grantsOf(db: Knex, scope: CompanyScope) {
  return db<EquityGrantRow>('equity_grants').where('equity_grants.company_id', scope.companyId);
}

export async function employeeGrants(db: Knex, scope: CompanyScope, employeeId: string): Promise<EquityGrantRow[]> {
  const rows = await grantsOf(db, scope).where({ employee_id: employeeId }).orderBy([{ column: 'grant_date' }, { column: 'grant_number' }]);
  return rows.map(normaliseGrant);
}

export async function findGrant(db: Knex, scope: CompanyScope, employeeId: string, id: string): Promise<EquityGrantRow | undefined> {
  const row = await grantsOf(db, scope).where({ employee_id: employeeId, id }).first();
  return row ? normaliseGrant(row) : undefined;
}

export async function findGrantByNumber(db: Knex, scope: CompanyScope, grantNumber: string): Promise<EquityGrantRow | undefined> {
  const row = await grantsOf(db, scope).where({ grant_number: grantNumber }).first();
  return row ? normaliseGrant(row) : undefined;
}

export async function insertGrants(db: Knex, rows: EquityGrantRow[]): Promise<void> {
  if (rows.length) await db.batchInsert('equity_grants', rows, 200);
}

export async function updateGrant(db: Knex, scope: CompanyScope, id: string, version: number, changes: Partial<EquityGrantRow>): Promise<boolean> {
  return writeAtVersion(() => grantsOf(db, scope).where({ id }), version, changes, { nullIsFirst: true });
}

export async function deleteGrant(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await grantsOf(db, scope).where({ id }).delete();
}

// ── candidates ───────────────────────────────────────────────────────────────────────────

export function candidatesOf(db: Knex, scope: CompanyScope) {
  return db<CandidateRow>('candidates').where('candidates.company_id', scope.companyId);
}

export async function findCandidate(db: Knex, scope: CompanyScope, id: string): Promise<CandidateRow | undefined> {
  return candidatesOf(db, scope).where({ id }).first();
}

export async function findCandidateByEmail(db: Knex, scope: CompanyScope, email: string): Promise<CandidateRow | undefined> {
  return candidatesOf(db, scope).where({ email }).first();
}

export async function candidatePage(
  db: Knex,
  scope: CompanyScope,
  filters: { search?: string; status?: string },
  limit: number,
  afterEmail: string | undefined,
): Promise<{ rows: CandidateRow[]; hasMore: boolean }> {
  const query = candidatesOf(db, scope);
  if (filters.status) query.andWhere({ status: filters.status });
  if (filters.search) {
    const like = likePattern(filters.search);
    query.andWhere((q) =>
      q
        .whereRaw("lower(candidates.first_name || ' ' || candidates.last_name) like ? escape '\\'", [like])
        .orWhereRaw("candidates.email like ? escape '\\'", [like])
        .orWhereRaw("lower(candidates.title) like ? escape '\\'", [like]),
    );
  }
  if (afterEmail !== undefined) query.andWhere('email', '>', afterEmail);
  const rows = await query.orderBy('email').limit(limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function insertCandidate(db: Knex, row: CandidateRow): Promise<void> {
  await db('candidates').insert(row);
}

export async function updateCandidate(db: Knex, scope: CompanyScope, id: string, version: number, changes: Partial<CandidateRow>): Promise<boolean> {
  return writeAtVersion(() => candidatesOf(db, scope).where({ id }), version, changes);
}

export async function deleteCandidate(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await candidatesOf(db, scope).where({ id }).delete();
}
