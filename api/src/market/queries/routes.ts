import { can, secured } from '../../kernel/operations.js';
import { compareQueries, createSavedQuery, removeSavedQuery, replaceSavedQuery, runSavedQuery, savedQueries, savedQuery } from './service.js';

const view = can('benchmarking', 'view');
const edit = can('benchmarking', 'edit');

/** Saved report queries (edit to save, view to read) and comparing queries side by side. */
export const savedQueryOperations = [
  secured({
    operationId: 'listSavedReportQueries',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await savedQueries(deps.db, caller) }),
  }),
  secured({
    operationId: 'createSavedReportQuery',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createSavedQuery(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'getSavedReportQuery',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await savedQuery(deps.db, caller, path.savedQueryId) }),
  }),
  secured({
    operationId: 'updateSavedReportQuery',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await replaceSavedQuery(deps.db, caller, path.savedQueryId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteSavedReportQuery',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await removeSavedQuery(deps.db, caller, path.savedQueryId) }),
  }),
  secured({
    operationId: 'runSavedReportQuery',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await runSavedQuery(deps, caller, path.savedQueryId) }),
  }),
  secured({
    operationId: 'compareMarketData',
    access: view,
    handler: async ({ body }, { deps, caller }) => ({ data: await compareQueries(deps, caller, body) }),
  }),
];
