import { can, secured } from '../../kernel/operations.js';
import { collaboratorOperations } from './collaboratorsRoutes.js';
import { readExecutiveSharedSlice, readSharedSlice, revokeSlice, shareExecutiveData, shareMarketData, sharedSlices } from './service.js';

const view = can('benchmarking', 'view');
const edit = can('benchmarking', 'edit');

/** Shared slices: sharing and revoking need benchmarking edit; reading needs view, in the same company. */
export const sharedSliceOperations = [
  secured({
    operationId: 'listSharedSlices',
    access: view,
    handler: async (_input, ctx) => ({ data: await sharedSlices(ctx) }),
  }),
  secured({
    operationId: 'createSharedSlice',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await shareMarketData(ctx, body) }),
  }),
  secured({
    operationId: 'createExecutiveSharedSlice',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await shareExecutiveData(ctx, body) }),
  }),
  secured({
    operationId: 'revokeSharedSlice',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await revokeSlice(ctx, path.sliceId) }),
  }),
  secured({
    operationId: 'getSharedSlice',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await readSharedSlice(ctx, path.sliceId) }),
  }),
  secured({
    operationId: 'getExecutiveSharedSlice',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await readExecutiveSharedSlice(ctx, path.sliceId) }),
  }),
  ...collaboratorOperations,
];
