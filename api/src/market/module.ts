import { defineModule } from '../platform/modules.js';
import { marketDataExportJob } from './exportJob.js';
import { buildReleaseJob } from './releases.js';
import { marketDataReportJob } from './reports/reportJob.js';
import { marketOperations } from './routes.js';

export default defineModule({
  operations: marketOperations,
  permissions: ['benchmarking'],
  jobs: [buildReleaseJob, marketDataExportJob, marketDataReportJob],
});
