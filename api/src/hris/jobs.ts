import { jobKind } from '../jobs/kind.js';
import { executeRun, uploadedTable } from './run.js';
import { findRun } from './store.js';

/** A people-data import's job carries the import it runs. */
export interface RunJobInput {
  runId: string;
}

/** Runs an uploaded file's import; the import itself records the outcome, the job its progress. */
export const peopleImportJob = jobKind<RunJobInput>({ type: 'peopleImport', title: 'People-data import' }, (deps) => async ({ job, db, log, progress }) => {
    const { runId } = job.input;
    const scope = { companyId: job.companyId };
    const run = await findRun(db, scope, runId);
    if (!run) return { importId: runId, status: 'missing' };
    const final = await executeRun({ db, log, scope, runId, source: uploadedTable(db, deps.downloads, scope, run.file_id), progress, expectedRows: run.row_count });
    // A failed import fails its job too (it shows, and notifies, as failed); a rejected file is a finished check.
    if (final.status === 'failed') throw new Error(final.message ?? 'The import failed.');
    return { importId: final.id, status: final.status };
  });
