import { can, secured } from '../kernel/operations.js';
import { importRoles } from './roles.js';
import { importUsers } from './users.js';

export const importOperations = [
  secured({
    operationId: 'importUsers',
    access: can('users', 'edit'),
    handler: async ({ body }, ctx) => ({ data: await importUsers(ctx, body) }),
  }),
  secured({
    operationId: 'importRoles',
    access: can('roles', 'edit'),
    handler: async ({ body }, ctx) => ({ data: await importRoles(ctx, body) }),
  }),
];
