import { USERS_EXPORT, usersExportJob } from './access/usersExport.js';
import type { AppDeps } from './deps.js';
import type { JobQueue } from './jobs/queue.js';
import { registerMarketJobTypes } from './market/jobs.js';

/** Every kind of background job this server runs. */
export function registerJobTypes(jobs: JobQueue, deps: AppDeps): void {
  jobs.register(USERS_EXPORT, usersExportJob(deps.downloads));
  registerMarketJobTypes(jobs, deps);
}
