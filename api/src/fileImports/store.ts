import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { RunRecord } from './run.js';
import type { UploadRow } from './uploads.js';

/** The tables an import keeps its uploaded files and its runs in (people_import_files and people_import_runs, band_files and band_imports). */
export interface ImportTables {
  files: string;
  runs: string;
}

/** Reads and writes an import's files and runs, always within the company. */
export function importStore<Run extends RunRecord>(tables: ImportTables) {
  return {
    insertFile: async (db: Knex, row: UploadRow): Promise<void> => {
      await db(tables.files).insert(row);
    },
    findFile: async (db: Knex, scope: CompanyScope, id: string): Promise<UploadRow | undefined> =>
      (await db(tables.files).where({ company_id: scope.companyId, id }).first()) as UploadRow | undefined,
    insertRun: async (db: Knex, row: Run): Promise<void> => {
      await db(tables.runs).insert(row);
    },
    findRun: async (db: Knex, scope: CompanyScope, id: string): Promise<Run | undefined> =>
      (await db(tables.runs).where({ company_id: scope.companyId, id }).first()) as Run | undefined,
    updateRun: async (db: Knex, scope: CompanyScope, id: string, changes: Partial<Run>): Promise<void> => {
      await db(tables.runs).where({ company_id: scope.companyId, id }).update(changes);
    },
  };
}
