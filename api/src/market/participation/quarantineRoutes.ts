import { internalAdmin, secured } from '../../kernel/operations.js';
import { decide, quarantines } from './quarantine.js';

/** Internal admins: contributions the plausibility checks held back, and the decision on each. */
export const quarantineOperations = [
  secured({
    operationId: 'listMarketQuarantines',
    access: internalAdmin,
    handler: async (_input, { deps }) => ({ data: await quarantines(deps.db) }),
  }),
  secured({
    operationId: 'decideMarketQuarantine',
    access: internalAdmin,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await decide(deps.db, caller, path.quarantineId, body) }),
  }),
];
