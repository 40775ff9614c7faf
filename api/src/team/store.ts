import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { CompensationRecordRow, EquityGrantRow, EmployeeRow as PeopleEmployeeRow } from '../people/store.js';
import { type EmployeeReach, withinReach } from '../people/visibility.js';

/*
 * The team view reads the people tables (employees, compensation_records, equity_grants, the
 * company's share price) and never writes them; it writes only its own settings table.
 */

/** The columns the team view reads; the rows' shapes are the people store's. */
export type EmployeeRow = Pick<
  PeopleEmployeeRow,
  | 'id' | 'employee_number' | 'email' | 'first_name' | 'last_name' | 'title' | 'job_family_id' | 'level_id' | 'track'
  | 'manager_id' | 'department' | 'country_code' | 'location_id' | 'currency' | 'start_date' | 'employment_type'
  | 'status' | 'performance_rating' | 'demographics'
> & { manager_first_name: string | null; manager_last_name: string | null };

export type CompensationRow = Pick<
  CompensationRecordRow,
  'id' | 'employee_id' | 'type' | 'amount' | 'currency' | 'percent_of_base_bp' | 'effective_date' | 'reason' | 'source'
>;

export type GrantRow = Omit<EquityGrantRow, 'company_id' | 'version' | 'created_at' | 'updated_at'>;

export interface CompanyEquityRow {
  currency: string;
  share_price_micros: number;
  exercise_price_micros: number | null;
}

export interface TeamFilters {
  status: 'active' | 'terminated' | 'all';
  search?: string;
  department?: string[];
  level?: string[];
  location?: string[];
  jobFamily?: string[];
  country?: string[];
  manager?: string;
}

/** The id a filter uses for "has no value". */
export const NONE = 'none';

const EMPLOYEE_COLUMNS = [
  'e.id',
  'e.employee_number',
  'e.email',
  'e.first_name',
  'e.last_name',
  'e.title',
  'e.job_family_id',
  'e.level_id',
  'e.track',
  'e.manager_id',
  'm.first_name as manager_first_name',
  'm.last_name as manager_last_name',
  'm.company_id as manager_company_id',
  'e.department',
  'e.country_code',
  'e.location_id',
  'e.currency',
  'e.start_date',
  'e.employment_type',
  'e.status',
  'e.performance_rating',
  'e.demographics',
];

// Joined on the id alone (a second join column made Postgres pick a quadratic plan); a manager of
// another company, which bad data could name, is dropped in `sameCompanyManager`.
function employees(db: Knex, scope: CompanyScope): Knex.QueryBuilder {
  return db('employees as e').leftJoin('employees as m', 'm.id', 'e.manager_id').where('e.company_id', scope.companyId).select(EMPLOYEE_COLUMNS);
}

function sameCompanyManager(scope: CompanyScope) {
  return (row: EmployeeRow & { manager_company_id: string | null }): EmployeeRow => {
    const { manager_company_id: managerCompany, ...rest } = row;
    return managerCompany === scope.companyId ? rest : { ...rest, manager_id: null, manager_first_name: null, manager_last_name: null };
  };
}

/** The employees of a reach as a subquery; the whole company needs none. */
function reachFilter(db: Knex, scope: CompanyScope, reach: EmployeeReach, query: Knex.QueryBuilder): Knex.QueryBuilder {
  if (reach.kind === 'all') return query;
  return query.whereIn('employee_id', withinReach(db('employees').where('employees.company_id', scope.companyId).select('employees.id'), scope, reach));
}

/** A filter on a column that may be empty: `none` stands for NULL. */
function whereValues(query: Knex.QueryBuilder, column: string, values: string[] | undefined): void {
  if (!values?.length) return;
  const present = values.filter((value) => value !== NONE);
  const withNone = values.includes(NONE);
  query.where((inner) => {
    if (present.length) inner.orWhereIn(column, present);
    if (withNone) inner.orWhereNull(column);
  });
}

const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The employees in reach that match the filters, in no particular order. */
export async function employeesInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, filters: TeamFilters): Promise<EmployeeRow[]> {
  const query = withinReach(employees(db, scope), scope, reach, 'e');
  if (filters.status !== 'all') query.where('e.status', filters.status);
  whereValues(query, 'e.department', filters.department);
  whereValues(query, 'e.level_id', filters.level);
  whereValues(query, 'e.location_id', filters.location);
  whereValues(query, 'e.job_family_id', filters.jobFamily);
  whereValues(query, 'e.country_code', filters.country);
  if (filters.manager) query.where('e.manager_id', filters.manager);
  const search = filters.search?.trim();
  if (search) {
    const pattern = likePattern(search);
    query.where((inner) => {
      inner
        .whereRaw(`lower(e.first_name || ' ' || e.last_name) like ? escape '\\'`, [pattern])
        .orWhereRaw(`lower(coalesce(e.email, '')) like ? escape '\\'`, [pattern])
        .orWhereRaw(`lower(e.title) like ? escape '\\'`, [pattern])
        .orWhereRaw(`lower(e.employee_number) like ? escape '\\'`, [pattern]);
    });
  }
  return ((await query) as (EmployeeRow & { manager_company_id: string | null })[]).map(sameCompanyManager(scope));
}

/** One employee of the company within the reach, or nothing (another company's id included). */
export async function employeeInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, id: string): Promise<EmployeeRow | undefined> {
  const row = (await withinReach(employees(db, scope).where('e.id', id), scope, reach, 'e').first()) as (EmployeeRow & { manager_company_id: string | null }) | undefined;
  return row ? sameCompanyManager(scope)(row) : undefined;
}

