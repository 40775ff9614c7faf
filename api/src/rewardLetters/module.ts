import { defineModule } from '../kernel/modules.js';
import { renderLettersJob, renderOnClose } from './jobs.js';
import { releaseLettersJob } from './release.js';
import { remindLettersJob } from './reminders.js';
import { rewardLetterOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A cycle's reward letters were released to managers or to employees. */
    'rewardLetters.transitioned': { meritCycleId: string; action: string; from: string; to: string; letters: number; managerEmployeeId?: string };
    /** One employee's letter was switched on or off before release. */
    'rewardLetter.switched': { meritCycleId: string; employeeId: string; enabled: boolean };
    /** Reminders to confirm were e-mailed to the employees who had not. */
    'rewardLetters.reminded': { meritCycleId: string; sent: number; withoutEmail: number };
  }
}

/**
 * Reward letters (module `rewardLetters`): when a merit cycle closes, one letter per eligible
 * employee (switched on where the cycle changed their pay; planners switch each on or off), rendered in the background from the cycle's template through the documents
 * module; edited and previewed by planners, released to managers and then employees, read, viewed
 * and confirmed by each employee, exported as one ZIP of PDFs. `docs/reward-letters.md`.
 */
export default defineModule({
  module: 'rewardLetters',
  operations: rewardLetterOperations,
  permissions: ['compensationPlanning'],
  jobs: [renderLettersJob, releaseLettersJob, remindLettersJob],
  subscribers: [renderOnClose],
  switches: {
    rewardLetters: { label: 'Reward letters', flag: 'compensation_planning', permissions: ['compensationPlanning'], order: 50 },
  },
});
