import { can, secured } from '../../kernel/operations.js';
import { createSsoConnection, deleteSsoConnection, getSsoConnection, listSsoConnections, updateSsoConnection } from './connections.js';

const view = can('companySettings', 'view');
const edit = can('companySettings', 'edit');

export const ssoOperations = [
  secured({
    operationId: 'listSsoConnections',
    access: view,
    handler: async (_input, ctx) => ({ data: await listSsoConnections(ctx) }),
  }),
  secured({
    operationId: 'createSsoConnection',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createSsoConnection(ctx, body) }),
  }),
  secured({
    operationId: 'getSsoConnection',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await getSsoConnection(ctx, path.ssoConnectionId) }),
  }),
  secured({
    operationId: 'updateSsoConnection',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({
      data: await updateSsoConnection(ctx, path.ssoConnectionId, headers['If-Match'], body),
    }),
  }),
  secured({
    operationId: 'deleteSsoConnection',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteSsoConnection(ctx, path.ssoConnectionId) }),
  }),
];
