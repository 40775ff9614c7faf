import type { AppDeps } from '../deps.js';
import type { JobHandler } from '../jobs/worker.js';
import { executeRun, uploadedTable } from './run.js';
import { PEOPLE_IMPORT } from './service.js';
import { findRun } from './store.js';

/** Runs an uploaded file's import; the import itself records the outcome, the job its progress. */
export function peopleImportJob(deps: AppDeps): JobHandler {
  return async ({ job, db, log, progress }) => {
    const { runId } = job.input as { runId: string };
    const scope = { companyId: job.companyId };
    const run = await findRun(db, scope, runId);
    if (!run) return { importId: runId, status: 'missing' };
    const final = await executeRun({ db, log, scope, runId, source: uploadedTable(db, deps.downloads, scope, run.file_id), progress, expectedRows: run.row_count });
    // A failed import fails its job too (it shows, and notifies, as failed); a rejected file is a finished check.
    if (final.status === 'failed') throw new Error(final.message ?? 'The import failed.');
    return { importId: final.id, status: final.status };
  };
}

export { PEOPLE_IMPORT };
