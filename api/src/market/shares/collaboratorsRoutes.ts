import { can, operation, publicAccess, secured } from '../../kernel/operations.js';
import { inviteCollaborator, openCollaboratorSlice, revokeCollaborator, sliceCollaborators } from './collaborators.js';

const edit = can('benchmarking', 'edit');

/** Collaborators of a shared slice: inviting, listing and revoking need benchmarking edit; the link itself is public. */
export const collaboratorOperations = [
  secured({
    operationId: 'listSliceCollaborators',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await sliceCollaborators(ctx, path.sliceId) }),
  }),
  secured({
    operationId: 'inviteSliceCollaborator',
    access: edit,
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await inviteCollaborator({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.sliceId, body) }),
  }),
  secured({
    operationId: 'revokeSliceCollaborator',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await revokeCollaborator(ctx, path.sliceId, path.collaboratorId) }),
  }),
  operation({
    operationId: 'getCollaboratorSlice',
    access: publicAccess,
    handler: async ({ path }, ctx) => ({ data: await openCollaboratorSlice(ctx, path.collaboratorToken, { address: ctx.koa.ip || null, userAgent: ctx.koa.get('user-agent') || null }) }),
  }),
];
