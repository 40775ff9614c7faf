import { defineModule } from '../kernel/modules.js';
import { marketDataExportJob } from './exportJob.js';
import { buildReleaseJob } from './releases.js';
import { marketDataReportJob } from './reports/reportJob.js';
import { marketOperations } from './routes.js';
import { grant } from '../access/permissions.js';
import { seedVerifiedParticipant } from './participation/verification.js';

declare module '../access/permissions.js' {
  interface Permissions { benchmarking: true; }
}

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
  ownPermissions: {
    benchmarking: {
      label: 'Market data',
      group: 'benchmarking',
      order: 10,
      description: 'view: query market data and export it; edit: save and share report queries, change benchmarking settings.',
      scopes: ['all'],
      roles: { compensation_planner: grant('edit'), people_manager: grant('view'), analyst: grant('view') },
    },
  },
  switches: {
    benchmarking: { label: 'Benchmarking', permissions: ['benchmarking'], order: 10 },
  },
  flags: {
    benchmarking: { default: true, order: 10 },
    market_pricing: { default: false, segments: ['pricing_packaging_customer'], order: 70 },
  },
  // The demo takes part in the market, verified by the seed and recorded as such.
  demo: (trx, company) => seedVerifiedParticipant(trx, company.companyId),
});
