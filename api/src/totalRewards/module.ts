import { defineModule } from '../kernel/modules.js';
import { issueStatementsJob } from './issued.js';
import { totalRewardsOperations } from './routes.js';
import { grant } from '../access/permissions.js';

declare module '../access/permissions.js' {
  interface Permissions { totalRewards: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    /** The parts of the communicate settings a save replaced, and the version it made. */
    'communicate_settings.updated': { parts: string[]; version: number };
  }
}

/**
 * Total rewards: an employee's statement (their own; a preview of anyone's within an admin's reach),
 * its PDF through the documents module, and the company's communicate settings behind it. Reward
 * letters belong to merit cycles and are not here.
 */
export default defineModule({
  module: 'totalRewards',
  operations: totalRewardsOperations,
  permissions: ['totalRewards'],
  jobs: [issueStatementsJob],
  ownPermissions: {
    totalRewards: {
      label: 'Total rewards',
      group: 'pay',
      order: 50,
      description: 'view: read total-rewards statements in scope; edit: configure what statements show.',
      scopes: ['all', 'self'],
      roles: { compensation_planner: grant('view'), people_manager: grant('view', 'self'), employee: grant('view', 'self') },
    },
  },
  switches: {
    totalRewards: { label: 'Total rewards', flag: 'total_rewards', permissions: ['totalRewards'], order: 90 },
  },
  flags: {
    total_rewards: { default: false, segments: ['admin_saas_customers'], demo: true, order: 30 },
  },
});
