import type { components } from '../contract-types.js';
import { offerIdOfEmployeeNumber } from '../people/offerHire.js';
import { startingInReach } from './peopleReads.js';
import { teamAccess } from './access.js';
import type { ServiceContext } from '../kernel/operations.js';

/** Accepted hires in the caller's reach who have not started yet, soonest first: the team view's "Starting soon". */
export async function startingSoon(ctx: Pick<ServiceContext, 'deps' | 'caller'>): Promise<components['schemas']['TeamStartingSoon'][]> {
  const { deps, caller } = ctx;
  const access = await teamAccess(deps.db, caller);
  const rows = await startingInReach(deps.db, access.scope, access.records);
  return rows.map((row) => ({
    employeeId: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    title: row.title,
    department: row.department,
    startDate: row.start_date.slice(0, 10),
    manager: row.manager_id && row.manager_first_name !== null ? { id: row.manager_id, name: `${row.manager_first_name} ${row.manager_last_name ?? ''}`.trim() } : null,
    offerId: offerIdOfEmployeeNumber(row.employee_number),
  }));
}
