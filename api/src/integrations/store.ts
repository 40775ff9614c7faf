import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { queueJobIn } from '../jobs/queue.js';
import { scheduledSyncJob } from './jobs.js';
import { writeAtVersion } from '../kernel/versions.js';
import type { RunRow } from '../hris/store.js';

export interface IntegrationRow {
  id: string;
  company_id: string;
  kind: string;
  name: string;
  import_kind: string;
  status: string;
  status_message: string | null;
  checked_at: string | Date | null;
  config: string;
  secrets: string | null;
  secret_keys: string;
  mapping_name: string | null;
  sync_interval_hours: number | null;
  next_sync_at: string | Date | null;
  connected_by: string | null;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export async function listIntegrationRows(db: Knex, scope: CompanyScope): Promise<IntegrationRow[]> {
  return db<IntegrationRow>('integrations').where({ company_id: scope.companyId }).orderBy('created_at');
}

export async function findIntegration(db: Knex, scope: CompanyScope, id: string): Promise<IntegrationRow | undefined> {
  return db<IntegrationRow>('integrations').where({ company_id: scope.companyId, id }).first();
}

export async function nameTaken(db: Knex, scope: CompanyScope, name: string, exceptId?: string): Promise<boolean> {
  const query = db('integrations').where({ company_id: scope.companyId }).andWhereRaw('lower(name) = ?', [name.toLowerCase()]);
  if (exceptId) query.andWhereNot({ id: exceptId });
  return (await query.first('id')) !== undefined;
}

export async function insertIntegration(db: Knex, row: IntegrationRow): Promise<void> {
  await db('integrations').insert(row);
}

/** Updates only when the version is the one read: false means someone else changed it first. */
export async function updateIntegration(db: Knex, scope: CompanyScope, id: string, version: number, changes: Partial<IntegrationRow>): Promise<boolean> {
  return writeAtVersion(() => db('integrations').where({ company_id: scope.companyId, id }), version, changes);
}

/** Status after a test or a sync; not a configuration change, so the version stays. */
export async function recordStatus(db: Knex, scope: CompanyScope, id: string, status: { status: string; status_message: string | null; checked_at: string }): Promise<void> {
  await db('integrations').where({ company_id: scope.companyId, id }).update(status);
}

/** Moves the schedule on from the due time that just ran; false when it was changed meanwhile. */
export async function advanceSchedule(db: Knex, scope: CompanyScope, id: string, from: string | Date | null, to: string): Promise<boolean> {
  if (from === null) return false;
  const count = await db('integrations').where({ company_id: scope.companyId, id, next_sync_at: from }).update({ next_sync_at: to });
  return count > 0;
}

/**
 * Where the connection's next sync continues from: the point its latest applied sync (not a dry
 * run) read up to, unless the connection was configured since, when everything is read again.
 * The point is on the run itself, written before the run is applied, so a sync asked for the
 * moment the last one shows as applied already finds it.
 */
export async function syncCursor(db: Knex, scope: CompanyScope, row: Pick<IntegrationRow, 'id' | 'updated_at'>): Promise<string | null> {
  const run = await db('people_import_runs')
    .where({ company_id: scope.companyId, integration_id: row.id, status: 'applied', dry_run: false })
    .whereNotNull('sync_cursor')
    .andWhere('created_at', '>=', row.updated_at)
    .orderBy('created_at', 'desc')
    .first<{ sync_cursor: string } | undefined>('sync_cursor');
  return run?.sync_cursor ?? null;
}

export async function deleteIntegration(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await db('integrations').where({ company_id: scope.companyId, id }).delete();
}

/** The input a scheduled sync job carries: which connection, and the due time it was queued for. */
export interface ScheduledSyncInput {
  integrationId: string;
  dueAt: string;
}

/**
 * Queues the connection's next scheduled sync as a durable job that waits until it is due, so
 * schedules survive restarts and, on Postgres, run once on whichever node is free.
 */
export async function queueScheduledSync(db: Knex, row: { id: string; company_id: string; connected_by: string }, dueAt: string): Promise<void> {
  await queueJobIn(db, scheduledSyncJob, { companyId: row.company_id, ownerUserId: row.connected_by, input: { integrationId: row.id, dueAt }, runAfter: dueAt, message: `Scheduled for ${dueAt}.`, maxAttempts: 1 });
}

/** Scheduled syncs still waiting for a connection whose schedule changed or that was removed. */
export async function cancelScheduledSyncs(db: Knex, scope: CompanyScope, integrationId: string): Promise<void> {
  const now = new Date().toISOString();
  await db('jobs')
    .where({ company_id: scope.companyId, type: scheduledSyncJob.type, status: 'queued' })
    .andWhere('input', 'like', `{"integrationId":"${integrationId}",%`)
    .update({ status: 'cancelled', message: 'The schedule changed.', finished_at: now, updated_at: now });
}

/** The connection's syncs, newest first. */
export async function syncsOfIntegration(db: Knex, scope: CompanyScope, integrationId: string, limit: number): Promise<RunRow[]> {
  return db<RunRow>('people_import_runs').where({ company_id: scope.companyId, integration_id: integrationId }).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
}

/** People of the company by id, as a sync history names them. */
export async function userNames(db: Knex, scope: CompanyScope, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db('users').where({ company_id: scope.companyId }).whereIn('id', unique).select<{ id: string; first_name: string | null; last_name: string | null; email: string }[]>('id', 'first_name', 'last_name', 'email');
  return new Map(rows.map((row) => [row.id, [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email]));
}
