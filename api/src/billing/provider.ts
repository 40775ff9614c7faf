import type { Knex } from 'knex';
import type { components } from '../contract-types.js';

export type PremiumPlan = components['schemas']['PremiumPlan'];
export type CheckoutSession = components['schemas']['CheckoutSession'];

/** Who is buying: the company and the person asking, as the provider needs them. */
export interface CheckoutCompany {
  id: string;
  name: string;
}

export interface CheckoutCaller {
  userId: string;
  name: string;
  email: string;
}

/**
 * A way to take payment for premium benchmarking. A provider either sends the buyer to its own
 * page (`redirect`, e.g. a hosted card checkout) or records a request Paybench staff invoice
 * (`invoiceRequested`). Whichever it is, premium is switched on by `fulfilCheckout` once paid:
 * by an internal admin for invoices, by the provider's payment notification for a hosted checkout.
 */
export interface PaymentProvider {
  /** Stored with every request it records. */
  readonly name: string;
  createCheckout(db: Knex, company: CheckoutCompany, plan: PremiumPlan, caller: CheckoutCaller): Promise<CheckoutSession>;
}
