import { can, secured } from '../../kernel/operations.js';
import { levelYourEmployees } from './service.js';

export const levellingOperations = [
  secured({
    operationId: 'levelYourEmployees',
    access: can('benchmarking', 'view'),
    handler: async ({ query }, { deps, caller }) => levelYourEmployees(deps, caller, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) }),
  }),
];
