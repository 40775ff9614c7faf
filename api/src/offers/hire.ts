import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { HttpError, type FieldError } from '../kernel/errors.js';
import { versionConflict, versionOf } from '../kernel/versions.js';
import { cancelHireFromOffer, hireStatusOf, hiringManagerForOffer } from '../people/offerHire.js';
import { transition } from '../workflow/service.js';
import { type OfferContext, announce, detail, requireOffer, subjectOf, writeOffer } from './service.js';
import type { OfferRow } from './store.js';
import { offerWorkflow } from './workflow.js';

type Schemas = components['schemas'];

/*
 * What an offer says of its hire: the hiring manager it names (the hire's manager from day one),
 * where the hire stands (starting, started, cancelled), and cancelling a hire before it starts.
 */

/** Checks an offer's hiring manager: an active employee of the company. */
export async function checkHiringManager(db: Knex, scope: CompanyScope, employeeId: string | null | undefined, errors: FieldError[]): Promise<void> {
  if (!employeeId) return;
  const manager = await hiringManagerForOffer(db, scope, employeeId);
  if (!manager) errors.push({ field: 'body.hiringManagerId', message: `${employeeId} is not an employee of this company` });
  else if (!manager.active) errors.push({ field: 'body.hiringManagerId', message: `${manager.name} is not an active employee` });
}

/** The hiring manager the hire gets: the offer's, while they are still an active employee. */
export async function activeManager(db: Knex, scope: CompanyScope, employeeId: string | null | undefined): Promise<string | null> {
  if (!employeeId) return null;
  const manager = await hiringManagerForOffer(db, scope, employeeId);
  return manager?.active ? manager.employeeId : null;
}

export async function hiringManagerOf(db: Knex, scope: CompanyScope, row: OfferRow): Promise<Schemas['OfferHiringManager'] | null> {
  const manager = row.hiring_manager_id ? await hiringManagerForOffer(db, scope, row.hiring_manager_id) : undefined;
  return manager ? { employeeId: manager.employeeId, name: manager.name } : null;
}

/** The hire an accepted offer made, and where it stands; null before acceptance. */
export async function hireOf(db: Knex, scope: CompanyScope, row: OfferRow): Promise<Schemas['OfferHire'] | null> {
  if (row.state === 'hireCancelled') return { status: 'cancelled', employeeId: null, startDate: row.start_date };
  if (row.state !== 'accepted') return null;
  const status = await hireStatusOf(db, scope, row.hired_employee_id);
  return status === 'gone' ? null : { status, employeeId: row.hired_employee_id, startDate: row.start_date };
}

/** Cancelling removes an employee record: it takes `team` edit over the whole company as well as `offers` edit. */
export const mayCancelHires = (caller: Caller): boolean => hasPermission(caller.permissions, 'team', 'edit', 'all') && hasPermission(caller.permissions, 'offers', 'edit', undefined);

/** Cancels the hire of an accepted offer before its start date, with why; the offer's history records it. */
export async function cancelOfferHire(ctx: OfferContext, caller: Caller, id: string, ifMatch: string, comment: string | undefined): Promise<Schemas['Offer']> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await requireOffer(db, scope, id);
  if (!mayCancelHires(caller)) throw new HttpError(403, 'forbidden', { message: 'Cancelling a hire removes their employee record: it needs the team permission (edit) for the whole company.' });
  const written = await db.transaction(async (trx) => {
    const row = await requireOffer(trx, scope, id);
    if (row.version !== version) throw versionConflict('this offer', row.version);
    const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(row), action: 'cancelHire', actor: caller, comment });
    if (row.hired_employee_id) await cancelHireFromOffer(trx, scope, { employeeId: row.hired_employee_id, offerId: row.id, actorUserId: caller.userId });
    const stored = await writeOffer(trx, scope, row, { state: next.state, hired_employee_id: null, updated_by: caller.userId });
    await announce(trx, scope, ctx, { row: stored, event: 'hireCancelled', actorUserId: caller.userId });
    return stored;
  });
  return detail(ctx.deps, db, caller, written);
}
