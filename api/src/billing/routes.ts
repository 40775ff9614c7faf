import { can, internalAdmin, secured } from '../kernel/operations.js';
import { checkoutRequests, createCheckoutSession, fulfilCheckout, premiumBenchmarking } from './service.js';

/** Buying premium benchmarking needs benchmarking edit; the invoice requests are for internal admins. */
export const billingOperations = [
  secured({
    operationId: 'getPremiumBenchmarking',
    access: can('benchmarking', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await premiumBenchmarking(deps.db, caller) }),
  }),
  secured({
    operationId: 'createCheckoutSession',
    access: can('benchmarking', 'edit'),
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createCheckoutSession(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'listCheckoutRequests',
    access: internalAdmin,
    handler: async ({ query }, { deps }) => ({ data: await checkoutRequests(deps.db, query.status) }),
  }),
  secured({
    operationId: 'fulfilCheckoutRequest',
    access: internalAdmin,
    handler: async ({ path }, { deps, caller }) => ({ data: await fulfilCheckout(deps.db, caller, path.checkoutRequestId) }),
  }),
];
