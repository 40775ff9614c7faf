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
    handler: async (_input, ctx) => ({
      data: await startJob(ctx.deps.jobs, ctx.caller, usersExportJob, {}, socketIdOf(ctx.koa.get('x-socket-id'))),
    }),
  }),
  secured({
    operationId: 'listRoles',
    access: can('roles', 'view'),
    handler: async (_input, ctx) => ({ data: await roles(ctx) }),
  }),
  secured({
    operationId: 'saveRole',
    access: can('roles', 'edit'),
    handler: async ({ body }, ctx) => ({ data: await saveRole(ctx, body) }),
  }),
  secured({
    operationId: 'listUsersInRole',
    access: can('roles', 'view'),
    handler: async ({ path }, ctx) => ({ data: await usersInRole(ctx, path.roleId) }),
  }),
  secured({
    operationId: 'listPermissionGroups',
    access: signedIn,
    handler: async () => ({ data: permissionGroups() }),
  }),
  secured({
    operationId: 'listUsers',
    access: can('users', 'view'),
    handler: async ({ query }, ctx) => {
      const page = await listUsers(ctx, query);
      return { data: page.users, page: { limit: query.limit, nextCursor: page.nextCursor } };
    },
  }),
  secured({
    operationId: 'createUser',
    access: can('users', 'edit'),
    status: 201,
    handler: async ({ body }, ctx) => {
      const user = found(await createUser(ctx, body));
      if (body.invite) await inviteNewUser(ctx, { id: user.id, email: user.email, firstName: user.firstName, isCandidate: user.isCandidate });
      return { data: user };
    },
  }),
  secured({
    operationId: 'getUserFilterValues',
    access: can('users', 'view'),
    handler: async (_input, ctx) => ({ data: await userFilterValues(ctx) }),
  }),
  secured({
    operationId: 'listGuests',
    access: can('users', 'view'),
    handler: async (_input, ctx) => ({ data: await guests(ctx) }),
  }),
  secured({
    operationId: 'getUser',
    access: can('users', 'view'),
    handler: async ({ path }, ctx) => ({ data: found(await getUser(ctx, path.userId)) }),
  }),
  secured({
    operationId: 'removeUser',
    access: can('users', 'edit'),
    handler: async ({ path }, ctx) => ({ data: found(await removeUser(ctx, path.userId)) }),
  }),
  secured({
    operationId: 'setRoleForPerson',
    access: can('roles', 'edit'),
    handler: async ({ path, body }, ctx) => ({ data: found(await setRoles(ctx, path.userId, body.roleIds)) }),
  }),
  secured({
    operationId: 'createAccessRequest',
    access: member,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: found(await createAccessRequest(ctx, body)) }),
  }),
  secured({
    operationId: 'listMyAccessRequests',
    access: member,
    handler: async (_input, ctx) => ({ data: await myAccessRequests(ctx) }),
  }),
  secured({
    operationId: 'listAccessRequests',
    access: can('roles', 'edit'),
    handler: async ({ query }, ctx) => ({ data: await listAccessRequests(ctx, query.status) }),
  }),
  secured({
    operationId: 'approveAccessRequest',
    access: can('roles', 'edit'),
    handler: async ({ path, body }, ctx) => ({ data: found(await approveAccessRequest(ctx, path.accessRequestId, body)) }),
  }),
  secured({
    operationId: 'declineAccessRequest',
    access: can('roles', 'edit'),
    handler: async ({ path, body }, ctx) => ({ data: found(await declineAccessRequest(ctx, path.accessRequestId, body)) }),
  }),
];
