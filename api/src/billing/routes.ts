import { can, internalAdmin, secured } from '../kernel/operations.js';
import { checkoutRequests, createCheckoutSession, fulfilCheckout, premiumBenchmarking } from './service.js';

/** Buying premium benchmarking needs benchmarking edit; the invoice requests are for internal admins. */
export const billingOperations = [
  secured({
    operationId: 'getPremiumBenchmarking',
    access: can('benchmarking', 'view'),
    handler: async (_input, ctx) => ({ data: await premiumBenchmarking(ctx) }),
  }),
  secured({
    operationId: 'createCheckoutSession',
    access: can('benchmarking', 'edit'),
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createCheckoutSession(ctx, body) }),
  }),
  secured({
    operationId: 'listCheckoutRequests',
    access: internalAdmin,
    handler: async ({ query }, ctx) => ({ data: await checkoutRequests(ctx, query.status) }),
  }),
  secured({
    operationId: 'fulfilCheckoutRequest',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await fulfilCheckout(ctx, path.checkoutRequestId) }),
  }),
];
