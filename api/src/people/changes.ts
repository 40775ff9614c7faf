import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { notFound } from '../kernel/errors.js';
import { findJobFamily, findLevel, findLocation } from '../reference/catalog/index.js';
import { readAccess } from './access.js';
import { parseDemographics } from './present.js';
import { type CompensationRecordRow, type EmployeeRow, type EquityGrantRow, contractOf, findEmployeeWithin } from './store.js';
import { isWithinReach } from './visibility.js';
import type { ServiceContext } from '../kernel/operations.js';

// The change log of people records: one row per field changed on an employee, a pay record or an
// equity grant — who changed it, when, from what to what, and where the change came from. The edit
// services write it in the same transaction as the change; `listChanges` reads it for the history
// screen; `appEditsSince` tells a sync which fields were corrected in the app since its last run.

type PeopleChange = components['schemas']['PeopleChange'];
export type ChangeEntity = components['schemas']['PeopleChangeEntity'];
export type ChangeSource = PeopleChange['source'];

/** A JSON value as the API writes it: a string, a number, a Money object or null. */
export type ChangeValue = string | number | boolean | { amount: number; currency: string } | null;

export interface FieldChange {
  field: string;
  from: ChangeValue;
  to: ChangeValue;
}

interface PeopleChangeRow {
  id: string;
  company_id: string;
  employee_id: string;
  entity: ChangeEntity;
  entity_id: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_by: string | null;
  changed_at: string | Date;
  source: ChangeSource;
}

const same = (a: ChangeValue, b: ChangeValue): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The fields whose value differs between two views of one record (missing counts as null). */
export function diffFields(before: Record<string, ChangeValue>, after: Record<string, ChangeValue>): FieldChange[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.flatMap((field) => {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    return same(from, to) ? [] : [{ field, from, to }];
  });
}

/** What the change log records of an employee's record, by the API's field names. */
export function employeeFields(row: EmployeeRow): Record<string, ChangeValue> {
  const demographics = Object.fromEntries(
    Object.entries(parseDemographics(row.demographics) as Record<string, unknown>).map(([key, value]) => [`demographics.${key}`, (value ?? null) as ChangeValue]),
  );
  return {
    employeeNumber: row.employee_number,
    userId: row.user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    title: row.title,
    companyJobId: row.company_job_id,
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    track: row.track,
    managerId: row.manager_id,
    department: row.department,
    countryCode: row.country_code,
    locationId: row.location_id,
    currency: row.currency,
    startDate: row.start_date,
    employmentType: row.employment_type,
    status: row.status,
    terminationDate: row.termination_date,
    performanceRating: row.performance_rating,
    'leave.startDate': row.leave_start_date ?? null,
    'leave.endDate': row.leave_end_date ?? null,
    ...contractOf(row),
    ...demographics,
  };
}

/** What the change log records of a pay record. */
export function payRecordFields(row: CompensationRecordRow): Record<string, ChangeValue> {
  return {
    type: row.type,
    amount: { amount: Number(row.amount), currency: row.currency },
    percentOfBase: row.percent_of_base_bp === null ? null : Number(row.percent_of_base_bp) / 100,
    effectiveDate: row.effective_date,
    reason: row.reason,
  };
}

/** What the change log records of an equity grant. */
export function grantFields(row: EquityGrantRow): Record<string, ChangeValue> {
  return {
    grantNumber: row.grant_number,
    grantType: row.grant_type,
    reason: row.reason,
    shares: Number(row.shares),
    exercisePrice: row.exercise_price === null ? null : { amount: Number(row.exercise_price), currency: row.currency },
    grantDate: row.grant_date,
    vestingStartDate: row.vesting_start_date,
    vestingMonths: Number(row.vesting_months),
    cliffMonths: Number(row.cliff_months),
    vestingFrequency: row.vesting_frequency,
  };
}

