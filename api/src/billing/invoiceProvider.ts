import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { newId } from '../db/ids.js';
import type { CheckoutCaller, CheckoutCompany, CheckoutSession, PaymentProvider, PremiumPlan } from './provider.js';
import { insertCheckoutRequest } from './store.js';

/** A reference people can read out on the phone: PB- and eight letters or digits. */
export const newReference = (): string => `PB-${randomBytes(4).toString('hex').toUpperCase()}`;

/**
 * The provider every deployment has: no card is taken; the request is recorded for Paybench
 * staff, who send an invoice to the buyer and mark the request fulfilled once it is paid.
 */
export const invoiceRequestProvider: PaymentProvider = {
  name: 'invoice',
  async createCheckout(db: Knex, company: CheckoutCompany, plan: PremiumPlan, caller: CheckoutCaller): Promise<CheckoutSession> {
    const requestedAt = new Date().toISOString();
    const reference = newReference();
    await insertCheckoutRequest(db, {
      id: newId(),
      company_id: company.id,
      reference,
      provider: 'invoice',
      plan,
      requested_by_user_id: caller.userId,
      requested_by_name: caller.name,
      invoice_to: caller.email,
      requested_at: requestedAt,
      status: 'requested',
      fulfilled_at: null,
      fulfilled_by_user_id: null,
    });
    return { kind: 'invoiceRequested', reference, invoiceTo: caller.email, plan, requestedAt };
  },
};
