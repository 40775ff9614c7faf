import type { components } from '../contract-types.js';
import type { PeopleImportKind } from '../hris/fields.js';
import type { RunRow } from '../hris/store.js';
import type { Connector } from './connector.js';
import type { IntegrationRow } from './store.js';

type Schemas = components['schemas'];

const iso = (value: string | Date): string => new Date(value).toISOString();
const isoOrNull = (value: string | Date | null): string | null => (value === null ? null : iso(value));

export function presentConnector(connector: Connector): Schemas['IntegrationConnector'] {
  return {
    kind: connector.kind,
    displayName: connector.displayName,
    category: connector.category,
    importKinds: [...connector.importKinds],
    available: connector.unavailableReason === undefined,
    availabilityNote: connector.unavailableReason ?? null,
    fields: connector.fields.map((field) => ({ ...field, ...(field.options ? { options: field.options.map((option) => ({ ...option })) } : {}) })),
  };
}

/** How many of a sync's problems its history shows; the import lists them all. */
const PROBLEMS_SHOWN = 10;

/** A sync as its connection's history shows it; `names` has the people who asked for syncs by id. */
export function presentSync(run: RunRow, names: ReadonlyMap<string, string>): Schemas['IntegrationSync'] {
  const plan = run.plan ? (JSON.parse(run.plan) as Schemas['PeopleImportPlan']) : null;
  const problems = run.errors ? (JSON.parse(run.errors) as Schemas['PeopleImportRowError'][]).slice(0, PROBLEMS_SHOWN) : [];
  const name = names.get(run.owner_user_id);
  return {
    importId: run.id,
    status: run.status as Schemas['IntegrationSync']['status'],
    dryRun: Boolean(run.dry_run),
    trigger: run.trigger === 'schedule' ? 'schedule' : 'manual',
    startedAt: isoOrNull(run.started_at),
    finishedAt: isoOrNull(run.finished_at),
    message: run.message,
    rows: run.row_count === null ? null : Number(run.row_count),
    create: plan?.create ?? 0,
    update: plan?.update ?? 0,
    unchanged: plan?.unchanged ?? 0,
    compensationRecordsAdded: plan?.compensationRecords.add ?? 0,
    errorCount: Number(run.error_count),
    conflictCount: run.conflicts ? (JSON.parse(run.conflicts) as unknown[]).length : 0,
    incremental: Boolean(run.incremental),
    triggeredBy: name === undefined ? null : { userId: run.owner_user_id, name },
    problems,
  };
}

/** The connection as people see it: secrets only by name, never their values. */
export function presentIntegration(row: IntegrationRow, connector: Connector | undefined, lastRun: RunRow | undefined, names: ReadonlyMap<string, string>): Schemas['Integration'] {
  const importKind = row.import_kind as PeopleImportKind;
  return {
    id: row.id,
    kind: row.kind,
    displayName: connector?.displayName ?? row.kind,
    category: importKind === 'equityGrants' ? 'capTable' : 'hris',
    name: row.name,
    importKind,
    status: row.status === 'connected' ? 'connected' : 'error',
    statusMessage: row.status_message,
    checkedAt: isoOrNull(row.checked_at),
    config: JSON.parse(row.config) as Record<string, string>,
    secretsSet: JSON.parse(row.secret_keys) as string[],
    mappingName: row.mapping_name,
    syncIntervalHours: row.sync_interval_hours === null ? null : Number(row.sync_interval_hours),
    nextSyncAt: isoOrNull(row.next_sync_at),
    lastSync: lastRun ? presentSync(lastRun, names) : null,
    version: Number(row.version),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
