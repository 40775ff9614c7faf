import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { emit } from '../platform/events.js';
import { type JobRow, claimNext, findJobById, finishJob, heartbeat, recoverAbandoned, releaseJob, requeue, saveProgress } from './store.js';

/** Thrown from a handler for a failure worth retrying (a network blip, a busy database). */
export class TransientJobError extends Error {}

/** Thrown inside `progress` when someone cancelled the job; handlers need not catch it. */
export class JobCancelled extends Error {}

export interface JobContext {
  job: { id: string; companyId: string; ownerUserId: string; type: string; input: unknown; attempt: number };
  db: Knex;
  log: Logger;
  /** Reports progress (0–100) and stops the job if it was cancelled. */
  progress(percent: number, message?: string): Promise<void>;
}

/** Does the work; what it returns is stored as the job's result. */
export type JobHandler = (ctx: JobContext) => Promise<unknown>;

/** Work the worker does on every tick besides jobs: the domain-event outbox. */
export interface EventDelivery {
  /** Delivers what is due; returns how many events it handled. */
  deliverPending(workerId: string): Promise<number>;
}

export interface WorkerOptions {
  pollMs?: number;
  heartbeatMs?: number;
  /** A running job whose heartbeat is older than this belongs to a worker that died. */
  staleMs?: number;
  /** On SQLite there is one process; anything "running" at start-up was interrupted. */
  singleNode?: boolean;
  onChange?: (job: JobRow) => void;
  /** First retry delay; doubles with every attempt. */
  retryBaseMs?: number;
}

const BACKOFF_BASE_MS = 2_000;

export class JobWorker {
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, { handler: JobHandler; title: string }>();
  private events: EventDelivery | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** The job this worker runs now, if any. */
  private current: JobRow | undefined;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly staleMs: number;

  constructor(
    private readonly db: Knex,
    private readonly log: Logger,
    private readonly options: WorkerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.staleMs = options.staleMs ?? 30_000;
  }

  register(type: string, handler: JobHandler, title = type): this {
    this.handlers.set(type, { handler, title });
    return this;
  }

  /** The worker delivers the outbox too: one loop, one place that claims work. */
  deliverEvents(events: EventDelivery): this {
    this.events = events;
    return this;
  }

  async start(): Promise<void> {
    this.stopped = false;
    const staleBefore = this.options.singleNode ? new Date(Date.now() + 1000) : new Date(Date.now() - this.staleMs);
    const recovered = await recoverAbandoned(this.db, staleBefore, [...this.handlers.keys()]);
    if (recovered.resumed.length || recovered.failed.length) this.log.warn(recovered, 'jobs interrupted by a restart');
    this.schedule(0);
  }

  /** Run the next job now instead of at the next poll (after an enqueue on this node). */
  wake(): void {
    if (!this.stopped && !this.running) this.schedule(0);
  }

  /**
   * Takes no more work and waits for the job in hand. With `releaseAfterMs`, a job still running
   * after that long is handed back to the queue (its attempt not counted) for another node to run,
   * and this returns without waiting for it.
   */
  async stop(options: { releaseAfterMs?: number } = {}): Promise<{ released: string | undefined }> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const running = this.running;
    if (!running) return { released: undefined };
    if (options.releaseAfterMs === undefined) {
      await running;
      return { released: undefined };
    }
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      running.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), options.releaseAfterMs);
      }),
    ]);
    clearTimeout(timer);
    const job = this.current;
    if (finished || !job) return { released: undefined };
    const released = await releaseJob(this.db, job.id, this.id);
    if (released) this.log.warn({ jobId: job.id, type: job.type }, 'job handed back to the queue: this node is shutting down');
    return { released: released ? job.id : undefined };
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
      });
    }, delay);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let worked = false;
    try {
      if (this.events && (await this.events.deliverPending(this.id)) > 0) worked = true;
      await recoverAbandoned(this.db, new Date(Date.now() - this.staleMs), [...this.handlers.keys()]);
      const job = await claimNext(this.db, this.id, [...this.handlers.keys()]);
      if (job) {
        worked = true;
        this.options.onChange?.(job);
        await this.run(job);
      }
    } catch (error) {
      this.log.error({ err: error }, 'job worker tick failed');
    }
    if (!this.stopped) this.schedule(worked ? 0 : this.pollMs);
  }

  private async run(job: JobRow): Promise<void> {
    const registered = this.handlers.get(job.type);
    if (!registered) return;
    const { handler } = registered;
    this.current = job;
    const log = this.log.child({ jobId: job.id, type: job.type });
    const beat = setInterval(() => void heartbeat(this.db, job.id, this.id).catch(() => undefined), this.heartbeatMs);
    const context: JobContext = {
      job: { id: job.id, companyId: job.company_id, ownerUserId: job.owner_user_id, type: job.type, input: JSON.parse(job.input) as unknown, attempt: job.attempts },
      db: this.db,
      log,
      progress: async (percent, message) => {
        const row = await saveProgress(this.db, job.id, this.id, Math.max(0, Math.min(100, Math.round(percent))), message);
        if (row) this.options.onChange?.(row);
        if (row?.cancel_requested) throw new JobCancelled('cancelled');
      },
    };
    try {
      const result = await handler(context);
      await this.finish(job, { status: 'succeeded', message: 'Done.', result });
    } catch (error) {
      await this.fail(job, error, log);
    } finally {
      this.current = undefined;
      clearInterval(beat);
      const final = await findJobById(this.db, job.id);
      if (final) this.options.onChange?.(final);
    }
  }

  /**
   * The job's final state and, for a job that succeeded or failed, the `job.ended` event (people
   * are told by its subscribers) in one transaction: told exactly when it ended.
   */
  private async finish(job: JobRow, outcome: { status: 'succeeded' | 'failed' | 'cancelled'; message: string; result?: unknown }): Promise<void> {
    await this.db.transaction(async (trx) => {
      const ended = await finishJob(trx, job.id, this.id, outcome);
      if (!ended || outcome.status === 'cancelled') return;
      const title = this.handlers.get(job.type)?.title ?? job.type;
      await emit(trx, {
        name: 'job.ended',
        companyId: job.company_id,
        actorUserId: job.owner_user_id,
        subjectType: 'job',
        subjectId: job.id,
        payload: { type: job.type, title, status: outcome.status, message: outcome.message },
        audited: false,
      });
    });
  }

  private async fail(job: JobRow, error: unknown, log: Logger): Promise<void> {
    if (error instanceof JobCancelled) {
      await this.finish(job, { status: 'cancelled', message: 'Cancelled.' });
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof TransientJobError && job.attempts < job.max_attempts) {
      const delay = (this.options.retryBaseMs ?? BACKOFF_BASE_MS) * 2 ** (job.attempts - 1);
      log.warn({ err: error, delay }, 'job failed for a transient reason; retrying');
      await requeue(this.db, job.id, this.id, delay, `Retrying after: ${message}`);
      return;
    }
    log.error({ err: error }, 'job failed');
    await this.finish(job, { status: 'failed', message });
  }
}
