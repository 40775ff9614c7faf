import { internalAdmin, secured } from '../../kernel/operations.js';
import { decide, quarantines } from './quarantine.js';

/** Internal admins: contributions the plausibility checks held back, and the decision on each. */
export const quarantineOperations = [
  secured({
    operationId: 'listMarketQuarantines',
    access: internalAdmin,
    handler: async (_input, ctx) => ({ data: await quarantines(ctx) }),
  }),
  secured({
    operationId: 'decideMarketQuarantine',
    access: internalAdmin,
    handler: async ({ path, body }, ctx) => ({ data: await decide(ctx, path.quarantineId, body) }),
  }),
];
