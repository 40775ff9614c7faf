import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import type { NewJob } from './queue.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobRow {
  id: string;
  company_id: string;
  owner_user_id: string;
  type: string;
  status: JobStatus;
  progress: number;
  message: string | null;
  input: string;
  result: string | null;
  attempts: number;
  max_attempts: number;
  run_after: string | Date;
  locked_by: string | null;
  heartbeat_at: string | Date | null;
  cancel_requested: boolean | number;
  origin_socket_id: string | null;
  created_at: string | Date;
  updated_at: string | Date;
  finished_at: string | Date | null;
}

const now = (): string => new Date().toISOString();

export async function insertJob(db: Knex, row: JobRow): Promise<void> {
  await db('jobs').insert(row);
}

export function jobsOf(db: Knex, scope: CompanyScope) {
  return db<JobRow>('jobs').where('jobs.company_id', scope.companyId);
}

export async function findJob(db: Knex, scope: CompanyScope, id: string): Promise<JobRow | undefined> {
  return jobsOf(db, scope).where('jobs.id', id).first();
}

export async function findJobById(db: Knex, id: string): Promise<JobRow | undefined> {
  return db<JobRow>('jobs').where({ id }).first();
}

export async function jobsOfOwner(db: Knex, scope: CompanyScope, ownerUserId: string, since: Date): Promise<JobRow[]> {
  return jobsOf(db, scope)
    .where('jobs.owner_user_id', ownerUserId)
    .andWhere('jobs.created_at', '>=', since.toISOString())
    .orderBy('jobs.created_at', 'desc')
    .limit(200);
}

/**
 * Claims the oldest runnable job of the given types for `workerId`. On Postgres the row lock is
 * taken with SKIP LOCKED, so several nodes polling at once each get a different job; SQLite has a
 * single writer, so the same statement is atomic there.
 */
export async function claimNext(db: Knex, workerId: string, types: string[]): Promise<JobRow | undefined> {
  if (!types.length) return undefined;
  const at = now();
  const next = db('jobs').select('id').where('status', 'queued').andWhere('run_after', '<=', at).whereIn('type', types).orderBy('created_at').limit(1);
  if (db.client.config.client === 'pg') next.forUpdate().skipLocked();
  // `id = (scalar subquery)` runs the subquery once; with IN, Postgres may re-run it per row and claim several.
  const rows = (await db('jobs')
    .where('id', next)
    .andWhere('status', 'queued')
    .update({ status: 'running', locked_by: workerId, heartbeat_at: at, attempts: db.raw('attempts + 1'), updated_at: at }, '*')) as JobRow[];
  return rows[0];
}

export async function heartbeat(db: Knex, id: string, workerId: string): Promise<void> {
  await db('jobs').where({ id, locked_by: workerId, status: 'running' }).update({ heartbeat_at: now() });
}

/** Progress of a running job; returns the row as it now stands (cancel_requested says whether to stop). */
export async function saveProgress(db: Knex, id: string, workerId: string, progress: number, message: string | undefined): Promise<JobRow | undefined> {
  const changes: Record<string, unknown> = { progress, heartbeat_at: now(), updated_at: now() };
  if (message !== undefined) changes.message = message;
  await db('jobs').where({ id, locked_by: workerId, status: 'running' }).update(changes);
  return findJobById(db, id);
}

export async function finishJob(
  db: Knex,
  id: string,
  workerId: string,
  outcome: { status: 'succeeded' | 'failed' | 'cancelled'; message: string; result?: unknown },
): Promise<boolean> {
  const changed = await db('jobs')
    .where({ id, locked_by: workerId })
    .update({
      status: outcome.status,
      message: outcome.message,
      result: outcome.result === undefined ? null : JSON.stringify(outcome.result),
      progress: outcome.status === 'succeeded' ? 100 : db.raw('progress'),
      locked_by: null,
      finished_at: now(),
      updated_at: now(),
    });
  return changed > 0;
}

/** A transient failure: back in the queue after `delayMs`. */
export async function requeue(db: Knex, id: string, workerId: string, delayMs: number, message: string): Promise<void> {
  await db('jobs')
    .where({ id, locked_by: workerId })
    .update({ status: 'queued', locked_by: null, message, run_after: new Date(Date.now() + delayMs).toISOString(), updated_at: now() });
}

/**
 * Gives a running job back to the queue, its attempt not counted: a node shutting down before its
 * job finished hands it to another worker at once instead of leaving it to go stale.
 */
export async function releaseJob(db: Knex, id: string, workerId: string): Promise<boolean> {
  const changed = await db('jobs')
    .where({ id, locked_by: workerId, status: 'running' })
    .update({ status: 'queued', locked_by: null, attempts: db.raw('CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END'), message: 'Handed back by a node shutting down; another node picks it up.', run_after: now(), updated_at: now() });
  return changed > 0;
}

/**
 * Jobs whose worker stopped (a restart, a crashed node): resumed while attempts remain, else
 * failed with the reason. Never left "running" forever.
 */
export async function recoverAbandoned(db: Knex, staleBefore: Date, types: string[]): Promise<{ resumed: string[]; failed: string[] }> {
  if (!types.length) return { resumed: [], failed: [] };
  // Only the types this worker can run: their workers are the ones to judge them.
  const stale = await db<JobRow>('jobs')
    .where('status', 'running')
    .whereIn('type', types)
    .andWhere((q) => q.whereNull('heartbeat_at').orWhere('heartbeat_at', '<', staleBefore.toISOString()));
  const resumed: string[] = [];
  const failed: string[] = [];
  for (const job of stale) {
    const exhausted = job.attempts >= job.max_attempts;
    const changed = await db('jobs')
      .where({ id: job.id, status: 'running' })
      .andWhere((q) => q.whereNull('heartbeat_at').orWhere('heartbeat_at', '<', staleBefore.toISOString()))
      .update(
        exhausted
          ? { status: 'failed', locked_by: null, message: 'Interrupted: the server stopped while this job ran, too many times.', finished_at: now(), updated_at: now() }
          : { status: 'queued', locked_by: null, message: 'Resumed after the server restarted.', run_after: now(), updated_at: now() },
      );
    if (changed) (exhausted ? failed : resumed).push(job.id);
  }
  return { resumed, failed };
}

/** Queued jobs are cancelled at once; running ones are asked to stop at their next progress report. */
export async function requestCancel(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await jobsOf(db, scope).where({ id, status: 'queued' }).update({ status: 'cancelled', message: 'Cancelled before it started.', finished_at: now(), updated_at: now() });
  await jobsOf(db, scope).where({ id, status: 'running' }).update({ cancel_requested: true, updated_at: now() });
}

/** A new job's row, waiting to run (at `runAfter`, else at once). */
export function queuedJobRow(job: NewJob & { runAfter?: string; message?: string }): JobRow {
  const now = new Date().toISOString();
  return {
    id: newId(),
    company_id: job.companyId,
    owner_user_id: job.ownerUserId,
    type: job.type,
    status: 'queued',
    progress: 0,
    message: job.message ?? 'Waiting to start.',
    input: JSON.stringify(job.input ?? {}),
    result: null,
    attempts: 0,
    max_attempts: job.maxAttempts ?? 3,
    run_after: job.runAfter ?? now,
    locked_by: null,
    heartbeat_at: null,
    cancel_requested: false,
    origin_socket_id: job.originSocketId ?? null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
}
