import type { Knex } from 'knex';
import { type CompanyScope, rowsOfCompany } from '../access/caller.js';
import { chunks } from '../kernel/importPlan.js';
import type { CompensationRecordRow, EquityGrantRow, EmployeeRow as PeopleEmployeeRow } from '../people/store.js';
import { type EmployeeReach, withinReach } from '../people/visibility.js';
import { inForceSql, valueInForceSql } from '../people/reads/payInForce.js';
import { STARTING, type StatusFilter, whereStatus } from '../people/reads/status.js';

/*
 * The team view's reads of the people tables (employees, compensation_records, equity_grants, the
 * company's share price): its table, filters and sorting in SQL. The team view never writes them.
 */

/** The columns the team view reads; the rows' shapes are the people store's. */
export type EmployeeRow = Pick<
  PeopleEmployeeRow,
  | 'id' | 'employee_number' | 'email' | 'first_name' | 'last_name' | 'title' | 'job_code' | 'job_family_id' | 'level_id' | 'track'
  | 'manager_id' | 'department' | 'country_code' | 'location_id' | 'currency' | 'start_date' | 'employment_type'
  | 'status' | 'termination_date' | 'performance_rating' | 'demographics'
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
  status: StatusFilter;
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
  'e.job_code',
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
  'e.termination_date',
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

/** Narrows a query on `employees as e` to the filters. */
function applyFilters(query: Knex.QueryBuilder, filters: TeamFilters): Knex.QueryBuilder {
  whereStatus(query, 'e.status', filters.status);
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
  return query;
}

/** The employees in reach that match the filters, in no particular order. */
export async function employeesInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, filters: TeamFilters): Promise<EmployeeRow[]> {
  const query = applyFilters(withinReach(employees(db, scope), scope, reach, 'e'), filters);
  return ((await query) as (EmployeeRow & { manager_company_id: string | null })[]).map(sameCompanyManager(scope));
}

/** One employee of the company within the reach, or nothing (another company's id included). */
export async function employeeInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, id: string): Promise<EmployeeRow | undefined> {
  const row = (await withinReach(employees(db, scope).where('e.id', id), scope, reach, 'e').first()) as (EmployeeRow & { manager_company_id: string | null }) | undefined;
  return row ? sameCompanyManager(scope)(row) : undefined;
}

/** The ids of the employees a reach covers (for intersecting two permissions' reaches), optionally only among some. */
export async function idsInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, among?: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of among ? chunks(among) : [undefined]) {
    const query = withinReach(db('employees').where('employees.company_id', scope.companyId).select('employees.id'), scope, reach);
    if (part) query.whereIn('employees.id', part);
    for (const row of (await query) as { id: string }[]) out.add(row.id);
  }
  return out;
}

