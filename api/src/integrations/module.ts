import { defineModule } from '../kernel/modules.js';
import { manualSyncJob, scheduledSyncJob } from './jobs.js';
import { integrationOperations } from './routes.js';

declare module '../access/permissions.js' {
  interface Permissions { integrations: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    'integration.connected': { kind: string; name: string };
    'integration.configured': { kind: string; name: string; changed: string[] };
    'integration.disconnected': { kind: string; name: string; keptValues: 'keep' | 'remove'; keptValuesRemoved: number };
  }
}

export default defineModule({
  operations: integrationOperations,
  permissions: ['integrations'],
  jobs: [manualSyncJob, scheduledSyncJob],
  ownPermissions: {
    integrations: {
      label: 'Integrations',
      group: 'administration',
      order: 40,
      description: 'view: see connected HR and equity systems; edit: connect, configure and sync them.',
      scopes: ['all'],
    },
  },
  switches: {
    integrations: { label: 'Integrations', permissions: ['integrations'], order: 20 },
  },
});
