import { can, secured } from '../../kernel/operations.js';
import { locationInsights } from './locations.js';
import { offerInsights } from './offers.js';
import { equityPractices } from './practices.js';

const view = can('benchmarking', 'view');

/** Insights built on the market: location differentials, equity practices, offers, levelling. */
export const insightOperations = [
  secured({
    operationId: 'getLocationInsights',
    access: view,
    handler: async ({ body }, ctx) => ({ data: await locationInsights(ctx, body) }),
  }),
  secured({
    operationId: 'getEquityPractices',
    access: view,
    handler: async ({ body }, ctx) => ({ data: await equityPractices(ctx, body) }),
  }),
  secured({
    operationId: 'getOfferInsights',
    access: view,
    handler: async ({ body }, ctx) => ({ data: await offerInsights(ctx, body) }),
  }),
];
