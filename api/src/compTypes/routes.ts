import { can, colleague, secured } from '../kernel/operations.js';
import { getCompTypes, updateCompTypes } from './service.js';

export const compTypeOperations = [
  // Every member but a candidate: a candidate reads nothing of the company but their offer.
  secured({ operationId: 'getCompTypes', access: colleague, handler: async (_input, ctx) => ({ data: await getCompTypes(ctx) }), etag: ({ data }) => data.version }),
  secured({
    operationId: 'updateCompTypes',
    access: can('companySettings', 'edit'),
    handler: async ({ headers, body }, ctx) => ({ data: await updateCompTypes(ctx, headers['If-Match'], body.types) }),
    etag: ({ data }) => data.version,
  }),
];
