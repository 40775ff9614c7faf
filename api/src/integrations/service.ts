import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type CompanyScope, companyScope } from '../access/caller.js';
import { emit } from '../platform/events.js';
import { manualSyncJob } from './jobs.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import type { AppDeps } from '../deps.js';
import type { PeopleImportKind } from '../hris/fields.js';
import { type AfterCommit, queueRun, requireKindPermission } from '../hris/service.js';
import { findMappingByName, latestRunsOfIntegrations } from '../hris/store.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { versionConflict } from '../kernel/versions.js';
import { CONNECTORS, findConnector } from './catalogue.js';
import { type Connector, type ConnectorEnvironment, ConnectorError, type ConnectorSettings, withoutUnusedFields } from './connector.js';
import { clearAllAppEdits } from './overrides.js';
import { presentConnector, presentIntegration, presentSync } from './present.js';
import { keyFor, seal, unseal } from '../kernel/secrets.js';
import {
  type IntegrationRow,
  cancelScheduledSyncs,
  deleteIntegration,
  findIntegration,
  insertIntegration,
  listIntegrationRows,
  nameTaken,
  queueScheduledSync,
  recordStatus,
  syncsOfIntegration,
  updateIntegration,
  userNames,
} from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type IntegrationInput = components['schemas']['IntegrationInput'];
type IntegrationChanges = components['schemas']['IntegrationChanges'];


export function connectorEnvironment(log: Logger): ConnectorEnvironment {
  // The first back-off of a vendor call that failed with a 5xx, in milliseconds (doubling on each retry).
  const backoff = Number(process.env.PAYBENCH_INTEGRATIONS_RETRY_BASE_MS);
  return {
    log,
    allowPrivateNetworks: process.env.PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS === 'true',
    ...(Number.isFinite(backoff) && backoff >= 0 && process.env.PAYBENCH_INTEGRATIONS_RETRY_BASE_MS ? { retry: { baseDelayMs: backoff } } : {}),
  };
}


export function listConnectors() {
  return CONNECTORS.map(presentConnector);
}

async function present(db: Knex, scope: CompanyScope, rows: IntegrationRow[]) {
  const runs = await latestRunsOfIntegrations(db, scope, rows.map((row) => row.id));
  const names = await userNames(db, scope, [...runs.values()].map((run) => run.owner_user_id));
  return rows.map((row) => presentIntegration(row, findConnector(row.kind), runs.get(row.id), names));
}

async function presentOne(db: Knex, scope: CompanyScope, row: IntegrationRow) {
  const [presented] = await present(db, scope, [row]);
  if (!presented) throw new Error('presenting a connection gave nothing');
  return presented;
}

export async function listIntegrations(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return present(db, scope, await listIntegrationRows(db, scope));
}

async function ownIntegration(db: Knex, scope: CompanyScope, id: string): Promise<IntegrationRow> {
  const row = await findIntegration(db, scope, id);
  if (!row) throw notFound();
  return row;
}

export async function getIntegration(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return presentOne(db, scope, await ownIntegration(db, scope, id));
}

/** Splits a form's values into plain and secret ones, refusing keys the connector does not have. */
function splitConfig(connector: Connector, config: Record<string, string>): ConnectorSettings {
  const settings: ConnectorSettings = { values: {}, secrets: {} };
  const problems: { field: string; message: string }[] = [];
  for (const [key, value] of Object.entries(config)) {
    const field = connector.fields.find((candidate) => candidate.key === key);
    if (!field) problems.push({ field: `config.${key}`, message: `is not a setting of ${connector.displayName}` });
    else if (field.type === 'secret') settings.secrets[key] = value;
    else settings.values[key] = value.trim();
  }
  if (problems.length) throw badRequest(`The configuration has settings ${connector.displayName} does not know.`, problems);
  return settings;
}

