import { can, secured } from '../../kernel/operations.js';
import { checkedExecutiveRequest, executiveMarketData, searchExecutiveTitles } from './service.js';

const view = can('benchmarking', 'view');

/** Executive compensation: market data by title, and fuzzy title search. */
export const executiveOperations = [
  secured({
    operationId: 'queryExecutiveCompData',
    access: view,
    handler: async ({ body }, ctx) => ({ data: await executiveMarketData(ctx, checkedExecutiveRequest(body)) }),
  }),
  secured({
    operationId: 'searchExecutiveTitles',
    access: view,
    handler: async ({ query }) => ({ data: searchExecutiveTitles(query.search) }),
  }),
];
