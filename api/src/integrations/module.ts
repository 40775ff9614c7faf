import { defineModule } from '../kernel/modules.js';
import { manualSyncJob, scheduledSyncJob } from './jobs.js';
import { integrationOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    'integration.connected': { kind: string; name: string };
    'integration.configured': { kind: string; name: string; changed: string[] };
    'integration.disconnected': { kind: string; name: string };
  }
}

export default defineModule({
  operations: integrationOperations,
  permissions: ['integrations'],
  jobs: [manualSyncJob, scheduledSyncJob],
});
