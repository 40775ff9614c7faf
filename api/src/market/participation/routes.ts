import { can, secured } from '../../http/operations.js';
import { participation, updateParticipation } from './service.js';

/** The company's opt-in to contribute its employees to the market. */
export const participationOperations = [
  secured({
    operationId: 'getMarketParticipation',
    access: can('benchmarking', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await participation(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateMarketParticipation',
    access: can('benchmarking', 'edit'),
    handler: async ({ body }, { deps, caller }) => ({ data: await updateParticipation(deps.db, caller, body) }),
  }),
];