export interface ChangeWrite {
  companyId: string;
  employeeId: string;
  entity: ChangeEntity;
  entityId: string;
  changes: FieldChange[];
  /** The user who made the change; null for the system. */
  changedBy: string | null;
  source?: ChangeSource;
  at?: string;
}

/** Writes the changed fields (call it in the transaction of the change itself). */
export async function recordChanges(db: Knex, write: ChangeWrite): Promise<void> {
  if (!write.changes.length) return;
  const at = write.at ?? new Date().toISOString();
  const rows: PeopleChangeRow[] = write.changes.map((change) => ({
    id: newId(),
    company_id: write.companyId,
    employee_id: write.employeeId,
    entity: write.entity,
    entity_id: write.entityId,
    field: change.field,
    old_value: change.from === null ? null : JSON.stringify(change.from),
    new_value: change.to === null ? null : JSON.stringify(change.to),
    changed_by: write.changedBy,
    changed_at: at,
    source: write.source ?? 'app',
  }));
  await db.batchInsert('people_changes', rows, 200);
}

// ── for the HRIS sync ────────────────────────────────────────────────────────────────────

export interface AppEdit {
  employeeId: string;
  entity: ChangeEntity;
  entityId: string;
  field: string;
  /** The value the app edit left. */
  value: ChangeValue;
  changedBy: string | null;
  changedAt: string;
  /** A pay record's type (base_salary, bonus_target…), when the record is still there. */
  payType?: string;
}

const isoOf = (value: string | Date): string => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());
const parsed = (text: string | null): ChangeValue => (text === null ? null : (JSON.parse(text) as ChangeValue));

/**
 * The fields edited in the app (not by an import or a sync) after `since`, oldest first: what a
 * sync must not silently overwrite. Narrow it with `employeeId`, `entity` and `field`; the latest
 * edit of a field is last.
 */
export async function appEditsSince({
  db,
  companyId,
  since,
  employeeId,
  entity,
  field,
}: {
  db: Knex;
  companyId: string;
  since: string | Date;
  employeeId?: string;
  entity?: ChangeEntity;
  field?: string;
}): Promise<AppEdit[]> {
  const query = db<PeopleChangeRow>('people_changes').where({ company_id: companyId, source: 'app' }).andWhere('changed_at', '>', isoOf(since));
  if (employeeId) query.andWhere({ employee_id: employeeId });
  if (entity) query.andWhere({ entity });
  if (field) query.andWhere({ field });
  const rows = await query.orderBy([{ column: 'changed_at' }, { column: 'id' }]);
  const payIds = [...new Set(rows.filter((row) => row.entity === 'payRecord').map((row) => row.entity_id))];
  const payTypes = new Map<string, string>();
  for (let start = 0; start < payIds.length; start += 500) {
    const records = await db('compensation_records').where({ company_id: companyId }).whereIn('id', payIds.slice(start, start + 500)).select<{ id: string; type: string }[]>('id', 'type');
    for (const record of records) payTypes.set(record.id, record.type);
  }
  return rows.map((row) => ({
    ...(payTypes.has(row.entity_id) ? { payType: payTypes.get(row.entity_id) } : {}),
    employeeId: row.employee_id,
    entity: row.entity,
    entityId: row.entity_id,
    field: row.field,
    value: parsed(row.new_value),
    changedBy: row.changed_by,
    changedAt: isoOf(row.changed_at),
  }));
}

/** Whether this field of this employee's record was edited in the app after `since`. */
export async function editedInAppSince(args: { db: Knex; companyId: string; employeeId: string; field: string; since: string | Date; entity?: ChangeEntity }): Promise<boolean> {
  return (await appEditsSince({ entity: 'employee', ...args })).length > 0;
}

// ── the history screen ───────────────────────────────────────────────────────────────────

/** Changes only a caller who may see the employee's pay may read. */
const isPay = (row: Pick<PeopleChangeRow, 'entity' | 'field'>): boolean => row.entity !== 'employee' || row.field === 'performanceRating';
const isDemographic = (row: Pick<PeopleChangeRow, 'field'>): boolean => row.field.startsWith('demographics.');

