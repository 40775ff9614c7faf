import { operation, publicAccess } from '../kernel/operations.js';
import { currencies } from './service.js';

export const currencyOperations = [
  operation({
    operationId: 'listCurrencies',
    access: publicAccess,
    handler: async (_input, ctx) => ({ data: await currencies(ctx) }),
  }),
];
