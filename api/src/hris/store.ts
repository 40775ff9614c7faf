import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { chunks } from '../kernel/importPlan.js';
import { inPages } from '../people/importRows.js';
import type { RunRecord } from '../fileImports/run.js';
import { importStore } from '../fileImports/store.js';
import type { UploadRow } from '../fileImports/uploads.js';

/** An uploaded people-data file (people_import_files): the columns every import keeps about an upload. */
export type ImportFileRow = UploadRow;

export interface MappingRow {
  id: string;
  company_id: string;
  kind: string;
  name: string;
  mapping: string;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface RunRow extends RunRecord {
  integration_id: string | null;
  trigger: string;
  mapping_name: string | null;
  row_count: number | null;
  error_count: number;
  /** JSON: what a sync kept of Paybench's edits (integrations/overrides.ts). */
  conflicts?: string | null;
  /** A sync that read only what changed since the last applied one. */
  incremental?: boolean | number;
  /** The system's time a sync read up to (integrations/store.ts syncCursor). */
  sync_cursor?: string | null;
}

const tables = importStore<RunRow>({ files: 'people_import_files', runs: 'people_import_runs' });
export const { insertFile: insertImportFile, findFile: findImportFile, insertRun, findRun, updateRun } = tables;

export async function listMappings(db: Knex, scope: CompanyScope, kind: string | undefined): Promise<MappingRow[]> {
  const query = db<MappingRow>('people_import_mappings').where({ company_id: scope.companyId });
  if (kind) query.andWhere({ kind });
  return query.orderBy(['kind', 'name']);
}

export async function findMappingByName(db: Knex, scope: CompanyScope, kind: string, name: string): Promise<MappingRow | undefined> {
  return db<MappingRow>('people_import_mappings').where({ company_id: scope.companyId, kind, name }).first();
}

export async function findMapping(db: Knex, scope: CompanyScope, id: string): Promise<MappingRow | undefined> {
  return db<MappingRow>('people_import_mappings').where({ company_id: scope.companyId, id }).first();
}

export async function insertMapping(db: Knex, row: MappingRow): Promise<void> {
  await db('people_import_mappings').insert(row);
}

export async function updateMapping(db: Knex, scope: CompanyScope, id: string, changes: Pick<MappingRow, 'mapping' | 'updated_by' | 'updated_at'>): Promise<void> {
  await db('people_import_mappings').where({ company_id: scope.companyId, id }).update(changes);
}

export async function deleteMapping(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await db('people_import_mappings').where({ company_id: scope.companyId, id }).delete();
}

export async function latestRunsOfIntegrations(db: Knex, scope: CompanyScope, integrationIds: string[]): Promise<Map<string, RunRow>> {
  const latest = new Map<string, RunRow>();
  for (const part of chunks(integrationIds)) {
    const rows = await db<RunRow>('people_import_runs')
      .where({ company_id: scope.companyId })
      .whereIn('integration_id', part)
      .orderBy('created_at', 'desc');
    for (const row of rows) if (row.integration_id && !latest.has(row.integration_id)) latest.set(row.integration_id, row);
  }
  return latest;
}

/** Active sign-ins of the company by lower-cased e-mail, to link employee records to their people. */
export async function companyUserIdsByEmail(db: Knex, scope: CompanyScope): Promise<Map<string, string>> {
  const rows = await inPages<{ id: string; email: string }>(() => db('users').where({ company_id: scope.companyId, status: 'active' }).select('id', 'email'), 'email');
  return new Map(rows.map((row) => [row.email.toLowerCase(), row.id]));
}

export async function companyCurrency(db: Knex, scope: CompanyScope): Promise<string> {
  const row = await db('companies').where({ id: scope.companyId }).first<{ currency: string } | undefined>('currency');
  return row?.currency ?? 'USD';
}

/**
 * Takes the company's row lock for the length of the transaction, so two imports of one company
 * (on two nodes) apply one after the other. SQLite's write transactions are serial already.
 */
export async function lockCompanyForImport(db: Knex, scope: CompanyScope): Promise<void> {
  if (db.client.config.client === 'pg') await db('companies').where({ id: scope.companyId }).forUpdate().first('id');
}

