import { can, secured } from '../../kernel/operations.js';
import { createSsoConnection, deleteSsoConnection, getSsoConnection, listSsoConnections, updateSsoConnection } from './connections.js';

const view = can('companySettings', 'view');
const edit = can('companySettings', 'edit');

export const ssoOperations = [
  secured({
    operationId: 'listSsoConnections',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await listSsoConnections(deps, caller) }),
  }),
  secured({
    operationId: 'createSsoConnection',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createSsoConnection(deps, caller, body) }),
  }),
  secured({
    operationId: 'getSsoConnection',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await getSsoConnection(deps, caller, path.ssoConnectionId) }),
  }),
  secured({
    operationId: 'updateSsoConnection',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({
      data: await updateSsoConnection(deps, caller, path.ssoConnectionId, headers['If-Match'], body),
    }),
  }),
  secured({
    operationId: 'deleteSsoConnection',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteSsoConnection(deps, caller, path.ssoConnectionId) }),
  }),
];
