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
    handler: async (_input, ctx) => ({ data: await companySubscription(ctx) }),
  }),
  secured({
    operationId: 'getCompanyDataLabSubscription',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await subscriptionForSupport(ctx, path.companyId) }),
  }),
  secured({
    operationId: 'setCompanyDataLabSubscription',
    access: internalAdmin,
    handler: async ({ path, body }, ctx) => ({ data: await setSubscription(ctx, path.companyId, body) }),
  }),
  secured({
    operationId: 'listDataLabInsights',
    access: view,
    handler: async ({ query }, ctx) => ({ data: await listInsights(ctx, query.include) }),
  }),
  secured({
    operationId: 'recomputeDataLabInsights',
    access: edit,
    status: 202,
    handler: async (_input, ctx) => ({ data: await startRecompute(ctx, socketIdOf(ctx.koa.get('x-socket-id'))) }),
  }),
  secured({
    operationId: 'setDataLabInsightState',
    access: view,
    handler: async ({ path, body }, ctx) => ({ data: await setInsightState(ctx, path.insightKey, body) }),
  }),
  secured({
    operationId: 'listDataLabBookmarks',
    access: view,
    handler: async (_input, ctx) => ({ data: await bookmarks(ctx) }),
  }),
  secured({
    operationId: 'createDataLabBookmark',
    access: view,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createBookmark(ctx, body) }),
  }),
  secured({
    operationId: 'updateDataLabBookmark',
    access: view,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateBookmark(ctx, path.bookmarkId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteDataLabBookmark',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await deleteBookmark(ctx, path.bookmarkId) }),
  }),
];
