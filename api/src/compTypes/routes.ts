import { can, colleague, secured } from '../kernel/operations.js';
import { getCompTypes, updateCompTypes } from './service.js';

export const compTypeOperations = [
  // Every member but a candidate: a candidate reads nothing of the company but their offer.
  secured({ operationId: 'getCompTypes', access: colleague, handler: async (_input, { deps, caller }) => ({ data: await getCompTypes(deps.db, caller) }), etag: ({ data }) => data.version }),
  secured({
    operationId: 'updateCompTypes',
    access: can('companySettings', 'edit'),
    handler: async ({ headers, body }, { deps, caller }) => ({ data: await updateCompTypes(deps.db, caller, headers['If-Match'], body.types) }),
    etag: ({ data }) => data.version,
  }),
];
