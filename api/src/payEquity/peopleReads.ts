import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { parseDemographics } from '../people/present.js';

/* What pay equity (api/src/payEquity) reads of the people tables: who worked in a period, their job, gender as recorded and every pay record. */

/** A person employed at some time in the period, as pay equity sees them. */
export interface PayEquityEmployee {
  id: string;
  firstName: string;
  lastName: string;
  jobFamilyId: string | null;
  levelId: string | null;
  track: string | null;
  countryCode: string | null;
  locationId: string | null;
  department: string | null;
  employmentType: string;
  status: string;
  startDate: string | null;
  terminationDate: string | null;
  leaveStartDate: string | null;
  leaveEndDate: string | null;
  performanceRating: string | null;
  /** The employing legal entity (null when people data names none). */
  legalEntity: string | null;
  /** Full-time equivalent, 0 < fte ≤ 1. */
  fte: number;
  /** Contractual hours a week, when recorded. */
  weeklyHours: number | null;
  /** The `gender` demographic field exactly as recorded (null when none is). */
  gender: string | null;
}

/** One dated pay record (amounts annual, except a one-off bonus, in minor units of its currency). */
export interface PayEquityRecord {
  employeeId: string;
  type: string;
  amount: number;
  currency: string;
  effectiveDate: string;
}

interface EmployeeSelection {
  id: string;
  first_name: string;
  last_name: string;
  job_family_id: string | null;
  level_id: string | null;
  track: string | null;
  country_code: string | null;
  location_id: string | null;
  department: string | null;
  employment_type: string;
  status: string;
  start_date: string | null;
  termination_date: string | null;
  leave_start_date: string | null;
  leave_end_date: string | null;
  performance_rating: string | null;
  legal_entity: string | null;
  fte: number | string | null;
  weekly_hours: number | string | null;
  demographics: string;
}

const day = (value: unknown): string | null => (value === null || value === undefined || value === '' ? null : String(value).slice(0, 10));

/**
 * Every employee (not contractors, not accepted hires still to start) employed on at least one day
 * from `from` to `to`: started on or before `to` (or without a start date) and not terminated before `from`.
 */
export async function payEquityEmployees(db: Knex, scope: CompanyScope, period: { from: string; to: string }): Promise<PayEquityEmployee[]> {
  const rows = (await db('employees')
    .where({ company_id: scope.companyId })
    .whereIn('status', ['active', 'terminated'])
    .whereNot('employment_type', 'contractor')
    .where((q) => q.whereNull('start_date').orWhere('start_date', '<=', period.to))
    .where((q) => q.whereNull('termination_date').orWhere('termination_date', '>=', period.from))
    .select(
      'id', 'first_name', 'last_name', 'job_family_id', 'level_id', 'track', 'country_code', 'location_id', 'department', 'employment_type', 'status',
      'start_date', 'termination_date', 'leave_start_date', 'leave_end_date', 'performance_rating', 'demographics',
      'legal_entity', 'fte', 'weekly_hours',
    )
    .orderBy('id')) as EmployeeSelection[];
  return rows
    // A terminated person without a termination date left at a time we do not know: not counted.
    .filter((row) => row.status !== 'terminated' || row.termination_date)
    .map((row) => ({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      jobFamilyId: row.job_family_id,
      levelId: row.level_id,
      track: row.track,
      countryCode: row.country_code,
      locationId: row.location_id,
      department: row.department,
      employmentType: row.employment_type,
      status: row.status,
      startDate: day(row.start_date),
      terminationDate: day(row.termination_date),
      leaveStartDate: day(row.leave_start_date),
      leaveEndDate: day(row.leave_end_date),
      performanceRating: row.performance_rating,
      legalEntity: row.legal_entity ?? null,
      fte: row.fte === null || row.fte === undefined ? 1 : Number(row.fte),
      weeklyHours: row.weekly_hours === null || row.weekly_hours === undefined ? null : Number(row.weekly_hours),
      gender: parseDemographics(row.demographics).gender ?? null,
    }));
}

/** Every pay record of the company's employees dated on or before `to`, oldest first per employee and type. */
export async function payEquityRecords(db: Knex, scope: CompanyScope, to: string): Promise<PayEquityRecord[]> {
  const rows = (await db('compensation_records')
    .where({ company_id: scope.companyId })
    .where('effective_date', '<=', to)
    .select('employee_id', 'type', 'amount', 'currency', 'effective_date')
    .orderBy([{ column: 'employee_id' }, { column: 'effective_date' }])) as { employee_id: string; type: string; amount: number | string; currency: string; effective_date: string }[];
  return rows.map((row) => ({ employeeId: row.employee_id, type: row.type, amount: Number(row.amount), currency: row.currency, effectiveDate: String(row.effective_date).slice(0, 10) }));
}

/** The company's currency. */
export async function payEquityCompanyCurrency(db: Knex, scope: CompanyScope): Promise<string> {
  const row = (await db('companies').where({ id: scope.companyId }).first('currency')) as { currency: string } | undefined;
  return row?.currency ?? 'USD';
}
