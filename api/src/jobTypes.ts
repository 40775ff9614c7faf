import { USERS_EXPORT, usersExportJob } from './access/usersExport.js';
import type { AppDeps } from './deps.js';
import { PEOPLE_IMPORT, peopleImportJob } from './hris/jobs.js';
import { INTEGRATION_SYNC, SCHEDULED_SYNC, manualSyncJob, scheduledSyncJob } from './integrations/jobs.js';
import type { JobQueue } from './jobs/queue.js';
import { registerMarketJobTypes } from './market/jobs.js';
import { EMPLOYEE_COMPENSATION_EXPORT, employeeCompensationExportJob } from './people/exportJob.js';

/** Every kind of background job this server runs. */
export function registerJobTypes(jobs: JobQueue, deps: AppDeps): void {
  jobs.register(USERS_EXPORT, usersExportJob(deps.downloads));
  registerMarketJobTypes(jobs, deps);
  jobs.register(PEOPLE_IMPORT, peopleImportJob(deps));
  jobs.register(INTEGRATION_SYNC, manualSyncJob(deps));
  jobs.register(SCHEDULED_SYNC, scheduledSyncJob(deps));
  jobs.register(EMPLOYEE_COMPENSATION_EXPORT, employeeCompensationExportJob(deps.downloads));
}
