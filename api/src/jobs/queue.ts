import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Realtime } from '../realtime/server.js';
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

/** Enqueue on any node; the worker of whichever node claims it first runs it. */
export class JobQueue {
  readonly worker: JobWorker;
  /** Called once when a job succeeds or fails (notifications). */
  onEnded: ((job: JobRow) => void) | undefined;

  constructor(
    private readonly db: Knex,
    log: Logger,
    private readonly realtime: Realtime | undefined,
    options: WorkerOptions = {},
  ) {
    this.worker = new JobWorker(db, log, { ...options, onChange: (job) => this.announce(job), onEnded: (job) => this.ended(job) });
  }

  register(type: string, handler: JobHandler): this {
    this.worker.register(type, handler);
    return this;
  }

  /** Every change of a job reaches its owner's sockets, on whichever node they are connected. */
  announce(job: JobRow): void {
    this.realtime?.toUser(job.owner_user_id, 'emitBackgroundJobStatusUpdate', { jobId: job.id, status: job.status, progress: job.progress });
  }

  /** The worker reports a job's final state once; that is when people are told. */
  ended(job: JobRow): void {
    this.onEnded?.(job);
  }

  async enqueue(job: NewJob): Promise<JobRow> {
    const row = queuedJobRow(job);
    await insertJob(this.db, row);
    this.announce(row);
    this.worker.wake();
    return row;
  }
}
