import { can, internalAdmin, secured } from '../../kernel/operations.js';
import { participation, updateParticipation } from './service.js';
import { decideParticipantRequest, listParticipantRequests, releaseParticipants } from './verification.js';

/** The company's opt-in to contribute its employees to the market; internal admins verify participants. */
export const participationOperations = [
  secured({
    operationId: 'getMarketParticipation',
    access: can('benchmarking', 'view'),
    handler: async (_input, ctx) => ({ data: await participation(ctx) }),
  }),
  secured({
    operationId: 'updateMarketParticipation',
    access: can('benchmarking', 'edit'),
    handler: async ({ body }, ctx) => ({ data: await updateParticipation(ctx, body) }),
  }),
  secured({
    operationId: 'listMarketParticipantRequests',
    access: internalAdmin,
    handler: async (_input, ctx) => ({ data: await listParticipantRequests(ctx) }),
  }),
  secured({
    operationId: 'decideMarketParticipantRequest',
    access: internalAdmin,
    handler: async ({ path, body }, ctx) => ({ data: await decideParticipantRequest(ctx, path.companyId, body) }),
  }),
  secured({
    operationId: 'getMarketReleaseParticipants',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await releaseParticipants(ctx, path.releaseId) }),
  }),
];
