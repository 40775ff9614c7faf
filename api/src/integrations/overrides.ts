import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { EMPLOYEE_FIELDS, type FieldName } from '../hris/fields.js';
import type { ColumnMapping } from '../hris/mapping.js';
import type { SourceTable } from '../kernel/files/table.js';
import { minorUnits } from '../money/minorUnits.js';
import { groupBy, inForce } from '../kernel/history.js';
import { type AppEdit as PeopleAppEdit, appEditsSince } from '../people/changes.js';
import { employeeNumbers } from '../people/importRows.js';

/*
 * Source of truth between a connected HR system and edits made in Paybench. The HR system owns the
 * people data, but when an admin corrects a field in Paybench the correction is recorded here
 * (recordAppEdit), and a sync that would overwrite it keeps Paybench's value instead and reports
 * the difference as a conflict on the sync. A correction stops being one when the system comes to
 * hold the same value (the sync that reads it clears it) or when the admin clears it.
 */

export type SyncConflict = components['schemas']['SyncConflict'];

export interface FieldOverrideRow {
  id: string;
  company_id: string;
  employee_id: string;
  field: string;
  value: string;
  set_by: string | null;
  set_at: string | Date;
}

/** Fields a correction in Paybench can hold: every employee field but the key. */
export const OVERRIDABLE_FIELDS: ReadonlySet<FieldName> = new Set(EMPLOYEE_FIELDS.map((definition) => definition.field).filter((field) => field !== 'employeeId'));

const FIELD_ORDER: readonly FieldName[] = EMPLOYEE_FIELDS.map((definition) => definition.field);

const PAY_FIELDS: ReadonlySet<FieldName> = new Set<FieldName>(['baseSalary', 'bonusTarget', 'bonusTargetPercent', 'variablePay', 'commission']);

export interface AppEdit {
  /** Paybench's id of the employee (employees.id). */
  employeeId: string;
  /** The people-import field edited (title, department, baseSalary…). */
  field: FieldName;
  /**
   * The new value as an import writes it: text, YYYY-MM-DD dates, codes as the import reads them,
   * amounts in major units of the employee's currency ("130000"); '' for empty.
   */
  value: string;
  /** Who made the edit (users.id). */
  setBy: string | null;
  at?: string;
}

/**
 * Records that an admin set a field in Paybench, so syncs from a connected HR system keep it. Call it
 * in the same transaction as the edit itself.
 */
export async function recordAppEdit(db: Knex, scope: CompanyScope, edit: AppEdit): Promise<void> {
  if (!OVERRIDABLE_FIELDS.has(edit.field)) throw new Error(`${edit.field} is not a people field a sync writes`);
  const row: FieldOverrideRow = { id: newId(), company_id: scope.companyId, employee_id: edit.employeeId, field: edit.field, value: edit.value, set_by: edit.setBy, set_at: edit.at ?? new Date().toISOString() };
  await db('people_field_overrides').insert(row).onConflict(['company_id', 'employee_id', 'field']).merge(['value', 'set_by', 'set_at']);
}

/** Lets syncs write the field again (the admin gives the field back to the HR system). */
export async function clearAppEdit(db: Knex, scope: CompanyScope, employeeId: string, field: FieldName): Promise<void> {
  await db('people_field_overrides').where({ company_id: scope.companyId, employee_id: employeeId, field }).delete();
}

/** Every kept value of the company, when an admin disconnects and asks for them to go: how many there were. */
export async function clearAllAppEdits(db: Knex, scope: CompanyScope): Promise<number> {
  return db('people_field_overrides').where({ company_id: scope.companyId }).delete();
}

/** The company's corrections by the employee's HR-system id, then by field. */
export async function overridesByEmployeeNumber(db: Knex, scope: CompanyScope): Promise<Map<string, Map<string, FieldOverrideRow>>> {
  const rows = await db<FieldOverrideRow>('people_field_overrides').where({ company_id: scope.companyId });
  const byNumber = new Map<string, Map<string, FieldOverrideRow>>();
  if (!rows.length) return byNumber;
  const numberOf = new Map([...(await employeeNumbers(db, scope))].map(([number, id]) => [id, number]));
  for (const row of rows) {
    const number = numberOf.get(row.employee_id);
    if (number === undefined) continue;
    const fields = byNumber.get(number) ?? new Map<string, FieldOverrideRow>();
    fields.set(row.field, row);
    byNumber.set(number, fields);
  }
  return byNumber;
}

/** Whether two cells say the same: the same text, or the same number written differently ("130,000.00" and "130000"). */
export function sameValue(a: string, b: string): boolean {
  const left = a.trim();
  const right = b.trim();
  if (left.toLowerCase() === right.toLowerCase()) return true;
  const number = (text: string): number | undefined => {
    const plain = text.replace(/[,\s]/g, '').replace(/%$/, '');
    return plain !== '' && /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : undefined;
  };
  const x = number(left);
  const y = number(right);
  return x !== undefined && y !== undefined && x === y;
}

export interface KeptValues {
  conflicts: SyncConflict[];
  /** Corrections the system now agrees with: cleared once the sync is applied. */
  agreed: string[];
}

/**
 * Puts Paybench's corrections into the sync's rows before they are checked: a cell that differs is
 * replaced by the corrected value and reported. A row whose pay is kept is read as pay in force
 * today, so the system's effective date cannot date a record before the correction.
 */
