import { can, operation, publicAccess, secured } from '../../kernel/operations.js';
import { inviteCollaborator, openCollaboratorSlice, revokeCollaborator, sliceCollaborators } from './collaborators.js';

const edit = can('benchmarking', 'edit');

/** Collaborators of a shared slice: inviting, listing and revoking need benchmarking edit; the link itself is public. */
export const collaboratorOperations = [
  secured({
    operationId: 'listSliceCollaborators',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await sliceCollaborators(deps.db, caller, path.sliceId) }),
  }),
  secured({
    operationId: 'inviteSliceCollaborator',
    access: edit,
    status: 201,
    handler: async ({ path, body }, { deps, caller, afterCommit }) => ({ data: await inviteCollaborator({ deps, afterCommit }, caller, path.sliceId, body) }),
  }),
  secured({
    operationId: 'revokeSliceCollaborator',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await revokeCollaborator(deps.db, caller, path.sliceId, path.collaboratorId) }),
  }),
  operation({
    operationId: 'getCollaboratorSlice',
    access: publicAccess,
    handler: async ({ path }, { deps, koa }) => ({ data: await openCollaboratorSlice(deps.db, path.collaboratorToken, { address: koa.ip || null, userAgent: koa.get('user-agent') || null }) }),
  }),
];