/** The employees with these ids (of the company), in no particular order. */
export async function employeesByIds(db: Knex, scope: CompanyScope, ids: string[]): Promise<EmployeeRow[]> {
  const out: EmployeeRow[] = [];
  for (const part of chunks(ids)) {
    const rows = (await db('employees as e')
      .leftJoin('employees as m', 'm.id', 'e.manager_id')
      .whereIn('e.id', part)
      .select([...EMPLOYEE_COLUMNS, 'e.company_id as company_id'])) as (EmployeeRow & { manager_company_id: string | null; company_id: string })[];
    for (const row of rowsOfCompany(scope, rows)) out.push(sameCompanyManager(scope)(row));
  }
  return out;
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

/** Orders rows by a date, then by id: the order the reach-wide readers ask the database for. */
function oldestFirst<T extends { id: string }>(dateOf: (row: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const [x, y] = [dateOf(a), dateOf(b)];
    return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** The compensation records up to a day of these employees, oldest first. */
export async function compensationOfEmployees(db: Knex, scope: CompanyScope, ids: string[], onOrBefore: string): Promise<CompensationRow[]> {
  const out: CompensationRow[] = [];
  for (const part of chunks(ids)) {
    const rows = (await db('compensation_records')
      .whereIn('employee_id', part)
      .where('effective_date', '<=', onOrBefore)
      .select([...COMPENSATION_COLUMNS, 'company_id'])) as (CompensationRow & { company_id: string })[];
    for (const row of rowsOfCompany(scope, rows)) out.push(normaliseCompensation(row));
  }
  return out.sort(oldestFirst((row) => row.effective_date));
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

/** The grants of these employees, oldest first. */
export async function grantsOfEmployees(db: Knex, scope: CompanyScope, ids: string[]): Promise<GrantRow[]> {
  const out: GrantRow[] = [];
  for (const part of chunks(ids)) {
    const rows = (await db('equity_grants').where('company_id', scope.companyId).whereIn('employee_id', part).select(GRANT_COLUMNS)) as GrantRow[];
    out.push(...rows.map(normaliseGrant));
  }
  return out.sort(oldestFirst((row) => row.grant_date));
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

// ── the table: filtered, sorted and paged by the database ───────────────────────────────────

/** Text columns, compared case-insensitively. */
export type TextSortField = 'name' | 'employee_number' | 'email' | 'title' | 'department' | 'track' | 'country_code' | 'manager' | 'employment_type' | 'status';

/** Record types summed for a money column, in force on `day`. */
export type PayRecordType = 'base_salary' | 'bonus_target' | 'variable_pay' | 'commission';

/**
 * What a table column sorts by. The service works out what only it knows (catalog names as ranks,
 * conversion factors into the company currency, market medians); the SQL is built here. Pay keys
 * are empty (last) on rows outside the caller's pay reach.
 */
export type TableSortKey =
  | { kind: 'text'; field: TextSortField }
  | { kind: 'startDate' }
  | { kind: 'rank'; field: 'job_family_id' | 'level_id' | 'location_id'; ranks: Map<string, number> }
  | { kind: 'rating' }
  /** `factors`: currency → minor units of the company currency per minor unit. */
  | { kind: 'money'; types: PayRecordType[]; day: string; factors: Map<string, number> }
  | { kind: 'lastRaise'; day: string }
  | { kind: 'grantedShares' }
  /** `cells`: family|level|location → the cell's currency and 1 ÷ its p50; `rates`: 'FROM>TO' → factor. */
  | { kind: 'compaRatio'; day: string; cells: Map<string, { currency: string; perMinorUnit: number }>; rates: Map<string, number> };

export interface TableReach {
  records: EmployeeReach;
  pay: EmployeeReach;
}

export interface OrderedId {
  id: string;
  /** Whether the caller's pay reach covers the employee. */
  inPay: boolean;
  /** What vesting needs to know of them: it stops when they leave. */
  holder: { status: string; termination_date: string | null };
}

// Text sorts like the browser's `localeCompare` where the database can: Postgres with ICU's root
// collation (when the server has ICU), SQLite by code point after case-folding ASCII.
const collations = new WeakMap<object, Promise<string | null>>();
function textCollation(db: Knex): Promise<string | null> {
  if (db.client.config.client !== 'pg') return Promise.resolve(null);
  const key = db.client.config as object;
  let found = collations.get(key);
  if (!found) {
    found = db('pg_collation')
      .where('collname', 'und-x-icu')
      .first('collname')
      .then((row: unknown) => (row ? 'und-x-icu' : null))
      .catch(() => null);
    collations.set(key, found);
  }
  return found;
}

/** A number the service computed, written into SQL as a literal (never text from a request). */
function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}

function matching(db: Knex, scope: CompanyScope, reach: EmployeeReach, filters: TeamFilters): Knex.QueryBuilder {
  return applyFilters(withinReach(db('employees as e').where('e.company_id', scope.companyId), scope, reach, 'e'), filters);
}

/** How many employees in reach match the filters. */
export async function countMatching(db: Knex, scope: CompanyScope, reach: EmployeeReach, filters: TeamFilters): Promise<number> {
  const row = (await matching(db, scope, reach, filters).count({ count: '*' }).first()) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
}

/** The distinct values of a catalog column among the matching employees (to rank their names). */
export async function distinctValues(db: Knex, scope: CompanyScope, reach: EmployeeReach, filters: TeamFilters, field: 'job_family_id' | 'level_id' | 'location_id'): Promise<string[]> {
  const rows = (await matching(db, scope, reach, filters).whereNotNull(`e.${field}`).distinct(`e.${field} as value`)) as { value: string }[];
  return rows.map((row) => row.value);
}

/** The currencies of the company's pay records of these types (to convert them for sorting). */
export async function payCurrencies(db: Knex, scope: CompanyScope, types: PayRecordType[]): Promise<string[]> {
  const rows = (await db('compensation_records').where('company_id', scope.companyId).whereIn('type', types).distinct('currency')) as { currency: string }[];
  return rows.map((row) => row.currency);
}

// Pay in force is read per employee through the unique (employee_id, type, effective_date) index;
// naming company_id there as well lets SQLite pick the company-wide index instead, one scan per row.

/** The currency of the base salary in force on the day (SQL, bound to `e`). */
const BASE_CURRENCY = valueInForceSql('c.currency', 'e.id', "'base_salary'");

/** The family × level × location cells and base currencies of the matching employees with a base in force. */
export async function baseCells(
  db: Knex,
  scope: CompanyScope,
  reach: EmployeeReach,
  filters: TeamFilters,
  day: string,
): Promise<{ job_family_id: string; level_id: string; location_id: string; currency: string }[]> {
  const query = matching(db, scope, reach, filters).whereNotNull('e.job_family_id').whereNotNull('e.level_id').whereNotNull('e.location_id');
  const rows = (await query.distinct('e.job_family_id', 'e.level_id', 'e.location_id', db.raw(`${BASE_CURRENCY} as currency`, [day]))) as {
    job_family_id: string;
    level_id: string;
    location_id: string;
    currency: string | null;
  }[];
  return rows.flatMap((row) => (row.currency ? [{ ...row, currency: row.currency }] : []));
}

/** A constant table left-joined as `alias` on `on`; its values are `alias.column2`, `alias.column3`… */
function joinConstants(query: Knex.QueryBuilder, alias: string, entries: [string, ...(string | number)[]][], on: string): void {
  const bindings: string[] = [];
  const tuples = entries.map(([key, ...values]) => {
    bindings.push(key);
    const literals = values.map((value) => {
      if (typeof value === 'number') return sqlNumber(value);
      bindings.push(value);
      return '?';
    });
    return `(?, ${literals.join(', ')})`;
  });
  query.joinRaw(`left join (values ${tuples.join(', ')}) ${alias} on ${alias}.column1 = ${on}`, bindings);
}

/** `factor` chosen by `on` from the per-key factors; empty for a key without one. */
function factorOf(on: string, factors: Map<string, number>): { sql: string; bindings: string[] } {
  if (!factors.size) return { sql: 'null', bindings: [] };
  const arms = [...factors].map(([, factor]) => `when ? then ${sqlNumber(factor)}`).join(' ');
  return { sql: `(case ${on} ${arms} end)`, bindings: [...factors.keys()] };
}

/**
 * The name as the table sorts it, before folding; the index `employees_company_name_key` (its
 * migration) is built on exactly this expression, folded the same way, so the default order is read
 * from it.
 */
const NAME_KEY = `trim(e.first_name || ' ' || e.last_name)`;

const TEXT_SQL: Record<TextSortField, string> = {
  name: NAME_KEY,
  employee_number: 'e.employee_number',
  email: 'e.email',
  title: 'e.title',
  department: 'e.department',
  track: 'e.track',
  country_code: 'e.country_code',
  manager: `case when m.company_id = e.company_id then coalesce(nullif(trim(m.first_name || ' ' || m.last_name), ''), 'Unknown') end`,
  employment_type: `case when e.employment_type in ('full_time', 'part_time', 'contractor', 'intern') then e.employment_type else 'full_time' end`,
  status: `case when e.status = 'terminated' then 'terminated' else 'active' end`,
};

/** The key's SQL (joining what it needs) and its bindings. */
function keySql(query: Knex.QueryBuilder, key: TableSortKey, folded: (sql: string) => string): { sql: string; bindings: Knex.RawBinding[] } {
  switch (key.kind) {
    case 'text':
      if (key.field === 'manager') query.leftJoin('employees as m', 'm.id', 'e.manager_id');
      return { sql: folded(TEXT_SQL[key.field]), bindings: [] };
    case 'startDate':
      return { sql: 'e.start_date', bindings: [] };
    case 'rating':
      return { sql: folded('e.performance_rating'), bindings: [] };
    case 'rank': {
      if (!key.ranks.size) return { sql: 'null', bindings: [] };
      joinConstants(query, 'rk', [...key.ranks], `e.${key.field}`);
      return { sql: 'rk.column2', bindings: [] };
    }
    case 'money': {
      const factor = factorOf('c.currency', key.factors);
      const [only] = key.types;
      if (key.types.length === 1 && only) {
        return {
          sql: valueInForceSql(`round(c.amount * ${factor.sql})`, 'e.id', '?'),
          bindings: [...factor.bindings, only, key.day],
        };
      }
      // The sum of the kinds of pay in force, each converted; none at all is empty, not zero.
      return {
        sql: `(select case when count(*) = 0 then null else sum(round(c.amount * ${factor.sql})) end from compensation_records c
               where c.employee_id = e.id and c.type in (${key.types.map(() => '?').join(', ')}) and ${inForceSql('c')})`,
        bindings: [...factor.bindings, ...key.types, key.day],
      };
    }
    case 'lastRaise':
      // The day of the latest base salary above the one before it, in the same currency.
      return {
        sql: `(select max(c.effective_date) from compensation_records c join compensation_records p on p.employee_id = c.employee_id and p.type = c.type
                and p.effective_date = (select max(q.effective_date) from compensation_records q where q.employee_id = c.employee_id and q.type = c.type and q.effective_date < c.effective_date)
              where c.employee_id = e.id and c.type = 'base_salary' and c.effective_date <= ? and p.currency = c.currency and c.amount > p.amount)`,
        bindings: [key.day],
      };
    case 'grantedShares':
      return { sql: '(select coalesce(sum(g.shares), 0) from equity_grants g where g.employee_id = e.id and g.company_id = e.company_id)', bindings: [] };
    case 'compaRatio': {
      if (!key.cells.size) return { sql: 'null', bindings: [] };
      // The cell gives its currency and 1 / p50; the base is converted into the cell's currency.
      joinConstants(query, 'cf', [...key.cells].map(([cell, value]) => [cell, value.currency, value.perMinorUnit] as [string, string, number]), `e.job_family_id || '|' || e.level_id || '|' || e.location_id`);
      const factor = factorOf(`c.currency || '>' || cf.column2`, key.rates);
      return {
        sql: `${valueInForceSql(`c.amount * ${factor.sql}`, 'e.id', "'base_salary'")} * cf.column3`,
        bindings: [...factor.bindings, key.day],
      };
    }
  }
}

const PAY_KEYS: ReadonlySet<TableSortKey['kind']> = new Set(['rating', 'money', 'lastRaise', 'grantedShares', 'compaRatio']);

/**
 * The ids of the matching employees in table order — the key (empty last, either way), then the
 * name, then the id; without a key by name, then id — one window of them, or all when `window` is null.
 */
export async function orderedIds(
  db: Knex,
  scope: CompanyScope,
  reach: TableReach,
  filters: TeamFilters,
  view: { sort: { key: TableSortKey | null; order: 'asc' | 'desc' }; window: { offset: number; limit: number } | null },
): Promise<OrderedId[]> {
  const { sort, window } = view;
  const collation = await textCollation(db);
  const folded = (sql: string): string => (collation ? `lower((${sql}) collate "${collation}")` : `lower(${sql})`);
  const inner = matching(db, scope, reach.records, filters);
  let inPay = '1';
  if (reach.pay.kind === 'none') inPay = '0';
  else if (reach.pay.kind !== reach.records.kind) {
    const payReach = withinReach(db('employees as pe').where('pe.company_id', scope.companyId).select('pe.id'), scope, reach.pay, 'pe');
    inner.leftJoin(payReach.as('pr'), 'pr.id', 'e.id');
    inPay = 'case when pr.id is null then 0 else 1 end';
  }
  const columns: Knex.Raw[] = [db.raw('e.id as id'), db.raw('e.status as status'), db.raw('e.termination_date as termination_date'), db.raw(`${inPay} as in_pay`), db.raw(`${folded(NAME_KEY)} as name_key`)];
  if (sort.key) {
    const key = keySql(inner, sort.key, folded);
    const gated = PAY_KEYS.has(sort.key.kind) && inPay !== '1' ? `case when ${inPay} = 1 then ${key.sql} end` : key.sql;
    columns.push(db.raw(`${gated} as sort_key`, key.bindings));
  }
  inner.select(columns);
  const direction = sort.order === 'desc' ? 'desc' : 'asc';
  const outer = db.select('t.id', 't.in_pay', 't.status', 't.termination_date').from(inner.as('t'));
  // By name (no key) the ascending order is the name index's own. Empty keys last by NULLS LAST, not
  // by a second term on the key: SQLite flattens the subquery and would work the key out twice a row.
  outer.orderByRaw(sort.key ? `t.sort_key ${direction} nulls last, t.name_key, t.id` : `t.name_key ${direction}, t.id`);
  if (window) outer.limit(window.limit).offset(window.offset);
  const rows = (await outer) as { id: string; in_pay: number | string | boolean; status: string; termination_date: string | null }[];
  return rows.map((row) => ({ id: row.id, inPay: Number(row.in_pay) === 1, holder: { status: row.status, termination_date: row.termination_date } }));
}

// ── team-view settings (the one table the team view writes) ────────────────────────────────

export interface StartingRow {
  id: string;
  first_name: string;
  last_name: string;
  title: string;
  department: string | null;
  start_date: string;
  employee_number: string;
  manager_id: string | null;
  manager_first_name: string | null;
  manager_last_name: string | null;
}

/** Future hires in reach (status `starting`), soonest first, with their manager's name. */
export async function startingInReach(db: Knex, scope: CompanyScope, reach: EmployeeReach): Promise<StartingRow[]> {
  const query = withinReach(db('employees as e').where('e.company_id', scope.companyId).andWhere('e.status', STARTING), scope, reach, 'e')
    .leftJoin('employees as m', (join) => join.on('m.id', '=', 'e.manager_id').andOn('m.company_id', '=', 'e.company_id'))
    .orderBy([{ column: 'e.start_date' }, { column: 'e.last_name' }, { column: 'e.first_name' }, { column: 'e.id' }])
    .select('e.id', 'e.first_name', 'e.last_name', 'e.title', 'e.department', 'e.start_date', 'e.employee_number', 'e.manager_id', 'm.first_name as manager_first_name', 'm.last_name as manager_last_name');
  return (await query) as StartingRow[];
}
