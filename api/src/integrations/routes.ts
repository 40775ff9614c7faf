import { can, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { configure, connect, disconnect, getIntegration, listConnectors, listIntegrations, listSyncs, syncNow, testConnection } from './service.js';

export const integrationOperations = [
  secured({
    operationId: 'listIntegrationConnectors',
    access: can('integrations', 'view'),
    handler: async () => ({ data: listConnectors() }),
  }),
  secured({
    operationId: 'listIntegrations',
    access: can('integrations', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await listIntegrations(deps.db, caller) }),
  }),
  secured({
    operationId: 'connectIntegration',
    access: can('integrations', 'edit'),
    status: 201,
    handler: async ({ body }, { deps, caller, log }) => ({ data: await connect(deps, caller, body, log) }),
  }),
  secured({
    operationId: 'getIntegration',
    access: can('integrations', 'view'),
    handler: async ({ path }, { deps, caller }) => ({ data: await getIntegration(deps.db, caller, path.integrationId) }),
  }),
  secured({
    operationId: 'configureIntegration',
    access: can('integrations', 'edit'),
    handler: async ({ path, body }, { deps, caller, log }) => ({ data: await configure(deps, caller, path.integrationId, body, log) }),
  }),
  secured({
    operationId: 'disconnectIntegration',
    access: can('integrations', 'edit'),
    handler: async ({ path, query }, { deps, caller }) => ({ data: await disconnect(deps, caller, path.integrationId, query.keptValues) }),
  }),
  secured({
    operationId: 'testIntegration',
    access: can('integrations', 'edit'),
    handler: async ({ path }, { deps, caller, log }) => ({ data: await testConnection(deps, caller, path.integrationId, log) }),
  }),
  secured({
    operationId: 'listIntegrationSyncs',
    access: can('integrations', 'view'),
    handler: async ({ path, query }, { deps, caller }) => ({ data: await listSyncs(deps.db, caller, path.integrationId, query.limit) }),
  }),
  secured({
    operationId: 'syncIntegration',
    access: can('integrations', 'edit'),
    status: 202,
    handler: async ({ path, body }, { deps, caller, koa, afterCommit }) => ({ data: await syncNow(deps, caller, { id: path.integrationId, dryRun: body?.dryRun, originSocketId: socketIdOf(koa.get('x-socket-id')), afterCommit }) }),
  }),
];
