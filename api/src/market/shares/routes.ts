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
    handler: async (_input, { deps, caller }) => ({ data: await sharedSlices(deps.db, caller) }),
  }),
  secured({
    operationId: 'createSharedSlice',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await shareMarketData(deps, caller, body) }),
  }),
  secured({
    operationId: 'createExecutiveSharedSlice',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await shareExecutiveData(deps, caller, body) }),
  }),
  secured({
    operationId: 'revokeSharedSlice',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await revokeSlice(deps.db, caller, path.sliceId) }),
  }),
  secured({
    operationId: 'getSharedSlice',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await readSharedSlice(deps.db, caller, path.sliceId) }),
  }),
  secured({
    operationId: 'getExecutiveSharedSlice',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await readExecutiveSharedSlice(deps.db, caller, path.sliceId) }),
  }),
  ...collaboratorOperations,
];
