import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Realtime } from '../realtime/server.js';
import type { AppDeps } from '../deps.js';
import type { AnyJobKind, JobKind } from './kind.js';
import { type JobRow, insertJob, queuedJobRow } from './store.js';
import { type JobHandler, JobWorker, type WorkerOptions } from './worker.js';

export interface NewJob {
  companyId: string;
  ownerUserId: string;
  type: string;
  input: unknown;
  originSocketId?: string | undefined;
  maxAttempts?: number;
}

/** A job to enqueue through its kind: the input must be the kind's. */
export type NewJobOf<Input> = Omit<NewJob, 'type' | 'input'> & { input: Input };

/**
 * Inserts a job of a kind with the caller's own connection: inside a (tenant) transaction the job
 * becomes visible together with the change that asked for it, never before it. The caller wakes
 * the worker after the commit.
 */
export async function queueJobIn<Input>(db: Knex, kind: JobKind<Input>, job: NewJobOf<Input> & { runAfter?: string; message?: string }): Promise<JobRow> {
  const row = queuedJobRow({ ...job, type: kind.type });
  await insertJob(db, row);
  return row;
}

/** Enqueue on any node; the worker of whichever node claims it first runs it. */
export class JobQueue {
  readonly worker: JobWorker;

  constructor(
    private readonly db: Knex,
    log: Logger,
    private readonly realtime: Realtime | undefined,
    options: WorkerOptions = {},
  ) {
    this.worker = new JobWorker(db, log, { ...options, onChange: (job) => this.announce(job) });
  }

  register(type: string, handler: JobHandler): this {
    this.worker.register(type, handler);
    return this;
  }

  /** A kind of job this node runs, its handler made with the server's pieces. */
  registerKind(kind: AnyJobKind, deps: AppDeps): this {
    this.worker.register(kind.type, kind.handler(deps), kind.title);
    return this;
  }

  /** Every change of a job reaches its owner's sockets, on whichever node they are connected. */
  announce(job: JobRow): void {
    this.realtime?.toUser(job.owner_user_id, 'emitBackgroundJobStatusUpdate', { jobId: job.id, status: job.status, progress: job.progress });
  }

  /** Enqueues a job of a kind; its handler reads the same input type. */
  async start<Input>(kind: JobKind<Input>, job: NewJobOf<Input>): Promise<JobRow> {
    return this.enqueue({ ...job, type: kind.type });
  }

  async enqueue(job: NewJob): Promise<JobRow> {
    const row = queuedJobRow(job);
    await insertJob(this.db, row);
    this.announce(row);
    this.worker.wake();
    return row;
  }
}
