import { operation, publicAccess } from '../kernel/operations.js';
import { health, readiness } from './service.js';

export const systemOperations = [
  operation({
    operationId: 'getHealth',
    access: publicAccess,
    handler: async (_input, ctx) => ({ data: await health(ctx) }),
  }),
  operation({
    operationId: 'getReadiness',
    access: publicAccess,
    handler: async (_input, ctx) => ({ data: readiness(ctx) }),
  }),
];
