import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { type CompanyRow, findCompany } from '../access/usersStore.js';
import { recordAudit } from '../audit/store.js';
import type { components } from '../contract-types.js';
import { findCurrency } from '../currencies/store.js';
import { newId } from '../db/ids.js';
import { HttpError, type FieldError, notFound } from '../http/errors.js';
import { round } from '../forex/rational.js';
import { throwIfInvalid, today } from './access.js';
import { versionConflict, versionOf } from '../http/versions.js';
import { payEmployee } from './compensation.js';
import { presentGrant } from './present.js';
import { type EmployeeRow, type EquityGrantRow, deleteGrant, employeeGrants, findGrant, findGrantByNumber, insertGrants, updateGrant } from './store.js';
import { equityValue, vestingEvents, vestingStatus } from './vesting.js';

type EquityGrant = components['schemas']['EquityGrant'];
type EquityVesting = components['schemas']['EquityVesting'];

/** What valuing grants needs from the company settings: its share currency, price and strike. */
export interface ShareTerms {
  currency: string;
  minorUnit: number;
  sharePriceMicros: number;
  exercisePriceMicros: number | null;
}

export async function shareTerms(db: Knex, scope: CompanyScope): Promise<ShareTerms> {
  const company: CompanyRow | undefined = await findCompany(db, scope);
  if (!company) throw notFound();
  const currency = await findCurrency(db, company.currency);
  return {
    currency: company.currency,
    minorUnit: currency?.minor_unit === null || currency === undefined ? 0 : Number(currency.minor_unit),
    sharePriceMicros: Number(company.share_price_micros),
    exercisePriceMicros: company.exercise_price_micros === null ? null : Number(company.exercise_price_micros),
  };
}

const termsOf = (row: EquityGrantRow) => ({
  shares: row.shares,
  vestingStartDate: row.vesting_start_date,
  vestingMonths: row.vesting_months,
  cliffMonths: row.cliff_months,
  frequency: row.vesting_frequency,
});

/** Vesting stops when the employee leaves. */
const stopsOn = (employee: EmployeeRow): string | null => (employee.status === 'terminated' ? employee.termination_date : null);

/** Vesting as of a date and its value at the company's share price (null for a grant in another currency). */
export function vestingOf(row: EquityGrantRow, employee: EmployeeRow, terms: ShareTerms, asOf: string): EquityVesting {
  const status = vestingStatus(termsOf(row), asOf, stopsOn(employee));
  const value =
    row.currency === terms.currency
      ? equityValue({
          vestedShares: status.vestedShares,
          unvestedShares: status.unvestedShares,
          sharePriceMicros: terms.sharePriceMicros,
          exercisePriceMinor: row.grant_type === 'option' ? row.exercise_price : null,
          minorUnit: terms.minorUnit,
        })
      : null;
  const money = (amount: number) => ({ amount, currency: terms.currency });
  return {
    ...status,
    sharePrice: terms.sharePriceMicros / 1_000_000,
    isUnderwater: value?.isUnderwater ?? false,
    value: value ? { vested: money(value.vested), unvested: money(value.unvested), total: money(value.total) } : null,
  };
}

export async function presentGrants(db: Knex, scope: CompanyScope, employee: EmployeeRow, asOf: string): Promise<EquityGrant[]> {
  const terms = await shareTerms(db, scope);
  return (await employeeGrants(db, scope, employee.id)).map((row) => presentGrant(row, vestingOf(row, employee, terms, asOf)));
}

export async function listGrants(db: Knex, caller: Caller, employeeId: string, asOf = today()): Promise<EquityGrant[]> {
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'view');
  return presentGrants(db, scope, employee, asOf);
}

async function ownGrant(db: Knex, scope: CompanyScope, employeeId: string, grantId: string): Promise<EquityGrantRow> {
  const row = await findGrant(db, scope, employeeId, grantId);
  if (!row) throw notFound();
  return row;
}

export async function vestingSchedule(db: Knex, caller: Caller, employeeId: string, grantId: string, asOf = today()): Promise<components['schemas']['EquityVestingSchedule']> {
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'view');
  const row = await ownGrant(db, scope, employeeId, grantId);
  const vesting = vestingOf(row, employee, await shareTerms(db, scope), asOf);
  const stop = stopsOn(employee);
  const effective = stop && stop < asOf ? stop : asOf;
  return {
    grantId: row.id,
    vesting,
    events: vestingEvents(termsOf(row)).map((event) => ({ date: event.date, shares: event.shares, cumulativeShares: event.cumulativeShares, vested: event.date <= effective })),
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

export async function createGrant(db: Knex, caller: Caller, employeeId: string, input: components['schemas']['EquityGrantInput']): Promise<EquityGrant> {
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'edit');
  const terms = await shareTerms(db, scope);
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
    await recordAudit(trx, { companyId: scope.companyId, actorUserId: caller.userId, action: 'equity_grant.created', subjectType: 'employee', subjectId: employeeId, details: { grantId: row.id, grantNumber: row.grant_number, grantType: row.grant_type, shares: row.shares } });
    return row;
  });
  return presentGrant(row, vestingOf(row, employee, terms, today()));
}

export async function changeGrant(db: Knex, caller: Caller, employeeId: string, grantId: string, ifMatch: string, input: components['schemas']['EquityGrantUpdate']): Promise<EquityGrant> {
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'edit');
  const version = versionOf(ifMatch);
  await ownGrant(db, scope, employeeId, grantId);
  const terms = await shareTerms(db, scope);
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
    await recordAudit(trx, { companyId: scope.companyId, actorUserId: caller.userId, action: 'equity_grant.updated', subjectType: 'employee', subjectId: employeeId, details: { grantId, changes: input } });
    return { ...current, ...changes, version: version + 1 } as EquityGrantRow;
  });
  return presentGrant(row, vestingOf(row, employee, terms, today()));
}

export async function removeGrant(db: Knex, caller: Caller, employeeId: string, grantId: string): Promise<EquityGrant> {
  const { scope, employee } = await payEmployee(db, caller, employeeId, 'edit');
  const terms = await shareTerms(db, scope);
  const row = await db.transaction(async (trx) => {
    const current = await ownGrant(trx, scope, employeeId, grantId);
    await deleteGrant(trx, scope, grantId);
    await recordAudit(trx, { companyId: scope.companyId, actorUserId: caller.userId, action: 'equity_grant.deleted', subjectType: 'employee', subjectId: employeeId, details: { grantId, grantNumber: current.grant_number, shares: current.shares } });
    return current;
  });
  return presentGrant(row, vestingOf(row, employee, terms, today()));
}
