import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { AppDeps } from '../deps.js';
import { jobKind } from '../jobs/kind.js';
import { queueJobIn } from '../jobs/queue.js';
import { type DomainEventName, type EventSubscriber, subscribe } from '../platform/events.js';
import { computeInsights } from './compute.js';
import { replaceInsights } from './store.js';
import { dataLabFeatures } from './subscription.js';

/*
 * Insights are computed in the background: after the changes that move them (people imports and
 * edits, a published band set, a merit cycle's transitions, grants), at most one run waiting per
 * company at a time; and every night at 03:00 UTC, a run that queues the next one.
 */

export interface InsightsJobInput {
  reason: string;
}

const today = (): string => new Date().toISOString().slice(0, 10);

async function recompute(deps: AppDeps, db: Knex, scope: CompanyScope, reason: string): Promise<{ insights: number; skipped?: string }> {
  if (!(await dataLabFeatures(db, scope.companyId)).insights) return { insights: 0, skipped: 'The company has no data-lab insights.' };
  const insights = await computeInsights(deps, db, scope, today());
  await replaceInsights(db, scope, insights, reason, new Date().toISOString());
  return { insights: insights.length };
}

/** The next 03:00 UTC after `now`. */
export function nextNightlyRun(now: Date): string {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 3, 0, 0));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

async function hasQueued(db: Knex, scope: CompanyScope, type: string): Promise<boolean> {
  const row = (await db('jobs').where({ company_id: scope.companyId, type, status: 'queued' }).first('id')) as { id: string } | undefined;
  return row !== undefined;
}

/** The nightly run, once per company: queued by the first computation, then by each nightly run for the next night. */
async function ensureNightly(db: Knex, scope: CompanyScope, ownerUserId: string): Promise<void> {
  if (await hasQueued(db, scope, nightlyInsightsJob.type)) return;
  const runAfter = nextNightlyRun(new Date());
  await queueJobIn(db, nightlyInsightsJob, { companyId: scope.companyId, ownerUserId, input: { reason: 'nightly' }, runAfter, message: `Scheduled for ${runAfter}.`, maxAttempts: 1 });
}

export const insightsJob = jobKind<InsightsJobInput>({ type: 'dataLabInsights', title: 'Data-lab insights' }, (deps) => async ({ job, db, progress }) => {
  const scope = { companyId: job.companyId };
  await progress(10, 'Computing insights');
  const result = await recompute(deps, db, scope, job.input.reason);
  if (!result.skipped) await ensureNightly(db, scope, job.ownerUserId);
  return result;
});

export const nightlyInsightsJob = jobKind<InsightsJobInput>({ type: 'dataLabNightlyInsights', title: 'Nightly data-lab insights' }, (deps) => async ({ job, db }) => {
  const scope = { companyId: job.companyId };
  const result = await recompute(deps, db, scope, 'nightly');
  // A company that dropped insights stops its nightly runs; turning them on again starts them.
  if (!result.skipped) await ensureNightly(db, scope, job.ownerUserId);
  return result;
});

/** Queues a recomputation unless one is already waiting for the company (a burst of changes makes one run). */
export async function queueRecompute(deps: Pick<AppDeps, 'db' | 'jobs'>, scope: CompanyScope, ownerUserId: string, reason: string): Promise<void> {
  if (await hasQueued(deps.db, scope, insightsJob.type)) return;
  await deps.jobs.start(insightsJob, { companyId: scope.companyId, ownerUserId, input: { reason }, maxAttempts: 2 });
}

const MOVES_INSIGHTS: readonly DomainEventName[] = [
  'employees.imported',
  'equityGrants.imported',
  'employee.created',
  'employee.updated',
  'employee.terminated',
  'equity_grant.created',
  'equity_grant.updated',
  'equity_grant.deleted',
  'bandSet.published',
  'meritCycle.transitioned',
  'meritCycle.worksheetMoved',
];

/** One subscriber per event that moves insights: a company with insights gets a recomputation queued. */
export const insightSubscribers: EventSubscriber[] = MOVES_INSIGHTS.map((name) =>
  subscribe(name, `dataLab.recomputeOn.${name}`, async (event, deps) => {
    if (!event.companyId || !event.actorUserId) return;
    if (!(await dataLabFeatures(deps.db, event.companyId)).insights) return;
    await queueRecompute(deps, { companyId: event.companyId }, event.actorUserId, name);
  }),
);
