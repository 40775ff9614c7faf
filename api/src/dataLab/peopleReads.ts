import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { parseDemographics } from '../people/present.js';
import { type EmployeeReach, withinReach } from '../people/visibility.js';
import { recordsInForce } from '../people/reads/payInForce.js';

/* What the data lab (api/src/dataLab) reads of the people tables to compute its insights, and the names it shows. */

/** An active employee as the insights see them: job, place, tenure, gender and base pay in force. */
export interface DataLabEmployee {
  id: string;
  jobFamilyId: string | null;
  levelId: string | null;
  track: string | null;
  /** What salary bands may match the company job on (their job matching rule). */
  title: string | null;
  jobCode: string | null;
  countryCode: string | null;
  locationId: string | null;
  startDate: string | null;
  gender: string | null;
  /** Base salary in force on the day (minor units), with its currency and effective date; null without one. */
  base: { amount: number; currency: string; effectiveDate: string } | null;
}

interface EmployeeSelection {
  id: string;
  job_family_id: string | null;
  level_id: string | null;
  track: string | null;
  title: string | null;
  job_code: string | null;
  country_code: string | null;
  location_id: string | null;
  start_date: string | null;
  demographics: string;
}

/** Every active employee of the company with base pay in force on `day`, by id. */
export async function dataLabEmployees(db: Knex, scope: CompanyScope, day: string): Promise<DataLabEmployee[]> {
  const rows = (await db('employees')
    .where({ company_id: scope.companyId, status: 'active' })
    .select('id', 'job_family_id', 'level_id', 'track', 'title', 'job_code', 'country_code', 'location_id', 'start_date', 'demographics')
    .orderBy('id')) as EmployeeSelection[];
  const pay = (await recordsInForce(db, day).where({ 'c.company_id': scope.companyId, 'c.type': 'base_salary' }).select('c.employee_id', 'c.amount', 'c.currency', 'c.effective_date')) as {
    employee_id: string;
    amount: number | string;
    currency: string;
    effective_date: string;
  }[];
  const baseOf = new Map(pay.map((row) => [row.employee_id, { amount: Number(row.amount), currency: row.currency, effectiveDate: String(row.effective_date).slice(0, 10) }]));
  return rows.map((row) => ({
    id: row.id,
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    track: row.track,
    title: row.title,
    jobCode: row.job_code,
    countryCode: row.country_code,
    locationId: row.location_id,
    startDate: row.start_date ? String(row.start_date).slice(0, 10) : null,
    gender: parseDemographics(row.demographics).gender ?? null,
    base: baseOf.get(row.id) ?? null,
  }));
}

/** An equity grant's shape as the insights need it: whose, when it started and how long it vests. */
export interface DataLabGrant {
  employeeId: string;
  grantDate: string;
  vestingStartDate: string;
  vestingMonths: number;
}

export async function dataLabGrants(db: Knex, scope: CompanyScope): Promise<DataLabGrant[]> {
  const rows = (await db('equity_grants').where({ company_id: scope.companyId }).select('employee_id', 'grant_date', 'vesting_start_date', 'vesting_months')) as {
    employee_id: string;
    grant_date: string;
    vesting_start_date: string;
    vesting_months: number | string;
  }[];
  return rows.map((row) => ({ employeeId: row.employee_id, grantDate: String(row.grant_date).slice(0, 10), vestingStartDate: String(row.vesting_start_date).slice(0, 10), vestingMonths: Number(row.vesting_months) }));
}

/** The names of those of these employees within the reach ("First Last"); others are left out. */
export async function namesWithinReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, employeeIds: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (employeeIds.length === 0 || reach.kind === 'none') return names;
  for (let start = 0; start < employeeIds.length; start += 500) {
    const chunk = employeeIds.slice(start, start + 500);
    const rows = (await withinReach(db('employees').where({ 'employees.company_id': scope.companyId }).whereIn('employees.id', chunk), scope, reach).select(
      'employees.id',
      'employees.first_name',
      'employees.last_name',
    )) as { id: string; first_name: string; last_name: string }[];
    for (const row of rows) names.set(row.id, `${row.first_name} ${row.last_name}`.trim());
  }
  return names;
}
