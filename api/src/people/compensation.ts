import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import type { Authority } from '../access/permissions.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, type FieldError, notFound } from '../kernel/errors.js';
import { throwIfInvalid, today } from './access.js';
import { versionConflict, versionOf } from '../kernel/versions.js';
import { presentCurrent, presentRecord } from './present.js';
import {
  type CompensationRecordRow,
  type EmployeeRow,
  type PayComponentType,
  currentRecords,
  deleteRecord,
  employeeRecords,
  findEmployeeWithin,
  findRecord,
  findRecordOn,
  insertRecords,
  updateRecord,
} from './store.js';
import { basisPoints, checkAmount, checkCurrency } from './validation.js';
import { employeeReach } from './visibility.js';
import { diffFields, payRecordFields, recordChanges } from './changes.js';
import type { ServiceContext } from '../kernel/operations.js';

type CompensationRecord = components['schemas']['CompensationRecord'];

const TYPE_NAMES: Record<PayComponentType, string> = {
  base_salary: 'base salary',
  bonus_target: 'bonus target',
  variable_pay: 'variable pay',
  commission: 'commission',
  benefits: 'benefits',
  one_off_bonus: 'one-off bonus',
};

/**
 * An employee whose pay the caller may read (or change, with `edit`): 404 outside their
 * `employeeCompensation` reach, exactly as for another company's employee.
 */
export async function payEmployee(db: Knex, caller: Caller, employeeId: string, authority: Authority): Promise<{ scope: CompanyScope; employee: EmployeeRow }> {
  const scope = companyScope(caller);
  const reach = await employeeReach(db, scope, caller, 'employeeCompensation', authority);
  const employee = await findEmployeeWithin(db, scope, reach, employeeId);
  if (!employee) throw notFound();
  return { scope, employee };
}

export async function listRecords(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, type: PayComponentType | undefined): Promise<CompensationRecord[]> {
  const { db, caller } = ctx;
  const { scope } = await payEmployee(db, caller, employeeId, 'view');
  return (await employeeRecords(db, scope, employeeId, type)).map(presentRecord);
}

export async function currentPackage(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, asOf = today()) {
  const { db, caller } = ctx;
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'view');
  const current = await currentRecords(db, scope, [employeeId], asOf);
  return presentCurrent(employee.currency, asOf, current.get(employeeId));
}

function duplicate(employee: EmployeeRow, type: PayComponentType, date: string): HttpError {
  const message = `${employee.first_name} ${employee.last_name} already has a ${TYPE_NAMES[type]} record effective ${date}; correct that record instead.`;
  return new HttpError(409, 'record_exists', { message, errors: [{ field: 'body.effectiveDate', message }] });
}

export async function addRecord(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, input: components['schemas']['CompensationRecordInput']): Promise<CompensationRecord> {
  const { db, caller } = ctx;
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'edit');
  const errors: FieldError[] = [];
  checkAmount(input.amount.amount, 'body.amount.amount', errors);
  await checkCurrency(db, input.amount.currency, 'body.amount.currency', errors);
  if (input.type === 'base_salary' && input.percentOfBase !== undefined && input.percentOfBase !== null) {
    errors.push({ field: 'body.percentOfBase', message: 'is for targets stated against base, not for the base salary itself' });
  }
  const bp = basisPoints(input.percentOfBase, 'body.percentOfBase', errors);
  throwIfInvalid(errors);
  const row = await db.transaction(async (trx) => {
    if (await findRecordOn(trx, scope, employeeId, input.type, input.effectiveDate)) throw duplicate(employee, input.type, input.effectiveDate);
    const now = new Date().toISOString();
    const row: CompensationRecordRow = {
      id: newId(),
      company_id: scope.companyId,
      employee_id: employeeId,
      type: input.type,
      amount: input.amount.amount,
      currency: input.amount.currency,
      percent_of_base_bp: bp ?? null,
      effective_date: input.effectiveDate,
      reason: input.reason ?? null,
      source: 'manual',
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await insertRecords(trx, [row]);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'compensation.added', subjectType: 'employee', subjectId: employeeId, payload: { recordId: row.id, type: row.type, amount: input.amount, effectiveDate: row.effective_date } });
    await recordChanges(trx, { companyId: scope.companyId, employeeId, entity: 'payRecord', entityId: row.id, changes: diffFields({}, payRecordFields(row)), changedBy: caller.userId, at: now });
    return row;
  });
  return presentRecord(row);
}

