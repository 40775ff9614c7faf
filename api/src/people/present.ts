import type { components } from '../contract-types.js';
import { isoTimestamp } from '../db/timestamps.js';
import { STARTING } from './reads/status.js';
import { type CandidateRow, type CompensationRecordRow, type EmployeeRow, type EquityGrantRow, type PayComponentType, contractOf } from './store.js';

type Employee = components['schemas']['Employee'];
type CurrentCompensation = components['schemas']['CurrentCompensation'];
type CompensationComponent = components['schemas']['CompensationComponent'];
type Demographics = components['schemas']['Demographics'];

const percentOf = (basisPoints: number | null): number | null => (basisPoints === null ? null : basisPoints / 100);

/** Demographics as stored (JSON); unknown keys are dropped. */
export function parseDemographics(json: string): Demographics {
  const parsed = JSON.parse(json || '{}') as Record<string, unknown>;
  const out: Demographics = {};
  if (typeof parsed.gender === 'string' || parsed.gender === null) out.gender = parsed.gender;
  if (typeof parsed.ethnicity === 'string' || parsed.ethnicity === null) out.ethnicity = parsed.ethnicity;
  if (typeof parsed.birthYear === 'number' || parsed.birthYear === null) out.birthYear = parsed.birthYear;
  return out;
}

function component(row: CompensationRecordRow | undefined): CompensationComponent | null {
  if (!row) return null;
  return {
    recordId: row.id,
    amount: { amount: row.amount, currency: row.currency },
    percentOfBase: percentOf(row.percent_of_base_bp),
    effectiveDate: row.effective_date,
  };
}

const CASH: PayComponentType[] = ['base_salary', 'bonus_target', 'variable_pay', 'commission'];

/** The package in force on `asOf` from the records in force then. */
export function presentCurrent(currency: string, asOf: string, records: ReadonlyMap<PayComponentType, CompensationRecordRow> | undefined): CurrentCompensation {
  const of = (type: PayComponentType) => records?.get(type);
  const cash = CASH.flatMap((type) => {
    const row = of(type);
    return row ? [row] : [];
  });
  const base = of('base_salary');
  const sameCurrency = base !== undefined && cash.every((row) => row.currency === base.currency);
  return {
    asOf,
    currency,
    baseSalary: component(of('base_salary')),
    bonusTarget: component(of('bonus_target')),
    variablePay: component(of('variable_pay')),
    commission: component(of('commission')),
    benefits: component(of('benefits')),
    totalCash: base && sameCurrency ? { amount: cash.reduce((sum, row) => sum + row.amount, 0), currency: base.currency } : null,
  };
}

export interface EmployeeExtras {
  /** Present only when the caller may see this employee's pay. */
  compensation?: CurrentCompensation;
  showDemographics: boolean;
}

export function presentEmployee(row: EmployeeRow, extras: EmployeeExtras): Employee {
  const employee: Employee = {
    id: row.id,
    employeeNumber: row.employee_number,
    userId: row.user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    title: row.title,
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    track: row.track,
    managerId: row.manager_id,
    department: row.department,
    countryCode: row.country_code,
    locationId: row.location_id,
    currency: row.currency,
    startDate: row.start_date,
    employmentType: row.employment_type as Employee['employmentType'],
    status: row.status === 'terminated' ? 'terminated' : row.status === STARTING ? 'starting' : 'active',
    terminationDate: row.termination_date,
    leave: row.leave_start_date ? { startDate: row.leave_start_date, endDate: row.leave_end_date ?? null } : null,
    companyJobId: row.company_job_id,
    jobCode: row.job_code ?? null,
    ...contractOf(row),
    version: Number(row.version),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
  // Pay fields are left out, not zeroed, for callers who may not see them.
  if (extras.compensation) {
    employee.compensation = extras.compensation;
    employee.performanceRating = row.performance_rating;
  }
  if (extras.showDemographics) employee.demographics = parseDemographics(row.demographics);
  return employee;
}

export function presentRecord(row: CompensationRecordRow): components['schemas']['CompensationRecord'] {
  return {
    id: row.id,
    employeeId: row.employee_id,
    type: row.type,
    amount: { amount: row.amount, currency: row.currency },
    percentOfBase: percentOf(row.percent_of_base_bp),
    effectiveDate: row.effective_date,
    reason: (row.reason ?? null) as components['schemas']['CompensationRecord']['reason'],
    source: row.source,
    version: Number(row.version ?? 1),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at ?? row.created_at),
  };
}

export function presentGrant(row: EquityGrantRow, vesting: components['schemas']['EquityVesting']): components['schemas']['EquityGrant'] {
  return {
    id: row.id,
    employeeId: row.employee_id,
    grantNumber: row.grant_number,
    grantType: row.grant_type,
    reason: row.reason as components['schemas']['EquityGrant']['reason'],
    shares: row.shares,
    exercisePrice: row.exercise_price === null ? null : { amount: row.exercise_price, currency: row.currency },
    currency: row.currency,
    grantDate: row.grant_date,
    vestingStartDate: row.vesting_start_date,
    vestingMonths: row.vesting_months,
    cliffMonths: row.cliff_months,
    vestingFrequency: row.vesting_frequency,
    source: row.source,
    vesting,
    version: Number(row.version ?? 1),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

export function presentCandidate(row: CandidateRow): components['schemas']['Candidate'] {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    title: row.title,
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    locationId: row.location_id,
    countryCode: row.country_code,
    currency: row.currency,
    status: row.status as components['schemas']['Candidate']['status'],
    source: row.source,
    hiredEmployeeId: row.hired_employee_id,
    version: Number(row.version),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}