export function keepAppValues(table: SourceTable, mapping: ColumnMapping, overrides: Map<string, Map<string, FieldOverrideRow>>, today = new Date().toISOString().slice(0, 10)): KeptValues {
  const result: KeptValues = { conflicts: [], agreed: [] };
  const keyColumn = mapping.employeeId ? table.columns.indexOf(mapping.employeeId) : -1;
  if (keyColumn < 0 || overrides.size === 0) return result;
  const effectiveColumn = mapping.effectiveDate ? table.columns.indexOf(mapping.effectiveDate) : -1;
  for (const row of rowsInForce(table, keyColumn, effectiveColumn, today)) {
    const fields = overrides.get((row.values[keyColumn] ?? '').trim());
    if (!fields) continue;
    let payKept = false;
    for (const [field, override] of fields) {
      const column = mapping[field as FieldName];
      const index = column ? table.columns.indexOf(column) : -1;
      if (!column || index < 0) continue;
      const systemValue = row.values[index] ?? '';
      if (sameValue(systemValue, override.value)) {
        result.agreed.push(override.id);
        continue;
      }
      row.values[index] = override.value;
      if (PAY_FIELDS.has(field as FieldName)) payKept = true;
      result.conflicts.push({ line: row.line, employeeId: (row.values[keyColumn] ?? '').trim(), field: field as FieldName, column, appValue: override.value, systemValue, setAt: new Date(override.set_at).toISOString() });
    }
    if (payKept && effectiveColumn >= 0) row.values[effectiveColumn] = '';
  }
  // Row by row, and within a row in the order of the people fields.
  result.conflicts.sort((a, b) => a.line - b.line || FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field));
  return result;
}

/**
 * One row per employee: where the system sends an employee's pay history (a row per effective date),
 * the row in force today — undated, else the latest dated on or before today, else the first to
 * come — is the one a correction is compared with; past rows stay the system's history.
 */
function rowsInForce(table: SourceTable, keyColumn: number, effectiveColumn: number, today: string): SourceTable['rows'] {
  if (effectiveColumn < 0) return table.rows;
  const dateOf = (row: SourceTable['rows'][number]): string => (row.values[effectiveColumn] ?? '').trim();
  const chosen: SourceTable['rows'] = [];
  for (const rows of groupBy(table.rows, (row) => (row.values[keyColumn] ?? '').trim()).values()) {
    const row = rows.find((candidate) => dateOf(candidate) === '') ?? inForce(rows, dateOf, today);
    if (row) chosen.push(row);
  }
  return chosen;
}

/** Clears corrections the system has come to agree with. */
export async function clearAgreed(db: Knex, scope: CompanyScope, ids: string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 500) {
    await db('people_field_overrides').where({ company_id: scope.companyId }).whereIn('id', ids.slice(start, start + 500)).delete();
  }
}

/** The people-import field an employee-record correction in the editor is (by the change log's field names). */
const EMPLOYEE_FIELD_OF: Readonly<Record<string, FieldName>> = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  title: 'title',
  department: 'department',
  startDate: 'startDate',
  employmentType: 'employmentType',
  terminationDate: 'terminationDate',
  performanceRating: 'performanceRating',
  'leave.startDate': 'leaveStartDate',
  'leave.endDate': 'leaveEndDate',
  legalEntity: 'legalEntity',
  fte: 'fte',
  weeklyHours: 'weeklyHours',
};

/** The people-import field a corrected pay record's amount is, by the record's type. */
const PAY_FIELD_OF: Readonly<Record<string, FieldName>> = { base_salary: 'baseSalary', bonus_target: 'bonusTarget', variable_pay: 'variablePay', commission: 'commission' };

/** The field and value (as an import writes it) a change-log entry corrects, or undefined when a sync does not write it. */
function correctionOf(edit: PeopleAppEdit, minorUnitOf: (currency: string) => number): { field: FieldName; value: string } | undefined {
  const field = edit.entity === 'employee' ? EMPLOYEE_FIELD_OF[edit.field] : edit.entity === 'payRecord' && edit.field === 'amount' && edit.payType ? PAY_FIELD_OF[edit.payType] : undefined;
  if (!field) return undefined;
  const value = edit.value;
  if (value === null) return { field, value: '' };
  if (typeof value === 'object') {
    const digits = minorUnitOf(value.currency);
    return { field, value: (value.amount / 10 ** digits).toFixed(digits) };
  }
  return { field, value: String(value) };
}

/**
 * Makes the corrections admins made in Paybench's editor (the people change log, source "app") since
 * the connection's last applied sync, or since it was connected, into kept values, so this sync keeps
 * them and reports the difference instead of overwriting them. The latest correction of a field wins.
 */
export async function takeAppEdits(db: Knex, scope: CompanyScope, integration: { id: string; created_at: string | Date }): Promise<void> {
  const last = await db('people_import_runs')
    .where({ company_id: scope.companyId, integration_id: integration.id, status: 'applied', dry_run: false })
    .orderBy('created_at', 'desc')
    .first<{ started_at: string | Date | null; created_at: string | Date } | undefined>('started_at', 'created_at');
  const since = last?.started_at ?? last?.created_at ?? integration.created_at;
  const edits = await appEditsSince({ db, companyId: scope.companyId, since });
  if (!edits.length) return;
  const units = await minorUnits(db);
  for (const edit of edits) {
    const correction = correctionOf(edit, (currency) => units.of(currency));
    if (correction) await recordAppEdit(db, scope, { employeeId: edit.employeeId, ...correction, setBy: edit.changedBy, at: edit.changedAt });
  }
}
