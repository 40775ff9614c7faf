import { defineModule } from '../kernel/modules.js';
import { tellBandSetApprover } from './notify.js';
import { workflowSettingsOperations } from './routes.js';
import type { StoredChain } from './service.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** Who approves what changed: the merit-cycle chains a new cycle starts from and the band-set approvers, as now stored. */
    'workflowSettings.updated': { version: number; meritChains: StoredChain[]; bandPublicationApprovers: string[] };
    /** A band set waits for an approver before it goes live (on submission, and after each approval but the last). */
    'bandSet.approvalRequested': { bandSetId: string; name: string; approverUserIds: string[]; awaitingUserId: string | null };
  }
}

/**
 * Workflow settings: who approves what, per company, as data the modules read. The band-set
 * approval operations are declared by the bands module (its switch gates them).
 */
export default defineModule({
  operations: workflowSettingsOperations,
  permissions: ['companySettings'],
  subscribers: [tellBandSetApprover],
});
