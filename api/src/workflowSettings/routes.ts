import { can, secured } from '../kernel/operations.js';
import { exportChains, importChains } from './chainsFile.js';
import { getWorkflowSettings, updateWorkflowSettings } from './service.js';

const view = can('companySettings', 'view');
const edit = can('companySettings', 'edit');

export const workflowSettingsOperations = [
  secured({
    operationId: 'getWorkflowSettings',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await getWorkflowSettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateWorkflowSettings',
    access: edit,
    handler: async ({ headers, body }, { deps, caller }) => ({ data: await updateWorkflowSettings(deps.db, caller, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'importMeritApprovalChains',
    access: edit,
    handler: async ({ query, headers, body }, { deps, caller }) => ({ data: await importChains(deps.db, caller, query, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'exportMeritApprovalChains',
    access: view,
    status: 201,
    handler: async ({ query }, { deps, caller }) => ({ data: await exportChains(deps, caller, query.meritCycleId) }),
  }),
];
