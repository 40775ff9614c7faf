import { defineModule } from '../kernel/modules.js';
import { issueStatementsJob } from './issued.js';
import { totalRewardsOperations } from './routes.js';

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
});
