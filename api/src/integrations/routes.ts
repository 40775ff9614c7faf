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
    handler: async (_input, ctx) => ({ data: await listIntegrations(ctx) }),
  }),
  secured({
    operationId: 'connectIntegration',
    access: can('integrations', 'edit'),
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await connect(ctx, body, ctx.log) }),
  }),
  secured({
    operationId: 'getIntegration',
    access: can('integrations', 'view'),
    handler: async ({ path }, ctx) => ({ data: await getIntegration(ctx, path.integrationId) }),
  }),
  secured({
    operationId: 'configureIntegration',
    access: can('integrations', 'edit'),
    handler: async ({ path, body }, ctx) => ({ data: await configure(ctx, path.integrationId, body, ctx.log) }),
  }),
  secured({
    operationId: 'disconnectIntegration',
    access: can('integrations', 'edit'),
    handler: async ({ path, query }, ctx) => ({ data: await disconnect(ctx, path.integrationId, query.keptValues) }),
  }),
  secured({
    operationId: 'testIntegration',
    access: can('integrations', 'edit'),
    handler: async ({ path }, ctx) => ({ data: await testConnection(ctx, path.integrationId, ctx.log) }),
  }),
  secured({
    operationId: 'listIntegrationSyncs',
    access: can('integrations', 'view'),
    handler: async ({ path, query }, ctx) => ({ data: await listSyncs(ctx, path.integrationId, query.limit) }),
  }),
  secured({
    operationId: 'syncIntegration',
    access: can('integrations', 'edit'),
    status: 202,
    handler: async ({ path, body }, ctx) => ({ data: await syncNow(ctx, { id: path.integrationId, dryRun: body?.dryRun, originSocketId: socketIdOf(ctx.koa.get('x-socket-id')), afterCommit: ctx.afterCommit }) }),
  }),
];
