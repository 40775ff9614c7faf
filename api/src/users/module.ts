import type { PermissionMap } from '../access/permissions.js';
import { defineModule } from '../kernel/modules.js';
import { usersExportJob } from './usersExport.js';
import { accessOperations } from './routes.js';
import { notifyAccessDecided, notifyAccessRequested } from './accessRequests.js';

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
});
