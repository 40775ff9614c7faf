import type { components } from '../contract-types.js';
import { defineModule } from '../kernel/modules.js';
import { teamOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    'team_view.settings.updated': components['schemas']['TeamViewSettingsInput'];
  }
}

export default defineModule({
  module: 'teamview',
  operations: teamOperations,
  permissions: ['demographics', 'employeeCompensation', 'team'],
});
