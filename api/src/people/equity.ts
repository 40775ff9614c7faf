import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, type FieldError, notFound } from '../kernel/errors.js';
import { round } from '../money/rational.js';
import { throwIfInvalid, today } from './access.js';
import { versionConflict, versionOf } from '../kernel/versions.js';
import { payEmployee } from './compensation.js';
import { presentGrant } from './present.js';
import { type EmployeeRow, type EquityGrantRow, deleteGrant, employeeGrants, findGrant, findGrantByNumber, insertGrants, updateGrant } from './store.js';
import { vestingEvents } from './vesting.js';
import { diffFields, grantFields, recordChanges } from './changes.js';
import { EquityValuation, type ShareTerms, vestingOn, vestingStopsOn, vestingTerms } from './valuation.js';
import type { ServiceContext } from '../kernel/operations.js';

type EquityGrant = components['schemas']['EquityGrant'];
type EquityVesting = components['schemas']['EquityVesting'];

/**
 * Vesting as of a date (stopped when the employee left) and its value, by the one valuation rule
 * (null when an option's strike is in a currency without a reference rate).
 */
export async function vestingOf(row: EquityGrantRow, employee: EmployeeRow, valuation: EquityValuation, asOf: string): Promise<EquityVesting> {
  const status = vestingOn(row, employee, asOf);
  const spread = await valuation.spreadMicros(row);
  const value =
    spread === null ? null : { vested: valuation.valueOf(status.vestedShares, spread), unvested: valuation.valueOf(status.unvestedShares, spread), total: valuation.valueOf(row.shares, spread) };
  return { ...status, sharePrice: valuation.terms.sharePriceMicros / 1_000_000, isUnderwater: spread !== null && spread < 0n, value };
}

export async function presentGrants(ctx: Pick<ServiceContext, 'db'>, scope: CompanyScope, employee: EmployeeRow, asOf: string): Promise<EquityGrant[]> {
  const { db } = ctx;
  const valuation = await EquityValuation.open(db, scope);
  const grants = [];
  for (const row of await employeeGrants(db, scope, employee.id)) grants.push(presentGrant(row, await vestingOf(row, employee, valuation, asOf)));
  return grants;
}

export async function listGrants(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, asOf = today()): Promise<EquityGrant[]> {
  const { db, caller } = ctx;
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'view');
  return presentGrants({ db }, scope, employee, asOf);
}

async function ownGrant(db: Knex, scope: CompanyScope, employeeId: string, grantId: string): Promise<EquityGrantRow> {
  const row = await findGrant(db, scope, employeeId, grantId);
  if (!row) throw notFound();
  return row;
}

export async function vestingSchedule(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, grantId: string, asOf = today()): Promise<components['schemas']['EquityVestingSchedule']> {
  const { db, caller } = ctx;
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'view');
  const row = await ownGrant(db, scope, employeeId, grantId);
  const vesting = await vestingOf(row, employee, await EquityValuation.open(db, scope), asOf);
  const stop = vestingStopsOn(employee);
  const effective = stop && stop < asOf ? stop : asOf;
  return {
    grantId: row.id,
    vesting,
    events: vestingEvents(vestingTerms(row)).map((event) => ({ date: event.date, shares: event.shares, cumulativeShares: event.cumulativeShares, vested: event.date <= effective })),
  };
}

interface GrantFields {
  grantNumber: string;
  grantType: EquityGrantRow['grant_type'];
  reason: string;
  shares: number;
  exercisePrice: { amount: number; currency: string } | null;
  grantDate: string;
  vestingStartDate: string;
  vestingMonths: number;
  cliffMonths: number;
  vestingFrequency: EquityGrantRow['vesting_frequency'];
}

/** The company's current strike (millionths) in minor units, for options recorded without one. */
function defaultExercisePrice(terms: ShareTerms): number | null {
  if (terms.exercisePriceMicros === null) return null;
  return Number(round({ n: BigInt(terms.exercisePriceMicros), d: 10n ** BigInt(6 - terms.minorUnit) }, 'halfEven'));
}

