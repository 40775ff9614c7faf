import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { saveDownload } from '../../src/downloads/service.js';
import { jobKind } from '../../src/jobs/kind.js';

export interface SlowExportInput {
  /** How many steps the job takes, each `stepMs` long, reporting progress after each. */
  steps: number;
  stepMs: number;
}

/** What the job returns: its file, which attempt made it, in which process, and when that attempt started. */
export interface SlowExportResult {
  downloadId: string;
  attempt: number;
  pid: number;
  startedAt: string;
}

/**
 * A test-only job that takes as long as its input says and writes its file only at the end, as the
 * real exports do: an attempt killed part-way leaves no file behind. Registered on the nodes a test
 * starts, never on the product's.
 */
export const slowExport = jobKind<SlowExportInput>({ type: 'testSlowExport', title: 'Slow export' }, (deps) => async ({ job, db, progress }) => {
  const startedAt = new Date().toISOString();
  for (let step = 1; step <= job.input.steps; step++) {
    await sleep(job.input.stepMs);
    await progress((step / job.input.steps) * 99, `Step ${step} of ${job.input.steps}`);
  }
  const download = await saveDownload(db, deps.downloads, {
    companyId: job.companyId,
    ownerUserId: job.ownerUserId,
    jobId: job.id,
    kind: 'testSlowExport',
    filename: 'slow.txt',
    contentType: 'text/plain',
    permission: null,
    content: Readable.from([`made by attempt ${job.attempt} of job ${job.id}\n`]),
  });
  const result: SlowExportResult = { downloadId: download.id, attempt: job.attempt, pid: process.pid, startedAt };
  return result;
});
