import { can, operation, secured } from '../../kernel/operations.js';
import { socketIdOf } from '../../kernel/socketId.js';
import { marketingComposition } from './composition.js';
import { marketDataReports, startMarketDataReport } from './service.js';

const view = can('benchmarking', 'view');

/** Market-data reports and the composition shown to people without benchmarking. */
export const reportOperations = [
  secured({
    operationId: 'listMarketDataReports',
    access: view,
    handler: async (_input, ctx) => ({ data: await marketDataReports(ctx) }),
  }),
  secured({
    operationId: 'startMarketDataReport',
    access: view,
    status: 202,
    handler: async ({ body }, ctx) => ({ data: await startMarketDataReport(ctx, ctx.deps, ctx.caller, body, socketIdOf(ctx.koa.get('x-socket-id'))) }),
  }),
  operation({
    operationId: 'getMarketingDataComposition',
    access: { kind: 'public' },
    handler: async (_input, ctx) => ({ data: await marketingComposition(ctx) }),
  }),
];