function validated(connector: Connector, settings: ConnectorSettings): void {
  const problems = connector.validate(settings).map((problem) => ({ field: `config.${problem.field}`, message: problem.message }));
  if (problems.length) throw badRequest(`The ${connector.displayName} configuration is not complete: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems);
}

function connectorOf(kind: string): Connector {
  const connector = findConnector(kind);
  if (!connector) throw badRequest(`There is no connector "${kind}".`, [{ field: 'kind', message: `must be one of: ${CONNECTORS.map((c) => c.kind).join(', ')}` }]);
  if (connector.unavailableReason) throw new HttpError(400, 'connector_unavailable', { message: connector.unavailableReason, errors: [{ field: 'kind', message: 'is not available in this deployment' }] });
  return connector;
}

async function checkMappingName(db: Knex, scope: CompanyScope, kind: PeopleImportKind, name: string | null | undefined): Promise<void> {
  if (!name) return;
  if (!(await findMappingByName(db, scope, kind, name))) throw badRequest(`There is no saved mapping named "${name}" for ${kind} files.`, [{ field: 'mappingName', message: `no saved mapping is named "${name}"` }]);
}

const hoursFromNow = (hours: number): string => new Date(Date.now() + hours * 3600_000).toISOString();

/** The stored secrets; a connection sealed under another key must be given its secrets again. */
export function settingsOf(deps: Pick<AppDeps, 'config'>, row: IntegrationRow): ConnectorSettings {
  const secrets = unseal(keyFor(deps), row.secrets);
  if (!secrets) throw new ConnectorError('The stored secrets cannot be read with this server’s key; enter them again.');
  return { values: JSON.parse(row.config) as Record<string, string>, secrets };
}

async function runTest(connector: Connector, settings: ConnectorSettings, log: Logger): Promise<{ ok: boolean; message: string; checkedAt: string }> {
  const result = await connector.test(settings, connectorEnvironment(log));
  return { ...result, checkedAt: new Date().toISOString() };
}

export async function connect(ctx: Pick<ServiceContext, 'deps' | 'caller'>, input: IntegrationInput, log: Logger) {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const connector = connectorOf(input.kind);
  const settings = withoutUnusedFields(connector.fields, splitConfig(connector, input.config));
  validated(connector, settings);
  const importKind = connector.importKind(settings);
  const name = (input.name ?? connector.displayName).trim();
  if (await nameTaken(deps.db, scope, name)) throw new HttpError(409, 'conflict', { message: `A connection named "${name}" exists already; give this one another name.` });
  await checkMappingName(deps.db, scope, importKind, input.mappingName);
  if (input.syncIntervalHours) requireKindPermission(caller, importKind);
  const tested = await runTest(connector, settings, log);
  const now = new Date().toISOString();
  const secretKeys = Object.keys(settings.secrets).filter((key) => settings.secrets[key]);
  const row: IntegrationRow = {
    id: newId(),
    company_id: scope.companyId,
    kind: connector.kind,
    name,
    import_kind: importKind,
    status: tested.ok ? 'connected' : 'error',
    status_message: tested.message,
    checked_at: tested.checkedAt,
    config: JSON.stringify(settings.values),
    secrets: secretKeys.length ? seal(keyFor(deps), settings.secrets) : null,
    secret_keys: JSON.stringify(secretKeys),
    mapping_name: input.mappingName ?? null,
    sync_interval_hours: input.syncIntervalHours ?? null,
    next_sync_at: input.syncIntervalHours ? hoursFromNow(input.syncIntervalHours) : null,
    connected_by: caller.userId,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await deps.db.transaction(async (trx) => {
    await insertIntegration(trx, row);
    if (row.next_sync_at) await queueScheduledSync(trx, { id: row.id, company_id: row.company_id, connected_by: caller.userId }, String(row.next_sync_at));
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'integration.connected', subjectType: 'integration', subjectId: row.id, payload: { kind: row.kind, name } });
  });
  return presentOne(deps.db, scope, row);
}

/** Name, configuration, mapping, schedule; secrets left out are kept, secrets sent empty are removed. */
export async function configure(ctx: Pick<ServiceContext, 'deps' | 'caller'>, id: string, changes: IntegrationChanges, log: Logger) {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const row = await ownIntegration(deps.db, scope, id);
  if (row.version !== changes.version) throw versionConflict('this connection', row.version);
  const connector = connectorOf(row.kind);
  // Secrets sealed under another key cannot be kept: the change must give them again.
  const current = unseal(keyFor(deps), row.secrets) ? settingsOf(deps, row) : { values: JSON.parse(row.config) as Record<string, string>, secrets: {} };
  const edits = changes.config ? splitConfig(connector, changes.config) : { values: {}, secrets: {} };
  const settings = withoutUnusedFields(connector.fields, { values: { ...current.values, ...edits.values }, secrets: { ...current.secrets, ...edits.secrets } });
  for (const [key, value] of Object.entries(settings.secrets)) if (!value) delete settings.secrets[key];
  validated(connector, settings);
  const importKind = connector.importKind(settings);
  const name = changes.name?.trim() ?? row.name;
  if (name !== row.name && (await nameTaken(deps.db, scope, name, id))) throw new HttpError(409, 'conflict', { message: `A connection named "${name}" exists already; give this one another name.` });
  const mappingName = changes.mappingName === undefined ? row.mapping_name : changes.mappingName;
  await checkMappingName(deps.db, scope, importKind, mappingName);
  const interval = changes.syncIntervalHours === undefined ? row.sync_interval_hours : changes.syncIntervalHours;
  if (interval) requireKindPermission(caller, importKind);
  const rescheduled = changes.syncIntervalHours !== undefined;
  const tested = changes.config ? await runTest(connector, settings, log) : undefined;
  const secretKeys = Object.keys(settings.secrets);
  const now = new Date().toISOString();
  const update: Partial<IntegrationRow> = {
    name,
    import_kind: importKind,
    config: JSON.stringify(settings.values),
    secrets: secretKeys.length ? seal(keyFor(deps), settings.secrets) : null,
    secret_keys: JSON.stringify(secretKeys),
    mapping_name: mappingName,
    sync_interval_hours: interval,
    // Scheduled syncs run as whoever last configured the connection.
    connected_by: caller.userId,
    updated_at: now,
    ...(rescheduled ? { next_sync_at: interval ? hoursFromNow(interval) : null } : {}),
    ...(tested ? { status: tested.ok ? 'connected' : 'error', status_message: tested.message, checked_at: tested.checkedAt } : {}),
  };
  await deps.db.transaction(async (trx) => {
    if (!(await updateIntegration(trx, scope, id, row.version, update))) {
      throw versionConflict('this connection');
    }
    if (rescheduled) {
      await cancelScheduledSyncs(trx, scope, id);
      if (update.next_sync_at) await queueScheduledSync(trx, { id, company_id: scope.companyId, connected_by: caller.userId }, String(update.next_sync_at));
    }
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'integration.configured', subjectType: 'integration', subjectId: id, payload: { kind: row.kind, name, changed: Object.keys(changes).filter((key) => key !== 'version') } });
  });
  return presentOne(deps.db, scope, await ownIntegration(deps.db, scope, id));
}

/**
 * Removes the connection. The kept values of corrections made in Paybench are the company's, not
 * the connection's: they stay for the next connection unless the admin asks for them to go.
 */
export async function disconnect(ctx: Pick<ServiceContext, 'deps' | 'caller'>, id: string, keptValues: 'keep' | 'remove' = 'keep') {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const row = await ownIntegration(deps.db, scope, id);
  const presented = await presentOne(deps.db, scope, row);
  await deps.db.transaction(async (trx) => {
    await cancelScheduledSyncs(trx, scope, id);
    await deleteIntegration(trx, scope, id);
    const removed = keptValues === 'remove' ? await clearAllAppEdits(trx, scope) : 0;
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'integration.disconnected', subjectType: 'integration', subjectId: id, payload: { kind: row.kind, name: row.name, keptValues, keptValuesRemoved: removed } });
  });
  return presented;
}

/** The connection's sync history, newest first. */
export async function listSyncs(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, limit = 50) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await ownIntegration(db, scope, id);
  const runs = await syncsOfIntegration(db, scope, id, limit);
  const names = await userNames(db, scope, runs.map((run) => run.owner_user_id));
  return runs.map((run) => presentSync(run, names));
}

export async function testConnection(ctx: Pick<ServiceContext, 'deps' | 'caller'>, id: string, log: Logger) {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const row = await ownIntegration(deps.db, scope, id);
  const connector = findConnector(row.kind);
  let result: { ok: boolean; message: string; checkedAt: string };
  try {
    if (!connector) throw new ConnectorError(`The connector "${row.kind}" is no longer part of Paybench.`);
    result = await runTest(connector, settingsOf(deps, row), log);
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    result = { ok: false, message: error.message, checkedAt: new Date().toISOString() };
  }
  await recordStatus(deps.db, scope, id, { status: result.ok ? 'connected' : 'error', status_message: result.message, checked_at: result.checkedAt });
  return result;
}

/** "Sync now": an import of the connection's rows, run as the caller, in the background. */
export async function syncNow(
  ctx: Pick<ServiceContext, 'deps' | 'caller'>,
  { id, dryRun, originSocketId, afterCommit }: { id: string; dryRun?: boolean; originSocketId: string | undefined; afterCommit: AfterCommit },
) {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const row = await ownIntegration(deps.db, scope, id);
  const importKind = row.import_kind as PeopleImportKind;
  requireKindPermission(caller, importKind);
  return queueRun(
    deps,
    { scope, ownerUserId: caller.userId, kind: importKind, dryRun: dryRun ?? false, mapping: null, mappingName: row.mapping_name, integrationId: row.id, filename: row.name, trigger: 'manual' },
    manualSyncJob,
    { originSocketId, afterCommit },
  );
}
