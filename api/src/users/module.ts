import type { PermissionMap } from '../access/permissions.js';
import { defineModule } from '../kernel/modules.js';
import { usersExportJob } from './usersExport.js';
import { accessOperations } from './routes.js';
import { notifyAccessDecided, notifyAccessRequested } from './accessRequests.js';
import { grant } from '../access/permissions.js';

declare module '../access/permissions.js' {
  interface Permissions { users: true; roles: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    'role.created': { permissions: PermissionMap };
    'role.updated': { permissions: PermissionMap };
    'user.created': Record<string, never>;
    'user.removed': Record<string, never>;
    'user.roles.set': { roles: string[] };
    'accessRequest.created': { accessRequestId: string };
    'accessRequest.decided': { accessRequestId: string; status: 'approved' | 'declined' };
  }
}

export default defineModule({
  operations: accessOperations,
  permissions: ['roles', 'users'],
  jobs: [usersExportJob],
  subscribers: [notifyAccessRequested, notifyAccessDecided],
  ownPermissions: {
    users: {
      label: 'Users',
      group: 'administration',
      order: 10,
      description: 'view: list the company’s users; edit: add, import and remove users.',
      scopes: ['all'],
      roles: { compensation_planner: grant('view') },
    },
    roles: {
      label: 'Roles',
      group: 'administration',
      order: 20,
      description: 'view: see roles and who holds them; edit: create and change roles and assign them.',
      scopes: ['all'],
      roles: { compensation_planner: grant('view') },
    },
  },
});
