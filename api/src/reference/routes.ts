import { operation, publicAccess } from '../kernel/operations.js';
import { listStockExchanges } from './stockExchanges.js';

export const referenceOperations = [
  operation({
    operationId: 'listStockExchanges',
    access: publicAccess,
    handler: async ({ query }) => ({ data: listStockExchanges(query.country) }),
  }),
];
