import type { components } from '../contract-types.js';
import { defineModule } from '../kernel/modules.js';
import { teamOperations } from './routes.js';
import { grant } from '../access/permissions.js';

declare module '../access/permissions.js' {
  interface Permissions { team: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    'team_view.settings.updated': components['schemas']['TeamViewSettingsInput'];
  }
}

export default defineModule({
  module: 'teamview',
  operations: teamOperations,
  permissions: ['demographics', 'employeeCompensation', 'team'],
  ownPermissions: {
    team: {
      label: 'Employees',
      group: 'people',
      order: 10,
      description: 'view: see employees (job, manager, location) in the team view; edit: change their records and import people data.',
      scopes: ['all', 'reports'],
      roles: { compensation_planner: grant('view'), people_manager: grant('view', 'reports'), analyst: grant('view') },
    },
  },
  switches: {
    teamview: { label: 'The team view', flag: 'team_view', permissions: ['team'], order: 60 },
  },
  flags: {
    team_view: { default: false, segments: ['admin_saas_customers'], demo: true, order: 50 },
  },
});
