import { defineModule } from '../kernel/modules.js';
import { marketDataExportJob } from './exportJob.js';
import { buildReleaseJob } from './releases.js';
import { marketDataReportJob } from './reports/reportJob.js';
import { marketOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** Someone outside the company was invited to read a shared slice (an earlier link of theirs to it stops working). */
    'sliceCollaborator.invited': { collaboratorId: string; email: string; expiresAt: string };
    /** A collaborator's link to a shared slice was revoked. */
    'sliceCollaborator.revoked': { collaboratorId: string; email: string };
  }
}

export default defineModule({
  operations: marketOperations,
  permissions: ['benchmarking'],
  jobs: [buildReleaseJob, marketDataExportJob, marketDataReportJob],
});
