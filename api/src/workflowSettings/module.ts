import { defineModule } from '../kernel/modules.js';
import { workflowSettingsOperations } from './routes.js';
import type { StoredChain } from './service.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** Who approves what changed: the merit-cycle chains a new cycle starts from and the band-set approvers, as now stored. */
    'workflowSettings.updated': { version: number; meritChains: StoredChain[]; bandPublicationApprovers: string[] };
  }
}

/**
 * Workflow settings: who approves what, per company, as data the modules read (stored in
 * approvalRules/). A band set's approval itself is the bands module's (bands/approvals.ts).
 */
export default defineModule({
  operations: workflowSettingsOperations,
  permissions: ['companySettings'],
});
