import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/* Pay transparency's own tables: requests, settings, yearly notices. People are read through people/reads/payTransparency.ts. */

export interface RequestRow {
  id: string;
  company_id: string;
  employee_id: string;
  requester_user_id: string;
  state: string;
  message: string | null;
  filed_on: string;
  due_on: string;
  reminder_on: string;
  answer: string;
  note: string | null;
  reminded_at: string | Date | null;
  delivered_at: string | Date | null;
  version: number | string;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface SettingsRow {
  company_id: string;
  criteria: string;
  publication_minimum: number | string;
  updated_by: string | null;
  version: number | string;
  updated_at: string | Date;
}

export interface NoticeRow {
  id: string;
  company_id: string;
  year: number | string;
  trigger: string;
  sent_by: string | null;
  recipients: number | string;
  sent_at: string | Date;
}

export const requestsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('pay_information_requests').where('company_id', scope.companyId);

export async function findRequest(db: Knex, scope: CompanyScope, id: string): Promise<RequestRow | undefined> {
  return (await requestsOf(db, scope).andWhere({ id }).first()) as RequestRow | undefined;
}

export async function listRequests(db: Knex, scope: CompanyScope, filter: { requesterUserId?: string } = {}): Promise<RequestRow[]> {
  const query = requestsOf(db, scope);
  if (filter.requesterUserId) query.andWhere('requester_user_id', filter.requesterUserId);
  // Waiting ones first, the nearest due date first; delivered ones after, the latest first.
  return (await query.orderByRaw("case when state = 'review' then 0 else 1 end").orderBy([{ column: 'due_on' }, { column: 'created_at', order: 'desc' }, { column: 'id' }])) as RequestRow[];
}

export async function openRequestOf(db: Knex, scope: CompanyScope, requesterUserId: string): Promise<RequestRow | undefined> {
  return (await requestsOf(db, scope).andWhere({ requester_user_id: requesterUserId, state: 'review' }).first()) as RequestRow | undefined;
}

export async function insertRequest(db: Knex, row: RequestRow): Promise<void> {
  await db('pay_information_requests').insert(row);
}

export async function findSettingsRow(db: Knex, scope: CompanyScope): Promise<SettingsRow | undefined> {
  return (await db('pay_transparency_settings').where('company_id', scope.companyId).first()) as SettingsRow | undefined;
}

export const settingsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('pay_transparency_settings').where('company_id', scope.companyId);

export async function insertSettingsRow(db: Knex, row: SettingsRow): Promise<void> {
  await db('pay_transparency_settings').insert(row);
}

export async function listNotices(db: Knex, scope: CompanyScope): Promise<NoticeRow[]> {
  return (await db('pay_transparency_notices').where('company_id', scope.companyId).orderBy('year', 'desc')) as NoticeRow[];
}

export async function findNotice(db: Knex, scope: CompanyScope, year: number): Promise<NoticeRow | undefined> {
  return (await db('pay_transparency_notices').where({ company_id: scope.companyId, year }).first()) as NoticeRow | undefined;
}

export async function insertNotice(db: Knex, row: NoticeRow): Promise<void> {
  await db('pay_transparency_notices').insert(row);
}

/** A worker's request for clarification of a delivered answer (Art. 7(5)), and HR's reasoned reply. */
export interface ClarificationRow {
  id: string;
  company_id: string;
  request_id: string;
  state: string;
  question: string;
  asked_on: string;
  due_on: string;
  reminder_on: string;
  reply: string | null;
  answer: string | null;
  replied_by: string | null;
  replied_at: string | Date | null;
  reminded_at: string | Date | null;
  version: number | string;
  created_at: string | Date;
  updated_at: string | Date;
}

export const clarificationsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('pay_information_clarifications').where('company_id', scope.companyId);

/** The clarifications of the requests, oldest first, by request. */
export async function clarificationsByRequest(db: Knex, scope: CompanyScope, requestIds: readonly string[]): Promise<Map<string, ClarificationRow[]>> {
  const byRequest = new Map<string, ClarificationRow[]>();
  if (!requestIds.length) return byRequest;
  const rows = (await clarificationsOf(db, scope).whereIn('request_id', [...new Set(requestIds)]).orderBy([{ column: 'created_at' }, { column: 'id' }])) as ClarificationRow[];
  for (const row of rows) byRequest.set(row.request_id, [...(byRequest.get(row.request_id) ?? []), row]);
  return byRequest;
}

export async function findClarification(db: Knex, scope: CompanyScope, requestId: string, id: string): Promise<ClarificationRow | undefined> {
  return (await clarificationsOf(db, scope).andWhere({ request_id: requestId, id }).first()) as ClarificationRow | undefined;
}

export async function findClarificationById(db: Knex, scope: CompanyScope, id: string): Promise<ClarificationRow | undefined> {
  return (await clarificationsOf(db, scope).andWhere({ id }).first()) as ClarificationRow | undefined;
}

export async function openClarificationOf(db: Knex, scope: CompanyScope, requestId: string): Promise<ClarificationRow | undefined> {
  return (await clarificationsOf(db, scope).andWhere({ request_id: requestId, state: 'open' }).first()) as ClarificationRow | undefined;
}

export async function insertClarification(db: Knex, row: ClarificationRow): Promise<void> {
  await db('pay_information_clarifications').insert(row);
}
