import { can, secured } from '../kernel/operations.js';
import { askInsightsAgent, createAgentSession, deleteAgentSession, getAgentSession, listAgentSessions } from './service.js';

const use = can('dataLab', 'view');

export const insightsAgentOperations = [
  secured({
    operationId: 'listAgentSessions',
    access: use,
    handler: async (_input, { deps, caller }) => ({ data: await listAgentSessions(deps, caller) }),
  }),
  secured({
    operationId: 'createAgentSession',
    access: use,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createAgentSession(deps, caller, body?.title) }),
  }),
  secured({
    operationId: 'getAgentSession',
    access: use,
    handler: async ({ path }, { deps, caller }) => ({ data: await getAgentSession(deps, caller, path.sessionId) }),
  }),
  secured({
    operationId: 'deleteAgentSession',
    access: use,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteAgentSession(deps, caller, path.sessionId) }),
  }),
  secured({
    operationId: 'askInsightsAgent',
    access: use,
    handler: async ({ path, body }, { deps, caller, koa }) => askInsightsAgent(deps, caller, koa, path.sessionId, body.content),
  }),
];
