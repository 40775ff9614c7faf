import { operation, publicAccess } from '../kernel/operations.js';
import { presentCurrency } from './present.js';
import { listCurrencies } from './store.js';

export const currencyOperations = [
  operation({
    operationId: 'listCurrencies',
    access: publicAccess,
    handler: async (_input, { deps }) => ({ data: (await listCurrencies(deps.db)).map(presentCurrency) }),
  }),
];
