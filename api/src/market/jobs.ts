import type { AppDeps } from '../deps.js';
import type { JobQueue } from '../jobs/queue.js';
import { MARKET_DATA_EXPORT, marketDataExportJob } from './exportJob.js';
import { BUILD_MARKET_RELEASE, buildReleaseJob } from './releases.js';
import { MARKET_DATA_REPORT, marketDataReportJob } from './reports/reportJob.js';

/** The market's background jobs: building a release, exporting the data explorer's results, writing release reports. */
export function registerMarketJobTypes(jobs: JobQueue, deps: AppDeps): void {
  jobs.register(BUILD_MARKET_RELEASE, buildReleaseJob());
  jobs.register(MARKET_DATA_EXPORT, marketDataExportJob(deps));
  jobs.register(MARKET_DATA_REPORT, marketDataReportJob(deps));
}
