import { defineModule } from '../kernel/modules.js';
import { bandsExportJob } from './exportJob.js';
import { bandsImportJob, surveyImportJob } from './imports.js';
import { tellBandSetApprover } from './notify.js';
import { bandSetApprovalOperations, bandsOperations } from './routes.js';
import { grant } from '../access/permissions.js';

declare module '../access/permissions.js' {
  interface Permissions { bands: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A draft band set went live; the set live until then (if any) was archived in the same change. */
    'bandSet.published': { bandSetId: string; name: string; archivedBandSetId: string | null; bandCount: number };
    /** A draft band set was published to a merit cycle; the set that cycle had (if any) was archived in the same change. */
    'bandSet.publishedToCycle': { bandSetId: string; name: string; meritCycleId: string; archivedBandSetId: string | null };
    /** A bands file was imported into a draft: bands added and bands changed. */
    'bandSet.imported': { bandSetId: string; created: number; updated: number };
    /** A band set waits for an approver before it goes live (on submission, and after each approval but the last). */
    'bandSet.approvalRequested': { bandSetId: string; name: string; approverUserIds: string[]; awaitingUserId: string | null };
    /** A survey file was imported as a new survey. */
    'survey.imported': { surveyId: string; name: string; jobs: number };
  }
}

export default defineModule({
  module: 'bands',
  operations: [...bandsOperations, ...bandSetApprovalOperations],
  permissions: ['bands'],
  jobs: [bandsExportJob, surveyImportJob, bandsImportJob],
  subscribers: [tellBandSetApprover],
  ownPermissions: {
    bands: {
      label: 'Salary bands',
      group: 'pay',
      order: 10,
      description: 'view: see salary bands, pay zones and surveys; edit: build and publish them. Scope zones: only the pay zones that name the holder.',
      scopes: ['all', 'zones'],
      roles: { compensation_planner: grant('edit'), analyst: grant('view') },
    },
  },
  switches: {
    bands: { label: 'Salary bands', flag: 'bands', permissions: ['bands'], order: 70 },
  },
  flags: {
    bands: { default: false, segments: ['pricing_packaging_customer'], demo: true, order: 60 },
  },
});
