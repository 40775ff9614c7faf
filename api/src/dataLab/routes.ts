import { can, internalAdmin, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import {
  bookmarks,
  companySubscription,
  createBookmark,
  deleteBookmark,
  listInsights,
  setInsightState,
  setSubscription,
  startRecompute,
  subscriptionForSupport,
  updateBookmark,
} from './service.js';

const view = can('dataLab', 'view');
const edit = can('dataLab', 'edit');

export const dataLabOperations = [
  secured({
    operationId: 'getDataLabSubscription',
    access: can('dataLab', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await companySubscription(deps.db, caller) }),
  }),
  secured({
    operationId: 'getCompanyDataLabSubscription',
    access: internalAdmin,
    handler: async ({ path }, { deps }) => ({ data: await subscriptionForSupport(deps.db, path.companyId) }),
  }),
  secured({
    operationId: 'setCompanyDataLabSubscription',
    access: internalAdmin,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await setSubscription(deps, caller, path.companyId, body) }),
  }),
  secured({
    operationId: 'listDataLabInsights',
    access: view,
    handler: async ({ query }, { deps, caller }) => ({ data: await listInsights(deps.db, caller, query.include) }),
  }),
  secured({
    operationId: 'recomputeDataLabInsights',
    access: edit,
    status: 202,
    handler: async (_input, { deps, caller, koa }) => ({ data: await startRecompute(deps, caller, socketIdOf(koa.get('x-socket-id'))) }),
  }),
  secured({
    operationId: 'setDataLabInsightState',
    access: view,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await setInsightState(deps.db, caller, path.insightKey, body) }),
  }),
  secured({
    operationId: 'listDataLabBookmarks',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await bookmarks(deps.db, caller) }),
  }),
  secured({
    operationId: 'createDataLabBookmark',
    access: view,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createBookmark(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'updateDataLabBookmark',
    access: view,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateBookmark(deps.db, caller, path.bookmarkId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteDataLabBookmark',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteBookmark(deps.db, caller, path.bookmarkId) }),
  }),
];
