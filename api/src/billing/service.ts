import { companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { HttpError, notFound } from '../kernel/errors.js';
import { invoiceRequestProvider } from './invoiceProvider.js';
import type { PaymentProvider } from './provider.js';
import { presentCheckoutRequest, presentPremium } from './present.js';
import { findCheckoutRequestRow, findOpenCheckoutRequest, findPremium, listCheckoutRequestRows, markFulfilled, switchPremiumOn, type CheckoutRequestStatus } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

/** The payment provider of this deployment: the invoice request, until a card provider is configured (docs/billing.md). */
export const paymentProvider: PaymentProvider = invoiceRequestProvider;

export const CHECKOUT_MESSAGES = {
  alreadyPremium: 'Your company already has premium benchmarking.',
  requestOpen: 'Your company has already asked for premium benchmarking; Paybench will send the invoice.',
  alreadyFulfilled: 'This request was already marked fulfilled.',
} as const;

export async function premiumBenchmarking(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['PremiumBenchmarking']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return presentPremium(await findPremium(db, scope), await findOpenCheckoutRequest(db, scope));
}

export async function createCheckoutSession(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['CheckoutSessionInput'], provider: PaymentProvider = paymentProvider): Promise<Schemas['CheckoutSession']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  if (await findPremium(db, scope)) throw new HttpError(409, 'already_premium', { message: CHECKOUT_MESSAGES.alreadyPremium });
  if (await findOpenCheckoutRequest(db, scope)) throw new HttpError(409, 'request_open', { message: CHECKOUT_MESSAGES.requestOpen });
  const company = await db('companies').where({ id: scope.companyId }).first<{ id: string; name: string } | undefined>('id', 'name');
  if (!company) throw notFound();
  const name = [caller.firstName, caller.lastName].filter(Boolean).join(' ') || caller.email;
  return provider.createCheckout(db, company, input.plan, { userId: caller.userId, name, email: caller.email });
}

export async function checkoutRequests(ctx: Pick<ServiceContext, 'db'>, status: CheckoutRequestStatus | undefined): Promise<Schemas['CheckoutRequest'][]> {
  const { db } = ctx;
  return (await listCheckoutRequestRows(db, status)).map(presentCheckoutRequest);
}

/** Paid: the request is fulfilled and its company has premium benchmarking from now on. */
export async function fulfilCheckout(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['CheckoutRequest']> {
  const { db, caller } = ctx;
  await db.transaction(async (trx) => {
    const row = await findCheckoutRequestRow(trx, id);
    if (!row) throw notFound();
    const at = new Date().toISOString();
    if (!(await markFulfilled(trx, id, caller.userId, at))) throw new HttpError(409, 'already_fulfilled', { message: CHECKOUT_MESSAGES.alreadyFulfilled });
    await switchPremiumOn(trx, { company_id: row.company_id, plan: row.plan, since: at, checkout_request_id: row.id });
  });
  const row = await findCheckoutRequestRow(db, id);
  if (!row) throw notFound();
  return presentCheckoutRequest(row);
}
