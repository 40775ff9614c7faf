import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import { HttpError } from '../kernel/errors.js';
import { today } from '../money/converter.js';
import { emit } from '../platform/events.js';
import { scheduleHireStart } from './hireStart.js';
import { recordsInForce } from './reads/payInForce.js';
import { STARTING, hireStatusOn } from './reads/status.js';
import {
  type CompensationRecordRow,
  type EmployeeRow,
  type EquityGrantRow,
  candidatesOf,
  employeesOf,
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
  /** The offer's hiring manager (an employee id), the hire's manager from their first day. */
  managerId: string | null;
  /** Who the scheduled start is queued for (the offer's author): a job needs a user. */
  ownerUserId: string;
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

/** The offer an employee number names, when an accepted offer made the employee. */
export const offerIdOfEmployeeNumber = (employeeNumber: string): string | null => (employeeNumber.startsWith('offer-') ? employeeNumber.slice('offer-'.length) : null);

/**
 * Creates the employee, their pay records and grant dated the start date, in the caller's
 * transaction, and marks the candidate hired. A start date still ahead (UTC) makes a `starting`
 * person, and queues the job that makes them active on that date. Idempotent by the offer: an
 * employee already made from this offer is returned as it is, and nothing is written twice.
 */
export async function hireFromOffer(trx: Knex, scope: CompanyScope, hire: OfferHire): Promise<{ employeeId: string; created: boolean }> {
  const number = offerEmployeeNumber(hire.offerId);
  const existing = await findEmployeeByNumber(trx, scope, number);
  if (existing) return { employeeId: existing.id, created: false };
  const now = new Date().toISOString();
  const status = hireStatusOn(hire.startDate, today());
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
    manager_id: hire.managerId,
    department: hire.department,
    country_code: hire.countryCode,
    location_id: hire.locationId,
    currency: hire.currency,
    start_date: hire.startDate,
    employment_type: 'full_time',
    status,
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
  if (status === STARTING) await scheduleHireStart(trx, scope, { employeeId: employee.id, startDate: hire.startDate, ownerUserId: hire.ownerUserId });
  return { employeeId: employee.id, created: true };
}

/** Where an offer's hire stands: not started yet, started, or gone (cancelled, or removed since). */
export async function hireStatusOf(db: Knex, scope: CompanyScope, employeeId: string | null): Promise<'starting' | 'started' | 'gone'> {
  const employee = employeeId ? await findEmployee(db, scope, employeeId) : undefined;
  if (!employee) return 'gone';
  return employee.status === STARTING ? 'starting' : 'started';
}

/**
 * Cancels a future hire before their first day, in the caller's transaction: their pay records,
 * grant and employee record go (they never worked here), and the candidate is marked withdrawn.
 * A hire who has started is 409: they are an employee now, to be terminated instead.
 */
export async function cancelHireFromOffer(trx: Knex, scope: CompanyScope, hire: { employeeId: string; offerId: string; actorUserId: string }): Promise<void> {
  const employee = await findEmployee(trx, scope, hire.employeeId);
  if (!employee) return;
  if (employee.status !== STARTING) {
    throw new HttpError(409, 'hire_started', { message: `${employee.first_name} ${employee.last_name} started on ${employee.start_date ?? 'their start date'}: terminate the employee instead.` });
  }
  await trx('compensation_records').where({ company_id: scope.companyId, employee_id: employee.id }).delete();
  await trx('equity_grants').where({ company_id: scope.companyId, employee_id: employee.id }).delete();
  const candidate = await candidatesOf(trx, scope).where({ hired_employee_id: employee.id }).first<{ id: string; version: number | string } | undefined>('id', 'version');
  if (candidate) await updateCandidate(trx, scope, candidate.id, Number(candidate.version), { status: 'withdrawn', hired_employee_id: null, updated_at: new Date().toISOString() });
  await employeesOf(trx, scope).where({ id: employee.id }).delete();
  await emit(trx, { companyId: scope.companyId, actorUserId: hire.actorUserId, name: 'employee.hireCancelled', subjectType: 'employee', subjectId: employee.id, payload: { offerId: hire.offerId, startDate: employee.start_date ?? '' } });
}

/** The hiring manager an offer may name: an active employee of the company, with their name. */
export async function hiringManagerForOffer(db: Knex, scope: CompanyScope, employeeId: string): Promise<{ employeeId: string; name: string; active: boolean } | undefined> {
  const employee = await findEmployee(db, scope, employeeId);
  return employee ? { employeeId: employee.id, name: `${employee.first_name} ${employee.last_name}`.trim(), active: employee.status === 'active' } : undefined;
}

/** Whether the employee an offer made is still there (for the offer's presenter). */
export async function offerEmployeeExists(db: Knex, scope: CompanyScope, employeeId: string): Promise<boolean> {
  return Boolean(await findEmployee(db, scope, employeeId));
}
