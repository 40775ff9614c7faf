import { can, secured } from '../../kernel/operations.js';
import { levelYourEmployees } from './service.js';

export const levellingOperations = [
  secured({
    operationId: 'levelYourEmployees',
    access: can('benchmarking', 'view'),
    handler: async ({ query }, ctx) => levelYourEmployees(ctx, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) }),
  }),
];
