import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import { recordsInForce } from './reads/payInForce.js';
import {
  type CompensationRecordRow,
  type EmployeeRow,
  type EquityGrantRow,
  findCandidate,
  findEmployee,
  findEmployeeByNumber,
  insertEmployees,
  insertGrants,
  insertRecords,
  updateCandidate,
} from './store.js';

/*
 * What offers (api/src/offers) read and write of people data: the candidate an offer is made to,
 * the base pay of the active employees at the offer's job family and level (internal equity), and
 * the hire an accepted offer makes — the employee, their pay and their grant, dated the start date.
 */

export interface OfferCandidateRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  hiredEmployeeId: string | null;
}

export async function candidateForOffer(db: Knex, scope: CompanyScope, candidateId: string): Promise<OfferCandidateRow | undefined> {
  const row = await findCandidate(db, scope, candidateId);
  if (!row) return undefined;
  return { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, hiredEmployeeId: row.hired_employee_id };
}

export interface PeerBase {
  /** Minor units of `currency`, a year. */
  amount: number;
  currency: string;
}

/** The base pay in force on `day` of each active employee at this family and level (those without one counted as null). */
export async function peerBasesForOffer(db: Knex, scope: CompanyScope, jobFamilyId: string, levelId: string, day: string): Promise<(PeerBase | null)[]> {
  const peers = (await db('employees').where({ company_id: scope.companyId, status: 'active', job_family_id: jobFamilyId, level_id: levelId }).select('id')) as { id: string }[];
  if (!peers.length) return [];
  const ids = new Set(peers.map((peer) => peer.id));
  const rows = (await recordsInForce(db, day).where({ 'c.company_id': scope.companyId, 'c.type': 'base_salary' }).select('c.employee_id', 'c.amount', 'c.currency')) as {
    employee_id: string;
    amount: number | string;
    currency: string;
  }[];
  const bases = new Map<string, PeerBase>();
  for (const row of rows) if (ids.has(row.employee_id)) bases.set(row.employee_id, { amount: Number(row.amount), currency: row.currency });
  return peers.map((peer) => bases.get(peer.id) ?? null);
}

export interface OfferHire {
  offerId: string;
  candidateId: string;
  email: string;
  firstName: string;
  lastName: string;
  title: string;
  companyJobId: string | null;
  /** The company job's code, so bands matching employees by job code place the hire in it. */
  jobCode: string | null;
  jobFamilyId: string;
  levelId: string;
  track: string | null;
  department: string | null;
  countryCode: string | null;
  locationId: string;
  currency: string;
  startDate: string;
  /** Minor units a year. */
  base: number;
  bonusTargetBp: number | null;
  variable: number | null;
  grant: {
    type: 'option' | 'rsu';
    shares: number;
    /** Minor units of `currency` per share; null for RSUs. */
    exercisePrice: number | null;
    currency: string;
    vestingMonths: number;
    cliffMonths: number;
    vestingFrequency: 'monthly' | 'quarterly' | 'annually';
  } | null;
}

/** The employee number an accepted offer's hire gets: the same offer always names the same employee. */
export const offerEmployeeNumber = (offerId: string): string => `offer-${offerId}`;

/**
 * Creates the employee, their pay records and grant dated the start date, in the caller's
 * transaction, and marks the candidate hired. Idempotent by the offer: an employee already made
 * from this offer is returned as it is, and nothing is written twice.
 */
export async function hireFromOffer(trx: Knex, scope: CompanyScope, hire: OfferHire): Promise<{ employeeId: string; created: boolean }> {
  const number = offerEmployeeNumber(hire.offerId);
  const existing = await findEmployeeByNumber(trx, scope, number);
  if (existing) return { employeeId: existing.id, created: false };
  const now = new Date().toISOString();
  const employee: EmployeeRow = {
    id: newId(),
    company_id: scope.companyId,
    employee_number: number,
    user_id: null,
    email: hire.email,
    first_name: hire.firstName,
    last_name: hire.lastName,
    title: hire.title,
    company_job_id: hire.companyJobId,
    job_code: hire.jobCode,
    job_family_id: hire.jobFamilyId,
    level_id: hire.levelId,
    track: hire.track && hire.track.length <= 16 ? hire.track : null,
    manager_id: null,
    department: hire.department,
    country_code: hire.countryCode,
    location_id: hire.locationId,
    currency: hire.currency,
    start_date: hire.startDate,
    employment_type: 'full_time',
    status: 'active',
    termination_date: null,
    performance_rating: null,
    demographics: '{}',
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await insertEmployees(trx, [employee]);
  const record = (type: CompensationRecordRow['type'], amount: number, percentBp: number | null): CompensationRecordRow => ({
    id: newId(),
    company_id: scope.companyId,
    employee_id: employee.id,
    type,
    amount,
    currency: hire.currency,
    percent_of_base_bp: percentBp,
    effective_date: hire.startDate,
    reason: 'hire',
    source: 'offer',
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const records = [record('base_salary', hire.base, null)];
  if (hire.bonusTargetBp !== null) records.push(record('bonus_target', Math.round((hire.base * hire.bonusTargetBp) / 10_000), hire.bonusTargetBp));
  if (hire.variable !== null && hire.variable > 0) records.push(record('variable_pay', hire.variable, null));
  await insertRecords(trx, records);
  if (hire.grant) {
    const grant: EquityGrantRow = {
      id: newId(),
      company_id: scope.companyId,
      employee_id: employee.id,
      grant_number: number,
      grant_type: hire.grant.type,
      reason: 'new_hire',
      shares: hire.grant.shares,
      exercise_price: hire.grant.exercisePrice,
      currency: hire.grant.currency,
      grant_date: hire.startDate,
      vesting_start_date: hire.startDate,
      vesting_months: hire.grant.vestingMonths,
      cliff_months: hire.grant.cliffMonths,
      vesting_frequency: hire.grant.vestingFrequency,
      source: 'offer',
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await insertGrants(trx, [grant]);
  }
  const candidate = await findCandidate(trx, scope, hire.candidateId);
  if (candidate && !candidate.hired_employee_id) {
    await updateCandidate(trx, scope, candidate.id, Number(candidate.version), { status: 'hired', hired_employee_id: employee.id, updated_at: now });
  }
  return { employeeId: employee.id, created: true };
}

/** Whether the employee an offer made is still there (for the offer's presenter). */
export async function offerEmployeeExists(db: Knex, scope: CompanyScope, employeeId: string): Promise<boolean> {
  return Boolean(await findEmployee(db, scope, employeeId));
}