function checkGrant(fields: GrantFields, terms: ShareTerms, errors: FieldError[]): void {
  if (fields.grantType === 'option') {
    if (!fields.exercisePrice) errors.push({ field: 'body.exercisePrice', message: 'is required for options (the company has no current exercise price)' });
  } else if (fields.exercisePrice) {
    errors.push({ field: 'body.exercisePrice', message: `is only for options, not for ${fields.grantType === 'common_stock' ? 'common stock' : fields.grantType.toUpperCase()}` });
  }
  if (fields.exercisePrice) {
    if (fields.exercisePrice.currency !== terms.currency) {
      errors.push({ field: 'body.exercisePrice.currency', message: `must be the company's share currency (${terms.currency})` });
    }
    if (fields.exercisePrice.amount < 0) errors.push({ field: 'body.exercisePrice.amount', message: 'must not be negative' });
  }
  if (fields.cliffMonths > fields.vestingMonths) errors.push({ field: 'body.cliffMonths', message: `must not be more than vestingMonths (${fields.vestingMonths})` });
}

async function uniqueGrantNumber(db: Knex, scope: CompanyScope, wanted: string | undefined, selfId: string | undefined): Promise<string> {
  if (wanted !== undefined) {
    const other = await findGrantByNumber(db, scope, wanted);
    if (other && other.id !== selfId) {
      const message = `${wanted} is already a grant number in this company`;
      throw new HttpError(409, 'already_taken', { message, errors: [{ field: 'body.grantNumber', message }] });
    }
    return wanted;
  }
  for (;;) {
    const candidate = `G-${newId().replace(/-/g, '').slice(-10).toUpperCase()}`;
    if (!(await findGrantByNumber(db, scope, candidate))) return candidate;
  }
}

export async function createGrant(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, input: components['schemas']['EquityGrantInput']): Promise<EquityGrant> {
  const { db, caller } = ctx;
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'edit');
  const valuation = await EquityValuation.open(db, scope);
  const terms = valuation.terms;
  const strike = input.grantType === 'option' ? defaultExercisePrice(terms) : null;
  const fields: GrantFields = {
    grantNumber: input.grantNumber?.trim() ?? '',
    grantType: input.grantType,
    reason: input.reason ?? 'new_hire',
    shares: input.shares,
    exercisePrice: input.exercisePrice !== undefined ? input.exercisePrice : strike === null ? null : { amount: strike, currency: terms.currency },
    grantDate: input.grantDate,
    vestingStartDate: input.vestingStartDate ?? input.grantDate,
    vestingMonths: input.vestingMonths ?? 48,
    cliffMonths: input.cliffMonths ?? 12,
    vestingFrequency: input.vestingFrequency ?? 'monthly',
  };
  const errors: FieldError[] = [];
  checkGrant(fields, terms, errors);
  throwIfInvalid(errors);
  const row = await db.transaction(async (trx) => {
    const now = new Date().toISOString();
    const row: EquityGrantRow = {
      id: newId(),
      company_id: scope.companyId,
      employee_id: employeeId,
      grant_number: await uniqueGrantNumber(trx, scope, input.grantNumber?.trim(), undefined),
      grant_type: fields.grantType,
      reason: fields.reason,
      shares: fields.shares,
      exercise_price: fields.exercisePrice?.amount ?? null,
      currency: terms.currency,
      grant_date: fields.grantDate,
      vesting_start_date: fields.vestingStartDate,
      vesting_months: fields.vestingMonths,
      cliff_months: fields.cliffMonths,
      vesting_frequency: fields.vestingFrequency,
      source: 'manual',
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await insertGrants(trx, [row]);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'equity_grant.created', subjectType: 'employee', subjectId: employeeId, payload: { grantId: row.id, grantNumber: row.grant_number, grantType: row.grant_type, shares: row.shares } });
    await recordChanges(trx, { companyId: scope.companyId, employeeId, entity: 'grant', entityId: row.id, changes: diffFields({}, grantFields(row)), changedBy: caller.userId, at: now });
    return row;
  });
  return presentGrant(row, await vestingOf(row, employee, valuation, today()));
}

