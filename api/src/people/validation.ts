import type { Knex } from 'knex';
import { minorUnitOf } from '../money/minorUnits.js';
import type { FieldError } from '../kernel/errors.js';
import { findJobFamily, findLevel, findLocation } from '../reference/catalog/index.js';

/** The decimal places of a current ISO 4217 currency, or a field error naming it. */
export async function checkCurrency(db: Knex, code: string | undefined, field: string, errors: FieldError[]): Promise<number | undefined> {
  if (code === undefined) return undefined;
  const minor = await minorUnitOf(db, code);
  if (minor === undefined) errors.push({ field, message: `${code} is not a current ISO 4217 currency` });
  return minor;
}

/** Job family, level and location must be the market catalog's, so people can be benchmarked. */
export function checkCatalog(input: { jobFamilyId?: string | null; levelId?: string | null; locationId?: string | null }, errors: FieldError[]): void {
  if (input.jobFamilyId && !findJobFamily(input.jobFamilyId)) {
    errors.push({ field: 'body.jobFamilyId', message: `${input.jobFamilyId} is not a job family of the market catalog` });
  }
  if (input.levelId && !findLevel(input.levelId)) errors.push({ field: 'body.levelId', message: `${input.levelId} is not a level of the market catalog` });
  if (input.locationId && !findLocation(input.locationId)) {
    errors.push({ field: 'body.locationId', message: `${input.locationId} is not a location of the market catalog` });
  }
}

/** A leave ends on or after the day it starts. */
export function checkLeave(leave: { startDate: string; endDate: string | null } | null | undefined, errors: FieldError[]): void {
  if (leave?.endDate && leave.endDate < leave.startDate) errors.push({ field: 'body.leave.endDate', message: 'must not be before startDate' });
}

/** Amounts are annual, in minor units: never negative, and small enough to add up exactly. */
export function checkAmount(amount: number, field: string, errors: FieldError[]): void {
  if (amount < 0) errors.push({ field, message: 'must not be negative' });
  else if (amount > 1e15) errors.push({ field, message: 'is too large' });
}

/** A percentage with at most two decimals, as basis points. */
export function basisPoints(percent: number | null | undefined, field: string, errors: FieldError[]): number | null | undefined {
  if (percent === undefined || percent === null) return percent;
  const bp = Math.round(percent * 100);
  if (Math.abs(bp - percent * 100) > 1e-6) {
    errors.push({ field, message: 'must have at most two decimals' });
    return undefined;
  }
  return bp;
}
