import { can, secured, signedIn } from '../http/operations.js';
import { found } from '../http/errors.js';
import { startJob } from '../jobs/service.js';
import { socketIdOf } from '../realtime/socketId.js';
import { permissionGroups } from './permissions.js';
import { usersExportJob } from './usersExport.js';
import { createUser, getUser, guests, listUsers, removeUser, roles, saveRole, setRoles, userFilterValues, usersInRole } from './service.js';

export const accessOperations = [
  secured({
    operationId: 'startUsersExport',
    access: can('users', 'view'),
    status: 202,
    handler: async (_input, { deps, caller, koa }) => ({
      data: await startJob(deps.jobs, caller, usersExportJob, {}, socketIdOf(koa.get('x-socket-id'))),
    }),
  }),
  secured({
    operationId: 'listRoles',
    access: can('roles', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await roles(deps.db, caller) }),
  }),
  secured({
    operationId: 'saveRole',
    access: can('roles', 'edit'),
    handler: async ({ body }, { deps, caller }) => ({ data: await saveRole(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'listUsersInRole',
    access: can('roles', 'view'),
    handler: async ({ path }, { deps, caller }) => ({ data: await usersInRole(deps.db, caller, path.roleId) }),
  }),
  secured({
    operationId: 'listPermissionGroups',
    access: signedIn,
    handler: async () => ({ data: permissionGroups() }),
  }),
  secured({
    operationId: 'listUsers',
    access: can('users', 'view'),
    handler: async ({ query }, { deps, caller }) => {
      const page = await listUsers(deps.db, caller, query);
      return { data: page.users, page: { limit: query.limit, nextCursor: page.nextCursor } };
    },
  }),
  secured({
    operationId: 'createUser',
    access: can('users', 'edit'),
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: found(await createUser(deps.db, caller, body)) }),
  }),
  secured({
    operationId: 'getUserFilterValues',
    access: can('users', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await userFilterValues(deps.db, caller) }),
  }),
  secured({
    operationId: 'listGuests',
    access: can('users', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await guests(deps.db, caller) }),
  }),
  secured({
    operationId: 'getUser',
    access: can('users', 'view'),
    handler: async ({ path }, { deps, caller }) => ({ data: found(await getUser(deps.db, caller, path.userId)) }),
  }),
  secured({
    operationId: 'removeUser',
    access: can('users', 'edit'),
    handler: async ({ path }, ctx) => ({ data: found(await removeUser(ctx, path.userId)) }),
  }),
  secured({
    operationId: 'setRoleForPerson',
    access: can('roles', 'edit'),
    handler: async ({ path, body }, { deps, caller }) => ({ data: found(await setRoles(deps.db, caller, path.userId, body.roleIds)) }),
  }),
];
