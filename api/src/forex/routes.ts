import { operation, publicAccess } from '../http/operations.js';
import { convert, history, latestTable } from './service.js';

export const forexOperations = [
  operation({
    operationId: 'getLatestForexRates',
    access: publicAccess,
    handler: async ({ query }, { deps }) => ({ data: await latestTable(deps.db, query.base ?? 'USD') }),
  }),
  operation({
    operationId: 'listForexRateHistory',
    access: publicAccess,
    handler: async ({ query }, { deps }) => {
      const limit = query.limit ?? 50;
      const page = await history(deps.db, { ...query, base: query.base ?? 'USD', limit });
      return { data: page.rates, page: { limit, nextCursor: page.nextCursor } };
    },
  }),
  operation({
    operationId: 'convertMoney',
    access: publicAccess,
    handler: async ({ body }, { deps }) => ({ data: await convert(deps.db, body) }),
  }),
];
