import { can, secured } from '../kernel/operations.js';
import { exportChains, importChains } from './chainsFile.js';
import { getWorkflowSettings, updateWorkflowSettings } from './service.js';

const view = can('companySettings', 'view');
const edit = can('companySettings', 'edit');

export const workflowSettingsOperations = [
  secured({
    operationId: 'getWorkflowSettings',
    access: view,
    handler: async (_input, ctx) => ({ data: await getWorkflowSettings(ctx) }),
  }),
  secured({
    operationId: 'updateWorkflowSettings',
    access: edit,
    handler: async ({ headers, body }, ctx) => ({ data: await updateWorkflowSettings(ctx, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'importMeritApprovalChains',
    access: edit,
    handler: async ({ query, headers, body }, ctx) => ({ data: await importChains(ctx, query, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'exportMeritApprovalChains',
    access: view,
    status: 201,
    handler: async ({ query }, ctx) => ({ data: await exportChains(ctx, query.meritCycleId) }),
  }),
];
