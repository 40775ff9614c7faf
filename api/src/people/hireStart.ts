import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { jobKind } from '../jobs/kind.js';
import { moveVersionOn } from '../kernel/versions.js';
import { queueJobIn } from '../jobs/queue.js';
import { today } from '../money/converter.js';
import { emit } from '../platform/events.js';
import { STARTING } from './reads/status.js';
import { employeesOf } from './store.js';

/*
 * Future hires start on their own. Accepting an offer whose start date is ahead makes an employee
 * with status `starting` and queues this job for the first moment of that date. Days are UTC: the
 * product keeps no company time zone (every date rule — offer expiry, pay in force — is UTC too).
 */

export interface HireStartInput {
  /** The hire the job was queued for. */
  employeeId: string;
  /** The day to start hires on; the day the job runs when absent (tests and catch-up runs name one). */
  asOf?: string;
}

export const HIRE_START = 'hireStart';

/** The first moment of a start date, when its job becomes due. */
export const startMoment = (startDate: string): string => `${startDate}T00:00:00.000Z`;

/**
 * Makes active every starting hire of the company whose start date is on or before `day` — the
 * one queued for, and any whose own job was lost — each with an `employee.started` event.
 */
export async function startDueHires(trx: Knex, scope: CompanyScope, day: string): Promise<string[]> {
  const due = (await employeesOf(trx, scope).where('employees.status', STARTING).andWhere('employees.start_date', '<=', day).select('employees.id', 'employees.start_date')) as {
    id: string;
    start_date: string;
  }[];
  const now = new Date().toISOString();
  for (const hire of due) {
    await moveVersionOn(() => employeesOf(trx, scope).where({ id: hire.id, status: STARTING }), { status: 'active', updated_at: now });
    await emit(trx, { companyId: scope.companyId, actorUserId: null, name: 'employee.started', subjectType: 'employee', subjectId: hire.id, payload: { startDate: hire.start_date } });
  }
  return due.map((hire) => hire.id);
}

export const hireStartJob = jobKind<HireStartInput>({ type: HIRE_START, title: 'Hire start' }, () => async ({ job, db }) => {
  const day = job.input.asOf ?? today();
  const started = await db.transaction((trx) => startDueHires(trx, { companyId: job.companyId }, day));
  return { day, started: started.length, hireStarted: started.includes(job.input.employeeId) };
});

/** Queues the job that starts this hire on their start date, in the caller's transaction. */
export async function scheduleHireStart(trx: Knex, scope: CompanyScope, hire: { employeeId: string; startDate: string; ownerUserId: string }): Promise<void> {
  await queueJobIn(trx, hireStartJob, {
    companyId: scope.companyId,
    ownerUserId: hire.ownerUserId,
    input: { employeeId: hire.employeeId },
    runAfter: startMoment(hire.startDate),
    message: `Starts the hire on ${hire.startDate}.`,
    maxAttempts: 3,
  });
}