/** The ids of the employees a reach covers (for intersecting two permissions' reaches). */
export async function idsInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach): Promise<Set<string>> {
  const rows = (await withinReach(db('employees').where('employees.company_id', scope.companyId).select('employees.id'), scope, reach)) as { id: string }[];
  return new Set(rows.map((row) => row.id));
}

export async function directReportCount(db: Knex, scope: CompanyScope, employeeId: string): Promise<number> {
  const row = await db('employees').where({ company_id: scope.companyId, manager_id: employeeId }).count<{ count: number | string }[]>({ count: '*' }).first();
  return Number(row?.count ?? 0);
}

const COMPENSATION_COLUMNS = ['id', 'employee_id', 'type', 'amount', 'currency', 'percent_of_base_bp', 'effective_date', 'reason', 'source'];
const normaliseCompensation = (row: CompensationRow): CompensationRow => ({
  ...row,
  amount: Number(row.amount),
  percent_of_base_bp: row.percent_of_base_bp === null ? null : Number(row.percent_of_base_bp),
});

/** Every compensation record up to a day of the employees in reach, oldest first. */
export async function compensationInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, onOrBefore: string): Promise<CompensationRow[]> {
  const rows = (await reachFilter(db, scope, reach, db('compensation_records').where('company_id', scope.companyId))
    .where('effective_date', '<=', onOrBefore)
    .select(COMPENSATION_COLUMNS)
    .orderBy([{ column: 'effective_date' }, { column: 'id' }])) as CompensationRow[];
  return rows.map(normaliseCompensation);
}

/** One employee's whole history, oldest first (including changes dated in the future). */
export async function compensationOf(db: Knex, scope: CompanyScope, employeeId: string): Promise<CompensationRow[]> {
  const rows = (await db('compensation_records')
    .where({ company_id: scope.companyId, employee_id: employeeId })
    .select(COMPENSATION_COLUMNS)
    .orderBy([{ column: 'effective_date' }, { column: 'type' }, { column: 'id' }])) as CompensationRow[];
  return rows.map(normaliseCompensation);
}

const GRANT_COLUMNS = [
  'id',
  'employee_id',
  'grant_number',
  'grant_type',
  'reason',
  'shares',
  'exercise_price',
  'currency',
  'grant_date',
  'vesting_start_date',
  'vesting_months',
  'cliff_months',
  'vesting_frequency',
  'source',
];
const normaliseGrant = (row: GrantRow): GrantRow => ({
  ...row,
  shares: Number(row.shares),
  exercise_price: row.exercise_price === null ? null : Number(row.exercise_price),
  vesting_months: Number(row.vesting_months),
  cliff_months: Number(row.cliff_months),
});

export async function grantsInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach): Promise<GrantRow[]> {
  const rows = (await reachFilter(db, scope, reach, db('equity_grants').where('company_id', scope.companyId))
    .select(GRANT_COLUMNS)
    .orderBy([{ column: 'grant_date' }, { column: 'id' }])) as GrantRow[];
  return rows.map(normaliseGrant);
}

export async function grantsOf(db: Knex, scope: CompanyScope, employeeId: string): Promise<GrantRow[]> {
  const rows = (await db('equity_grants')
    .where({ company_id: scope.companyId, employee_id: employeeId })
    .select(GRANT_COLUMNS)
    .orderBy([{ column: 'grant_date' }, { column: 'id' }])) as GrantRow[];
  return rows.map(normaliseGrant);
}

export async function companyEquity(db: Knex, scope: CompanyScope): Promise<CompanyEquityRow | undefined> {
  const row = (await db('companies').where({ id: scope.companyId }).first('currency', 'share_price_micros', 'exercise_price_micros')) as
    | CompanyEquityRow
    | undefined;
  if (!row) return undefined;
  return {
    currency: row.currency,
    share_price_micros: Number(row.share_price_micros),
    exercise_price_micros: row.exercise_price_micros === null ? null : Number(row.exercise_price_micros),
  };
}

// ── team-view settings (the one table the team view writes) ────────────────────────────────

export interface SettingsRow {
  id: string;
  company_id: string;
  owner_key: string;
  user_id: string | null;
  columns: string | null;
  comp_timeline: string | null;
  equity_details: string | null;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export const COMPANY_OWNER = 'company';

export async function findSettingsRow(db: Knex, scope: CompanyScope, ownerKey: string): Promise<SettingsRow | undefined> {
  const row = (await db('team_view_settings').where({ company_id: scope.companyId, owner_key: ownerKey }).first()) as SettingsRow | undefined;
  return row ? { ...row, version: Number(row.version) } : undefined;
}

export async function insertSettingsRow(db: Knex, row: SettingsRow): Promise<void> {
  await db('team_view_settings').insert(row);
}

/** Writes only when the stored version is still the one read; returns whether it did. */
export async function updateSettingsRow(
  db: Knex,
  scope: CompanyScope,
  ownerKey: string,
  version: number,
  changes: Partial<Pick<SettingsRow, 'columns' | 'comp_timeline' | 'equity_details'>> & Pick<SettingsRow, 'updated_by' | 'updated_at'>,
): Promise<boolean> {
  const updated = await db('team_view_settings')
    .where({ company_id: scope.companyId, owner_key: ownerKey, version })
    .update({ ...changes, version: version + 1 });
  return updated === 1;
}
