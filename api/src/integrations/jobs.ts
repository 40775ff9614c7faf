import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { CompanyScope } from '../access/caller.js';
import type { AppDeps } from '../deps.js';
import type { PeopleImportKind } from '../hris/fields.js';
import { type TableSource, executeRun } from '../hris/run.js';
import { ImportStopped } from '../fileImports/run.js';
import { runRow } from '../hris/service.js';
import { type RunRow, findRun, insertRun, updateRun } from '../hris/store.js';
import { jobKind } from '../jobs/kind.js';
import type { JobContext } from '../jobs/worker.js';
import type { RunJobInput } from '../hris/jobs.js';
import { findConnector } from './catalogue.js';
import { ConnectorError } from './connector.js';
import { connectorEnvironment, settingsOf } from './service.js';
import { type IntegrationRow, type ScheduledSyncInput, advanceSchedule, findIntegration, queueScheduledSync, recordStatus, syncCursor } from './store.js';
import { clearAgreed, keepAppValues, overridesByEmployeeNumber, takeAppEdits } from './overrides.js';
import type { ColumnMapping } from '../hris/mapping.js';
import type { SourceTable } from '../kernel/files/table.js';

interface SyncOutcome {
  reached: boolean;
  problem?: string;
  /** Corrections the system agrees with now, cleared once applied. */
  agreed: string[];
}

/**
 * The connection's rows, fetched by its connector: only what changed since the last applied sync
 * when the connector can ask for that. A system that cannot be reached ends the import as failed
 * with the connector's words, and marks the connection in error.
 */
function connectorTable(deps: AppDeps, db: Knex, scope: CompanyScope, run: RunRow, row: IntegrationRow, log: Logger, outcome: SyncOutcome): TableSource {
  return async (onRows) => {
    const connector = findConnector(row.kind);
    try {
      if (!connector) throw new ConnectorError(`The connector "${row.kind}" is no longer part of Paybench.`);
      const since = await syncCursor(db, scope, row);
      const table = await connector.fetch(settingsOf(deps, row), connectorEnvironment(log), onRows, { since });
      outcome.reached = true;
      if (table.cursor || table.incremental) await updateRun(db, scope, run.id, { sync_cursor: table.cursor ?? null, incremental: Boolean(table.incremental) });
      return table;
    } catch (error) {
      if (!(error instanceof ConnectorError)) throw error;
      outcome.problem = error.message;
      throw new ImportStopped(error.message);
    }
  };
}

/** Keeps the fields edited in Paybench (overrides.ts) and records the conflicts on the run, dry run or not. */
function keepingAppEdits(db: Knex, scope: CompanyScope, run: RunRow, row: IntegrationRow, outcome: SyncOutcome) {
  return async (table: SourceTable, mapping: ColumnMapping): Promise<void> => {
    if (run.kind !== 'employees') return;
    await takeAppEdits(db, scope, row);
    const kept = keepAppValues(table, mapping, await overridesByEmployeeNumber(db, scope));
    outcome.agreed = kept.agreed;
    await updateRun(db, scope, run.id, { conflicts: JSON.stringify(kept.conflicts.slice(0, MAX_CONFLICTS)) });
  };
}

const MAX_CONFLICTS = 1_000;

async function syncRun(deps: AppDeps, db: Knex, scope: CompanyScope, run: RunRow, row: IntegrationRow, context: Pick<JobContext, 'log' | 'progress'>): Promise<RunRow> {
  const outcome: SyncOutcome = { reached: false, agreed: [] };
  const final = await executeRun({
    db,
    log: context.log,
    scope,
    runId: run.id,
    source: connectorTable(deps, db, scope, run, row, context.log, outcome),
    progress: context.progress,
    beforeCheck: keepingAppEdits(db, scope, run, row, outcome),
  });
  const checkedAt = new Date().toISOString();
  if (outcome.problem) await recordStatus(db, scope, row.id, { status: 'error', status_message: outcome.problem, checked_at: checkedAt });
  else if (outcome.reached) await recordStatus(db, scope, row.id, { status: 'connected', status_message: `Last sync read ${final.row_count ?? 0} rows.`, checked_at: checkedAt });
  // Only an applied sync counts for the next one's cursor (syncCursor): after a failed or rejected one the next reads the same changes again.
  if (final.status === 'applied') await clearAgreed(db, scope, outcome.agreed);
  return final;
}

/** A failed sync fails its job too, so it shows (and notifies) as failed; a rejected file is a finished import. */
function result(final: RunRow) {
  if (final.status === 'failed') throw new Error(final.message ?? 'The sync failed.');
  return { importId: final.id, status: final.status };
}

/** "Sync now": the import was recorded when it was asked for. */
export const manualSyncJob = jobKind<RunJobInput>({ type: 'integrationSync', title: 'Sync' }, (deps) => async ({ job, db, log, progress }) => {
    const scope = { companyId: job.companyId };
    const { runId } = job.input;
    const run = await findRun(db, scope, runId);
    if (!run) return { importId: runId, status: 'missing' };
    const row = run.integration_id ? await findIntegration(db, scope, run.integration_id) : undefined;
    if (!row) {
      await updateRun(db, scope, runId, { status: 'failed', message: 'The connection was removed before it synced.', finished_at: new Date().toISOString() });
      return { importId: runId, status: 'failed' };
    }
    return result(await syncRun(deps, db, scope, run, row, { log, progress }));
  });

/**
 * A scheduled sync: runs if the connection still has this schedule (a changed schedule leaves
 * stale jobs that do nothing), then queues the next one, whatever this one's outcome.
 */
export const scheduledSyncJob = jobKind<ScheduledSyncInput>({ type: 'integrationScheduledSync', title: 'Scheduled sync' }, (deps) => async ({ job, db, log, progress }) => {
    const scope = { companyId: job.companyId };
    const { integrationId, dueAt } = job.input;
    const row = await findIntegration(db, scope, integrationId);
    const due = row?.next_sync_at ? new Date(row.next_sync_at).toISOString() : null;
    if (!row || !row.sync_interval_hours || due !== new Date(dueAt).toISOString()) return { skipped: 'The schedule changed.' };
    const nextAt = new Date(Date.now() + Number(row.sync_interval_hours) * 3600_000).toISOString();
    if (!row.connected_by) {
      await recordStatus(db, scope, row.id, { status: 'error', status_message: 'Scheduled syncs stopped: the person who configured them no longer has access. Save the connection again.', checked_at: new Date().toISOString() });
      return { skipped: 'Nobody to run as.' };
    }
    const run = runRow({ scope, ownerUserId: row.connected_by, kind: row.import_kind as PeopleImportKind, dryRun: false, mapping: null, mappingName: row.mapping_name, integrationId: row.id, filename: row.name, trigger: 'schedule' });
    run.job_id = job.id;
    await insertRun(db, run);
    try {
      return result(await syncRun(deps, db, scope, run, row, { log, progress }));
    } finally {
      // Only if nobody rescheduled meanwhile: their change queued its own next sync.
      if (await advanceSchedule(db, scope, row.id, row.next_sync_at, nextAt)) await queueScheduledSync(db, { id: row.id, company_id: row.company_id, connected_by: row.connected_by }, nextAt);
    }
  });
