import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';
import { writeAtVersion } from '../../kernel/versions.js';

/** A saved report query: a named data-explorer request a company keeps. */
export interface SavedQueryRow {
  id: string;
  company_id: string;
  name: string;
  description: string;
  request: string;
  created_by: string | null;
  updated_by: string | null;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

/** The row with the names of who created and last changed it. */
export interface SavedQueryListRow extends SavedQueryRow {
  created_by_first_name: string | null;
  created_by_last_name: string | null;
  updated_by_first_name: string | null;
  updated_by_last_name: string | null;
}

function savedQueriesOf(db: Knex, scope: CompanyScope) {
  return db<SavedQueryRow>('market_saved_queries').where('market_saved_queries.company_id', scope.companyId);
}

function withAuthors(db: Knex, scope: CompanyScope) {
  return savedQueriesOf(db, scope)
    .leftJoin('users as creator', 'creator.id', 'market_saved_queries.created_by')
    .leftJoin('users as editor', 'editor.id', 'market_saved_queries.updated_by')
    .select(
      'market_saved_queries.*',
      'creator.first_name as created_by_first_name',
      'creator.last_name as created_by_last_name',
      'editor.first_name as updated_by_first_name',
      'editor.last_name as updated_by_last_name',
    );
}

export async function listSavedQueries(db: Knex, scope: CompanyScope): Promise<SavedQueryListRow[]> {
  return withAuthors(db, scope).orderBy('market_saved_queries.updated_at', 'desc').orderBy('market_saved_queries.id', 'desc');
}

export async function findSavedQuery(db: Knex, scope: CompanyScope, id: string): Promise<SavedQueryListRow | undefined> {
  return withAuthors(db, scope).where('market_saved_queries.id', id).first();
}

export async function findSavedQueries(db: Knex, scope: CompanyScope, ids: string[]): Promise<SavedQueryRow[]> {
  if (ids.length === 0) return [];
  return savedQueriesOf(db, scope).whereIn('id', ids);
}

export async function insertSavedQuery(db: Knex, row: SavedQueryRow): Promise<void> {
  await db('market_saved_queries').insert(row);
}

/** Changes the query only at the version the caller read; false when someone changed it first. */
export async function updateSavedQuery(
  db: Knex,
  scope: CompanyScope,
  id: string,
  version: number,
  changes: Pick<SavedQueryRow, 'name' | 'description' | 'request' | 'updated_by' | 'updated_at'>,
): Promise<boolean> {
  return writeAtVersion(() => savedQueriesOf(db, scope).where({ id }), version, changes);
}

export async function deleteSavedQuery(db: Knex, scope: CompanyScope, id: string, version: number): Promise<boolean> {
  return (await savedQueriesOf(db, scope).where({ id, version }).delete()) === 1;
}