/** Ids in words: a manager's name, a company job's title, the catalog's names. */
async function labeller(db: Knex, scope: CompanyScope, rows: PeopleChangeRow[]): Promise<(field: string, value: ChangeValue) => string | null> {
  const ids = (field: string) => rows.filter((row) => row.field === field).flatMap((row) => [parsed(row.old_value), parsed(row.new_value)]).filter((v): v is string => typeof v === 'string');
  const managers = ids('managerId');
  const jobs = ids('companyJobId');
  const names = new Map<string, string>();
  if (managers.length) {
    const found = (await db('employees').where({ company_id: scope.companyId }).whereIn('id', [...new Set(managers)]).select('id', 'first_name', 'last_name')) as Pick<EmployeeRow, 'id' | 'first_name' | 'last_name'>[];
    for (const row of found) names.set(`managerId:${row.id}`, `${row.first_name} ${row.last_name}`.trim());
  }
  if (jobs.length) {
    const found = (await db('band_company_jobs').where({ company_id: scope.companyId }).whereIn('id', [...new Set(jobs)]).select('id', 'title')) as { id: string; title: string }[];
    for (const row of found) names.set(`companyJobId:${row.id}`, row.title);
  }
  return (field, value) => {
    if (typeof value !== 'string') return null;
    if (field === 'managerId' || field === 'companyJobId') return names.get(`${field}:${value}`) ?? null;
    if (field === 'levelId') return findLevel(value)?.title ?? null;
    if (field === 'jobFamilyId') return findJobFamily(value)?.name ?? null;
    if (field === 'locationId') return findLocation(value)?.paybenchLocationName ?? null;
    return null;
  };
}

async function userNames(db: Knex, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = (await db('users').whereIn('id', [...new Set(ids)]).select('id', 'first_name', 'last_name', 'email')) as { id: string; first_name: string; last_name: string; email: string }[];
  return new Map(rows.map((row) => [row.id, `${row.first_name} ${row.last_name}`.trim() || row.email]));
}

/**
 * An employee's change log as this caller may read it, newest first: 404 outside their team reach;
 * pay changes only within their pay reach, demographics only with that permission.
 */
export async function listChanges(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, query: { entity?: ChangeEntity; limit?: number }): Promise<PeopleChange[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const access = await readAccess(db, scope, caller);
  if (!(await findEmployeeWithin(db, scope, access.team, employeeId))) throw notFound();
  const seesPay = await isWithinReach(db, scope, access.pay, employeeId);
  const rows = db<PeopleChangeRow>('people_changes').where({ company_id: scope.companyId, employee_id: employeeId });
  if (query.entity) rows.andWhere({ entity: query.entity });
  if (!seesPay) rows.andWhere({ entity: 'employee' }).andWhereNot({ field: 'performanceRating' });
  if (!access.demographics) rows.andWhereNot('field', 'like', 'demographics.%');
  const found = (await rows.orderBy([{ column: 'changed_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(query.limit ?? 200)).filter(
    (row) => (seesPay || !isPay(row)) && (access.demographics || !isDemographic(row)),
  );
  const label = await labeller(db, scope, found);
  const users = await userNames(db, found.flatMap((row) => (row.changed_by ? [row.changed_by] : [])));
  return found.map((row) => {
    const oldValue = parsed(row.old_value);
    const newValue = parsed(row.new_value);
    return {
      id: row.id,
      employeeId: row.employee_id,
      entity: row.entity,
      entityId: row.entity_id,
      field: row.field,
      oldValue,
      newValue,
      oldLabel: label(row.field, oldValue),
      newLabel: label(row.field, newValue),
      changedBy: row.changed_by ? { userId: row.changed_by, name: users.get(row.changed_by) ?? 'A former user' } : null,
      changedAt: isoOf(row.changed_at),
      source: row.source,
    };
  });
}
