import { defineModule } from '../platform/modules.js';
import { bandsExportJob } from './exportJob.js';
import { bandsOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A draft band set went live; the set live until then (if any) was archived in the same change. */
    'bandSet.published': { bandSetId: string; name: string; archivedBandSetId: string | null; bandCount: number };
  }
}

export default defineModule({
  module: 'bands',
  operations: bandsOperations,
  permissions: ['bands'],
  jobs: [bandsExportJob],
});
