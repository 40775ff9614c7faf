import { can, secured } from '../../kernel/operations.js';
import { compareQueries, createSavedQuery, removeSavedQuery, replaceSavedQuery, runSavedQuery, savedQueries, savedQuery } from './service.js';

const view = can('benchmarking', 'view');
const edit = can('benchmarking', 'edit');

/** Saved report queries (edit to save, view to read) and comparing queries side by side. */
export const savedQueryOperations = [
  secured({
    operationId: 'listSavedReportQueries',
    access: view,
    handler: async (_input, ctx) => ({ data: await savedQueries(ctx) }),
  }),
  secured({
    operationId: 'createSavedReportQuery',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createSavedQuery(ctx, body) }),
  }),
  secured({
    operationId: 'getSavedReportQuery',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await savedQuery(ctx, path.savedQueryId) }),
  }),
  secured({
    operationId: 'updateSavedReportQuery',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await replaceSavedQuery(ctx, path.savedQueryId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteSavedReportQuery',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await removeSavedQuery(ctx, path.savedQueryId) }),
  }),
  secured({
    operationId: 'runSavedReportQuery',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await runSavedQuery(ctx, path.savedQueryId) }),
  }),
  secured({
    operationId: 'compareMarketData',
    access: view,
    handler: async ({ body }, ctx) => ({ data: await compareQueries(ctx, body) }),
  }),
];
