import type { Knex } from 'knex';
import { type Caller, companyScope } from '../access/caller.js';
import { downloadOfJob } from '../downloads/store.js';
import { notFound } from '../kernel/errors.js';
import type { JobKind } from './kind.js';
import { presentJob } from './present.js';
import type { JobQueue } from './queue.js';
import { type JobRow, findJob, jobsOfOwner, requestCancel } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

const DAY_MS = 24 * 3600 * 1000;

async function present(db: Knex, rows: JobRow[]) {
  const downloads = await downloadOfJob(db, rows.map((row) => row.id));
  return rows.map((row) => presentJob(row, downloads.get(row.id) ?? null));
}

export async function myJobs(ctx: Pick<ServiceContext, 'db' | 'caller'>, withinDays: number) {
  const { db, caller } = ctx;
  return present(db, await jobsOfOwner(db, companyScope(caller), caller.userId, new Date(Date.now() - withinDays * DAY_MS)));
}

/** A job is its owner's: anyone else, in this company or another, gets 404. */
async function ownJob(db: Knex, caller: Caller, jobId: string): Promise<JobRow> {
  const row = await findJob(db, companyScope(caller), jobId);
  if (!row || row.owner_user_id !== caller.userId) throw notFound();
  return row;
}

export async function job(ctx: Pick<ServiceContext, 'db' | 'caller'>, jobId: string) {
  const { db, caller } = ctx;
  return (await present(db, [await ownJob(db, caller, jobId)]))[0];
}

export async function cancel(ctx: Pick<ServiceContext, 'db'>, queue: JobQueue, caller: Caller, jobId: string) {
  const { db } = ctx;
  await ownJob(db, caller, jobId);
  await requestCancel(db, companyScope(caller), jobId);
  const row = await ownJob(db, caller, jobId);
  queue.announce(row);
  return (await present(db, [row]))[0];
}

export async function startJob<Input>(queue: JobQueue, caller: Caller, kind: JobKind<Input>, input: Input, originSocketId: string | undefined) {
  const row = await queue.start(kind, { companyId: companyScope(caller).companyId, ownerUserId: caller.userId, input, originSocketId });
  return presentJob(row, null);
}
