import { can, member, secured, signedIn } from '../kernel/operations.js';
import { found } from '../kernel/errors.js';
import { startJob } from '../jobs/service.js';
import { inviteNewUser } from '../identity/invitationService.js';
import { socketIdOf } from '../kernel/socketId.js';
import { approveAccessRequest, createAccessRequest, declineAccessRequest, listAccessRequests, myAccessRequests } from './accessRequests.js';
import { permissionGroups } from '../access/permissions.js';
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
    handler: async ({ body }, ctx) => {
      const user = found(await createUser(ctx.deps.db, ctx.caller, body));
      if (body.invite) await inviteNewUser(ctx, { id: user.id, email: user.email, firstName: user.firstName, isCandidate: user.isCandidate });
      return { data: user };
    },
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
  secured({
    operationId: 'createAccessRequest',
    access: member,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: found(await createAccessRequest(deps.db, caller, body)) }),
  }),
  secured({
    operationId: 'listMyAccessRequests',
    access: member,
    handler: async (_input, { deps, caller }) => ({ data: await myAccessRequests(deps.db, caller) }),
  }),
  secured({
    operationId: 'listAccessRequests',
    access: can('roles', 'edit'),
    handler: async ({ query }, { deps, caller }) => ({ data: await listAccessRequests(deps.db, caller, query.status) }),
  }),
  secured({
    operationId: 'approveAccessRequest',
    access: can('roles', 'edit'),
    handler: async ({ path, body }, { deps, caller }) => ({ data: found(await approveAccessRequest(deps.db, caller, path.accessRequestId, body)) }),
  }),
  secured({
    operationId: 'declineAccessRequest',
    access: can('roles', 'edit'),
    handler: async ({ path, body }, { deps, caller }) => ({ data: found(await declineAccessRequest(deps.db, caller, path.accessRequestId, body)) }),
  }),
];
