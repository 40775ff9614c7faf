import { can, secured } from '../kernel/operations.js';
import { askInsightsAgent, createAgentSession, deleteAgentSession, getAgentSession, listAgentSessions } from './service.js';

const use = can('dataLab', 'view');

export const insightsAgentOperations = [
  secured({
    operationId: 'listAgentSessions',
    access: use,
    handler: async (_input, ctx) => ({ data: await listAgentSessions(ctx) }),
  }),
  secured({
    operationId: 'createAgentSession',
    access: use,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createAgentSession(ctx, body?.title) }),
  }),
  secured({
    operationId: 'getAgentSession',
    access: use,
    handler: async ({ path }, ctx) => ({ data: await getAgentSession(ctx, path.sessionId) }),
  }),
  secured({
    operationId: 'deleteAgentSession',
    access: use,
    handler: async ({ path }, ctx) => ({ data: await deleteAgentSession(ctx, path.sessionId) }),
  }),
  secured({
    operationId: 'askInsightsAgent',
    access: use,
    handler: async ({ path, body }, ctx) => askInsightsAgent(ctx, ctx.koa, path.sessionId, body.content),
  }),
];
