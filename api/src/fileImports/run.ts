import type { Logger } from 'pino';
import type { AppDeps } from '../deps.js';
import { UnreadableFile } from '../kernel/files/table.js';
import type { JobKind } from '../jobs/kind.js';
import { queueJobIn } from '../jobs/queue.js';
import { JobCancelled } from '../jobs/worker.js';

/*
 * The run stage of every file import, as a background job: the import is recorded with its job in
 * the request's transaction; the job reads the file, checks every row (each problem with its line),
 * and plans (a dry run) or writes all or nothing; whatever happens is recorded on the import.
 * An area gives only what is its own: how to read its rows, check them and apply them.
 */

/** A problem that ends an import before (or instead of) checking its rows: an expired file, a lost permission, a mapping that does not fit. */
export class ImportStopped extends Error {
  constructor(
    message: string,
    readonly status: 'failed' | 'rejected' = 'failed',
  ) {
    super(message);
  }
}

/** After the request's writes are committed: run this (wake the worker, tell the owner's screens). */
export type AfterCommit = (task: () => Promise<unknown>) => void;

/** How a request starts an import's job: the screen that asked (its progress shows there) and the after-commit hook. */
export interface Launch {
  originSocketId: string | undefined;
  afterCommit: AfterCommit;
}

export interface QueuedImport<Input> extends Launch {
  kind: JobKind<Input>;
  companyId: string;
  ownerUserId: string;
  input: Input;
  /** Records the job on the import (in the same transaction). */
  recordJob: (jobId: string) => Promise<void>;
}

/** Queues the job of an import already recorded, in the request's transaction, so the job never runs before the import is visible. */
export async function queueImportJob<Input>(deps: AppDeps, queued: QueuedImport<Input>): Promise<string> {
  const job = await queueJobIn(deps.db, queued.kind, { companyId: queued.companyId, ownerUserId: queued.ownerUserId, input: queued.input, originSocketId: queued.originSocketId });
  await queued.recordJob(job.id);
  queued.afterCommit(async () => {
    deps.jobs.announce(job);
    deps.jobs.worker.wake();
  });
  return job.id;
}

/** Reading progress: up to 40% while the rows come in (exact when the count is known from the upload). */
export function readingProgress(progress: (percent: number, message?: string) => Promise<void>, expectedRows: number | null): (rowsRead: number) => Promise<void> {
  return (rowsRead) => progress(expectedRows ? Math.min(40, 2 + (rowsRead / expectedRows) * 38) : 20, `Read ${rowsRead} rows`);
}

/** The columns every import's record has (people_import_runs, band_imports). */
export interface RunRecord {
  id: string;
  company_id: string;
  owner_user_id: string;
  kind: string;
  file_id: string | null;
  filename: string | null;
  job_id: string | null;
  dry_run: boolean | number;
  /** The column mapping it reads the file through, as JSON. */
  mapping: string | null;
  status: string;
  row_count: number | string | null;
  plan: string | null;
  errors: string | null;
  error_count: number | string;
  message: string | null;
  created_at: string | Date;
  started_at: string | Date | null;
  finished_at: string | Date | null;
}

/** What a new import's record starts with: queued, with no job, plan or problems yet. */
export function queuedRecord() {
  return { status: 'queued', job_id: null, plan: null, errors: null, error_count: 0, message: null, created_at: new Date().toISOString(), started_at: null, finished_at: null };
}

/** What checking (and maybe applying) a file came to: its problems (any one writes nothing) and its plan. */
export interface Checked<Row> {
  problems: { count: number; first: () => unknown[] };
  plan: unknown;
  /** More to record on an applied or planned import (the survey it made). */
  record?: Partial<Row>;
}

export interface ImportRun<Row extends RunRecord> {
  log: Logger;
  /** Named in the log ("people import"). */
  name: string;
  id: string;
  find: () => Promise<Row | undefined>;
  update: (changes: Partial<Row>) => Promise<void>;
  /** Reads, checks and (unless a dry run) applies the file. */
  work: (row: Row) => Promise<Checked<Row>>;
}

const now = (): string => new Date().toISOString();

/** Runs one import to its end and records what happened on it; a file with any bad row writes nothing. */
export async function runImport<Row extends RunRecord>(run: ImportRun<Row>): Promise<Row> {
  const row = await run.find();
  if (!row) throw new Error(`${run.name} ${run.id} is gone`);
  await run.update({ status: 'running', started_at: now(), finished_at: null, message: null } as Partial<Row>);
  try {
    const outcome = await run.work(row);
    const count = outcome.problems.count;
    const changes: Partial<RunRecord> = count
      ? { status: 'rejected', errors: JSON.stringify(outcome.problems.first()), error_count: count, message: `The file has ${count} problem${count === 1 ? '' : 's'}; nothing was written.` }
      : { status: row.dry_run ? 'planned' : 'applied', plan: JSON.stringify(outcome.plan), errors: '[]', error_count: 0 };
    await run.update({ ...changes, ...(count ? {} : outcome.record), finished_at: now() } as Partial<Row>);
  } catch (error) {
    if (error instanceof ImportStopped || error instanceof UnreadableFile) {
      const status = error instanceof ImportStopped ? error.status : 'rejected';
      await run.update({ status, message: error.message, finished_at: now() } as Partial<Row>);
    } else if (error instanceof JobCancelled) {
      await run.update({ status: 'cancelled', message: 'Cancelled; nothing was written.', finished_at: now() } as Partial<Row>);
      throw error;
    } else {
      run.log.error({ err: error, id: run.id }, `${run.name} failed`);
      await run.update({ status: 'failed', message: 'The import failed unexpectedly; nothing was written.', finished_at: now() } as Partial<Row>);
      throw error;
    }
  }
  const final = await run.find();
  if (!final) throw new Error(`${run.name} ${run.id} is gone`);
  return final;
}
