import { operation, publicAccess } from '../kernel/operations.js';
import { health, readiness } from './service.js';

export const systemOperations = [
  operation({
    operationId: 'getHealth',
    access: publicAccess,
    handler: async (_input, { deps }) => ({ data: await health(deps) }),
  }),
  operation({
    operationId: 'getReadiness',
    access: publicAccess,
    handler: async (_input, { deps }) => ({ data: readiness(deps) }),
  }),
];
