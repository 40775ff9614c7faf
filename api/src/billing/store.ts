import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { PremiumPlan } from './provider.js';

export type CheckoutRequestStatus = 'requested' | 'fulfilled';

export interface CheckoutRequestRow {
  id: string;
  company_id: string;
  reference: string;
  provider: string;
  plan: PremiumPlan;
  requested_by_user_id: string | null;
  requested_by_name: string;
  invoice_to: string;
  requested_at: string | Date;
  status: CheckoutRequestStatus;
  fulfilled_at: string | Date | null;
  fulfilled_by_user_id: string | null;
}

export interface CheckoutRequestListRow extends CheckoutRequestRow {
  company_name: string;
  fulfilled_by_first_name: string | null;
  fulfilled_by_last_name: string | null;
}

export interface PremiumRow {
  company_id: string;
  plan: PremiumPlan;
  since: string | Date;
  checkout_request_id: string | null;
}

export async function insertCheckoutRequest(db: Knex, row: CheckoutRequestRow): Promise<void> {
  await db('billing_checkout_requests').insert(row);
}

export async function findOpenCheckoutRequest(db: Knex, scope: CompanyScope): Promise<CheckoutRequestRow | undefined> {
  return db<CheckoutRequestRow>('billing_checkout_requests').where({ company_id: scope.companyId, status: 'requested' }).orderBy('requested_at', 'desc').first();
}

export async function findPremium(db: Knex, scope: CompanyScope): Promise<PremiumRow | undefined> {
  return db<PremiumRow>('company_premium_benchmarking').where({ company_id: scope.companyId }).first();
}

/** Every company's requests, for internal admins only: newest first. */
function listQuery(db: Knex) {
  return db('billing_checkout_requests as r')
    .join('companies as c', 'c.id', 'r.company_id')
    .leftJoin('users as f', 'f.id', 'r.fulfilled_by_user_id')
    .select<CheckoutRequestListRow[]>('r.*', 'c.name as company_name', 'f.first_name as fulfilled_by_first_name', 'f.last_name as fulfilled_by_last_name');
}

export async function listCheckoutRequestRows(db: Knex, status: CheckoutRequestStatus | undefined): Promise<CheckoutRequestListRow[]> {
  const query = listQuery(db).orderBy('r.requested_at', 'desc').orderBy('r.id', 'desc');
  if (status) void query.where('r.status', status);
  return query;
}

export async function findCheckoutRequestRow(db: Knex, id: string): Promise<CheckoutRequestListRow | undefined> {
  return listQuery(db).where('r.id', id).first();
}

/** Marks it fulfilled only if it is still open; true when this call did. */
export async function markFulfilled(db: Knex, id: string, by: string, at: string): Promise<boolean> {
  const changed = await db('billing_checkout_requests').where({ id, status: 'requested' }).update({ status: 'fulfilled', fulfilled_at: at, fulfilled_by_user_id: by });
  return changed === 1;
}

export async function switchPremiumOn(db: Knex, row: PremiumRow): Promise<void> {
  await db('company_premium_benchmarking').insert(row).onConflict('company_id').merge(['plan', 'checkout_request_id']);
}
