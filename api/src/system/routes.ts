import { operation, publicAccess } from '../kernel/operations.js';
import { health } from './service.js';

export const systemOperations = [
  operation({
    operationId: 'getHealth',
    access: publicAccess,
    handler: async (_input, { deps }) => ({ data: await health(deps) }),
  }),
];