async function ownRecord(db: Knex, scope: CompanyScope, employeeId: string, recordId: string): Promise<CompensationRecordRow> {
  const row = await findRecord(db, scope, employeeId, recordId);
  if (!row) throw notFound();
  return row;
}

export async function correctRecord(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  { employeeId, recordId, ifMatch, input }: { employeeId: string; recordId: string; ifMatch: string; input: components['schemas']['CompensationRecordCorrection'] },
): Promise<CompensationRecord> {
  const { db, caller } = ctx;
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'edit');
  const version = versionOf(ifMatch);
  await ownRecord(db, scope, employeeId, recordId);
  const errors: FieldError[] = [];
  if (input.amount) {
    checkAmount(input.amount.amount, 'body.amount.amount', errors);
    await checkCurrency(db, input.amount.currency, 'body.amount.currency', errors);
  }
  const bp = basisPoints(input.percentOfBase, 'body.percentOfBase', errors);
  throwIfInvalid(errors);
  const row = await db.transaction(async (trx) => {
    const current = await ownRecord(trx, scope, employeeId, recordId);
    if (Number(current.version ?? 1) !== version) throw versionConflict('this compensation record', Number(current.version ?? 1));
    if (current.type === 'base_salary' && bp !== undefined && bp !== null) {
      throwIfInvalid([{ field: 'body.percentOfBase', message: 'is for targets stated against base, not for the base salary itself' }]);
    }
    if (input.effectiveDate && input.effectiveDate !== current.effective_date && (await findRecordOn(trx, scope, employeeId, current.type, input.effectiveDate))) {
      throw duplicate(employee, current.type, input.effectiveDate);
    }
    const changes: Partial<CompensationRecordRow> = {
      ...(input.amount ? { amount: input.amount.amount, currency: input.amount.currency } : {}),
      ...(bp !== undefined ? { percent_of_base_bp: bp } : {}),
      ...(input.effectiveDate ? { effective_date: input.effectiveDate } : {}),
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      updated_at: new Date().toISOString(),
    };
    if (!(await updateRecord(trx, scope, recordId, version, changes))) throw versionConflict('this compensation record');
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'compensation.corrected', subjectType: 'employee', subjectId: employeeId, payload: { recordId, from: presentRecord(current), changes: input } });
    const updated = { ...current, ...changes, version: version + 1 };
    await recordChanges(trx, { companyId: scope.companyId, employeeId, entity: 'payRecord', entityId: recordId, changes: diffFields(payRecordFields(current), payRecordFields(updated)), changedBy: caller.userId });
    return updated;
  });
  return presentRecord(row);
}

export async function removeRecord(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, recordId: string): Promise<CompensationRecord> {
  const { db, caller } = ctx;
  const { scope } = await payEmployee(db, caller, employeeId, 'edit');
  const row = await db.transaction(async (trx) => {
    const current = await ownRecord(trx, scope, employeeId, recordId);
    await deleteRecord(trx, scope, recordId);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'compensation.deleted', subjectType: 'employee', subjectId: employeeId, payload: { record: presentRecord(current) } });
    await recordChanges(trx, { companyId: scope.companyId, employeeId, entity: 'payRecord', entityId: recordId, changes: diffFields(payRecordFields(current), {}), changedBy: caller.userId });
    return current;
  });
  return presentRecord(row);
}
