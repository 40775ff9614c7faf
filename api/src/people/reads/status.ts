import type { Knex } from 'knex';

/*
 * Employee statuses: `active`, `terminated`, and `starting` — an accepted hire before their start
 * date. A starting person is not one of the company's people yet: every head count, analytics,
 * cycle, survey, participation or pay-equity read that asks for `active` leaves them out, and the
 * `all` filter means everyone who has started (active or left), never a future hire. Only their
 * own record and the "Starting soon" list show them.
 */

export const STARTING = 'starting';

export type StatusFilter = 'active' | 'terminated' | 'all';

/** Narrows a query on employees (`column` names their status) to a status filter. */
export function whereStatus<TRecord extends object, TResult>(query: Knex.QueryBuilder<TRecord, TResult>, column: string, status: StatusFilter): Knex.QueryBuilder<TRecord, TResult> {
  return status === 'all' ? query.whereNot(column, STARTING) : query.where(column, status);
}

/** The status a hire starting on `startDate` gets on `day`: active from their first day. */
export const hireStatusOn = (startDate: string, day: string): 'active' | typeof STARTING => (startDate > day ? STARTING : 'active');
