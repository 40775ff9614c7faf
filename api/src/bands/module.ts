import { defineModule } from '../kernel/modules.js';
import { bandsExportJob } from './exportJob.js';
import { bandsImportJob, surveyImportJob } from './imports.js';
import { bandsOperations } from './routes.js';
import { bandSetApprovalOperations } from '../workflowSettings/routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A draft band set went live; the set live until then (if any) was archived in the same change. */
    'bandSet.published': { bandSetId: string; name: string; archivedBandSetId: string | null; bandCount: number };
    /** A draft band set was published to a merit cycle; the set that cycle had (if any) was archived in the same change. */
    'bandSet.publishedToCycle': { bandSetId: string; name: string; meritCycleId: string; archivedBandSetId: string | null };
    /** A bands file was imported into a draft: bands added and bands changed. */
    'bandSet.imported': { bandSetId: string; created: number; updated: number };
    /** A survey file was imported as a new survey. */
    'survey.imported': { surveyId: string; name: string; jobs: number };
  }
}

export default defineModule({
  module: 'bands',
  operations: [...bandsOperations, ...bandSetApprovalOperations],
  permissions: ['bands'],
  jobs: [bandsExportJob, surveyImportJob, bandsImportJob],
});
