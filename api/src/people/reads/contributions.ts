import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';
import { recordsInForce } from './payInForce.js';

/*
 * What market participation reads of the people tables: how many employees the market could place,
 * and, for a release build across the participating companies (the job's own connection, never a
 * request's), their active employees, the pay in force and the grants.
 */

/** Employees the market could place today: active, with a catalog family, level and location or country. */
export async function countPlaceableEmployees(db: Knex, scope: CompanyScope): Promise<number> {
  const row = await db('employees')
    .where({ company_id: scope.companyId, status: 'active' })
    .whereNotNull('job_family_id')
    .whereNotNull('level_id')
    .where((placed) => placed.whereNotNull('location_id').orWhereNotNull('country_code'))
    .count({ count: '*' })
    .first();
  return Number(row?.count ?? 0);
}

// ── what a build reads across companies (the job's own connection, never a request's) ───────

export interface ContributingEmployeeRow {
  id: string;
  company_id: string;
  job_family_id: string | null;
  level_id: string | null;
  location_id: string | null;
  /** ISO 3166-1 alpha-2: where the market places someone whose location is no catalog metro. */
  country_code: string | null;
  currency: string;
  employment_type: string;
}

/** Every active employee of these companies: the build places each one or counts why it cannot. */
export async function contributingEmployees(db: Knex, companyIds: string[]): Promise<ContributingEmployeeRow[]> {
  if (companyIds.length === 0) return [];
  return db('employees').whereIn('company_id', companyIds).andWhere('status', 'active').select('id', 'company_id', 'job_family_id', 'level_id', 'location_id', 'country_code', 'currency', 'employment_type');
}

export interface PayRow {
  employee_id: string;
  type: string;
  amount: number | string;
  currency: string;
  effective_date: string;
}

/** The cash pay in force on a day: one record per employee and type. */
export async function payOn(db: Knex, companyIds: string[], day: string): Promise<PayRow[]> {
  if (companyIds.length === 0) return [];
  return recordsInForce(db, day)
    .whereIn('c.company_id', companyIds)
    .whereIn('c.type', ['base_salary', 'variable_pay', 'commission', 'bonus_target'])
    .select('c.employee_id', 'c.type', 'c.amount', 'c.currency', 'c.effective_date')
    .orderBy([{ column: 'c.employee_id' }, { column: 'c.type' }]);
}

export interface GrantRow {
  company_id: string;
  employee_id: string;
  grant_type: string;
  reason: string;
  shares: number | string;
  currency: string;
  vesting_months: number;
  cliff_months: number;
  vesting_frequency: string;
}

export async function grantsOf(db: Knex, companyIds: string[]): Promise<GrantRow[]> {
  if (companyIds.length === 0) return [];
  return db('equity_grants').whereIn('company_id', companyIds).select('company_id', 'employee_id', 'grant_type', 'reason', 'shares', 'currency', 'vesting_months', 'cliff_months', 'vesting_frequency');
}



export interface PersonIdentityRow {
  id: string;
  company_id: string;
  email: string | null;
  first_name: string;
  last_name: string;
  start_date: string | null;
}

/** What names each active employee across re-imports (market/engine/personKeys.ts): id, work e-mail, name and start date. */
export async function personIdentityRows(db: Knex, companyIds: string[]): Promise<PersonIdentityRow[]> {
  if (companyIds.length === 0) return [];
  return db('employees').whereIn('company_id', companyIds).andWhere('status', 'active').select('id', 'company_id', 'email', 'first_name', 'last_name', 'start_date');
}
