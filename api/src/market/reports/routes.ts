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
    handler: async (_input, { deps, caller }) => ({ data: await marketDataReports(deps, caller) }),
  }),
  secured({
    operationId: 'startMarketDataReport',
    access: view,
    status: 202,
    handler: async ({ body }, { deps, caller, koa }) => ({ data: await startMarketDataReport(deps.db, deps, caller, body, socketIdOf(koa.get('x-socket-id'))) }),
  }),
  operation({
    operationId: 'getMarketingDataComposition',
    access: { kind: 'public' },
    handler: async (_input, { deps }) => ({ data: await marketingComposition(deps) }),
  }),
];
