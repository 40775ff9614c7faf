import type { Knex } from 'knex';
import { leadsByUser } from './peopleReads.js';
import type { CompanyScope } from '../access/caller.js';

export type AccessRequestStatus = 'pending' | 'approved' | 'declined';

export interface AccessRequestRow {
  id: string;
  company_id: string;
  requester_user_id: string;
  module: string | null;
  /** JSON: [{ name, authority }] */
  permissions: string;
  reason: string;
  status: AccessRequestStatus;
  decided_by_user_id: string | null;
  decided_at: string | Date | null;
  granted_role_id: string | null;
  note: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export const accessRequestsOf = (db: Knex, scope: CompanyScope) => db<AccessRequestRow>('access_requests').where('access_requests.company_id', scope.companyId);

export async function findAccessRequest(db: Knex, scope: CompanyScope, id: string): Promise<AccessRequestRow | undefined> {
  return accessRequestsOf(db, scope).where('access_requests.id', id).first();
}

/** The requester's open request for exactly this, if they already asked. */
export async function findOpenRequest(db: Knex, scope: CompanyScope, requesterId: string, module: string | null, permissions: string): Promise<AccessRequestRow | undefined> {
  const query = accessRequestsOf(db, scope).where({ requester_user_id: requesterId, status: 'pending', permissions });
  if (module) query.andWhere('module', module);
  else query.whereNull('module');
  return query.first();
}

export async function listAccessRequestRows(db: Knex, scope: CompanyScope, filter: { status?: AccessRequestStatus; requesterId?: string }): Promise<AccessRequestRow[]> {
  const query = accessRequestsOf(db, scope);
  if (filter.status) query.andWhere('status', filter.status);
  if (filter.requesterId) query.andWhere('requester_user_id', filter.requesterId);
  return query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(500);
}

export async function insertAccessRequest(db: Knex, row: AccessRequestRow): Promise<void> {
  await db('access_requests').insert(row);
}

/** Records the decision if nobody decided first; false when someone did. */
export async function decideAccessRequest(
  db: Knex,
  scope: CompanyScope,
  id: string,
  decision: Pick<AccessRequestRow, 'status' | 'decided_by_user_id' | 'decided_at' | 'granted_role_id' | 'note' | 'updated_at'>,
): Promise<boolean> {
  const updated = await accessRequestsOf(db, scope).where({ id, status: 'pending' }).update(decision);
  return updated === 1;
}

export type RequesterKind = 'candidate' | 'manager' | 'employee' | 'user';

/** Who each person is to the company: a candidate, a manager (their employee record has active reports), an employee, or a user without a record. */
export async function requesterKinds(db: Knex, scope: CompanyScope, userIds: string[]): Promise<Map<string, RequesterKind>> {
  const kinds = new Map<string, RequesterKind>();
  if (!userIds.length) return kinds;
  const users = await db('users').where('company_id', scope.companyId).whereIn('id', userIds).select<{ id: string; is_candidate: boolean | number }[]>('id', 'is_candidate');
  const leads = await leadsByUser(db, scope, userIds);
  for (const user of users) {
    const lead = leads.get(user.id);
    kinds.set(user.id, user.is_candidate ? 'candidate' : lead === undefined ? 'user' : lead ? 'manager' : 'employee');
  }
  return kinds;
}