export async function changeGrant(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  { employeeId, grantId, ifMatch, input }: { employeeId: string; grantId: string; ifMatch: string; input: components['schemas']['EquityGrantUpdate'] },
): Promise<EquityGrant> {
  const { db, caller } = ctx;
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'edit');
  const version = versionOf(ifMatch);
  await ownGrant(db, scope, employeeId, grantId);
  const valuation = await EquityValuation.open(db, scope);
  const terms = valuation.terms;
  const row = await db.transaction(async (trx) => {
    const current = await ownGrant(trx, scope, employeeId, grantId);
    if (Number(current.version ?? 1) !== version) throw versionConflict('this grant', Number(current.version ?? 1));
    const grantType = input.grantType ?? current.grant_type;
    const fields: GrantFields = {
      grantNumber: input.grantNumber?.trim() ?? current.grant_number,
      grantType,
      reason: input.reason ?? current.reason,
      shares: input.shares ?? current.shares,
      // A grant that stops being an option drops its exercise price unless one is sent.
      exercisePrice:
        input.exercisePrice !== undefined
          ? input.exercisePrice
          : grantType === 'option' && current.exercise_price !== null
            ? { amount: current.exercise_price, currency: current.currency }
            : null,
      grantDate: input.grantDate ?? current.grant_date,
      vestingStartDate: input.vestingStartDate ?? current.vesting_start_date,
      vestingMonths: input.vestingMonths ?? current.vesting_months,
      cliffMonths: input.cliffMonths ?? current.cliff_months,
      vestingFrequency: input.vestingFrequency ?? current.vesting_frequency,
    };
    const errors: FieldError[] = [];
    checkGrant(fields, { ...terms, currency: current.currency }, errors);
    throwIfInvalid(errors);
    const changes: Partial<EquityGrantRow> = {
      grant_number: await uniqueGrantNumber(trx, scope, fields.grantNumber, grantId),
      grant_type: fields.grantType,
      reason: fields.reason,
      shares: fields.shares,
      exercise_price: fields.exercisePrice?.amount ?? null,
      grant_date: fields.grantDate,
      vesting_start_date: fields.vestingStartDate,
      vesting_months: fields.vestingMonths,
      cliff_months: fields.cliffMonths,
      vesting_frequency: fields.vestingFrequency,
      updated_at: new Date().toISOString(),
    };
    if (!(await updateGrant(trx, scope, grantId, version, changes))) throw versionConflict('this grant');
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'equity_grant.updated', subjectType: 'employee', subjectId: employeeId, payload: { grantId, changes: input } });
    const updated = { ...current, ...changes, version: version + 1 } as EquityGrantRow;
    await recordChanges(trx, { companyId: scope.companyId, employeeId, entity: 'grant', entityId: grantId, changes: diffFields(grantFields(current), grantFields(updated)), changedBy: caller.userId });
    return updated;
  });
  return presentGrant(row, await vestingOf(row, employee, valuation, today()));
}

export async function removeGrant(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, grantId: string): Promise<EquityGrant> {
  const { db, caller } = ctx;
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'edit');
  const valuation = await EquityValuation.open(db, scope);
  const row = await db.transaction(async (trx) => {
    const current = await ownGrant(trx, scope, employeeId, grantId);
    await deleteGrant(trx, scope, grantId);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'equity_grant.deleted', subjectType: 'employee', subjectId: employeeId, payload: { grantId, grantNumber: current.grant_number, shares: current.shares } });
    await recordChanges(trx, { companyId: scope.companyId, employeeId, entity: 'grant', entityId: grantId, changes: diffFields(grantFields(current), {}), changedBy: caller.userId });
    return current;
  });
  return presentGrant(row, await vestingOf(row, employee, valuation, today()));
}
