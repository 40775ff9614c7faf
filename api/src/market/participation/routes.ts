import { can, internalAdmin, secured } from '../../kernel/operations.js';
import { participation, updateParticipation } from './service.js';
import { decideParticipantRequest, listParticipantRequests, releaseParticipants } from './verification.js';

/** The company's opt-in to contribute its employees to the market; internal admins verify participants. */
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
  secured({
    operationId: 'listMarketParticipantRequests',
    access: internalAdmin,
    handler: async (_input, { deps }) => ({ data: await listParticipantRequests(deps.db) }),
  }),
  secured({
    operationId: 'decideMarketParticipantRequest',
    access: internalAdmin,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await decideParticipantRequest(deps.db, caller, path.companyId, body) }),
  }),
  secured({
    operationId: 'getMarketReleaseParticipants',
    access: internalAdmin,
    handler: async ({ path }, { deps }) => ({ data: await releaseParticipants(deps.db, path.releaseId) }),
  }),
];
