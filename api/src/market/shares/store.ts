import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';

export type SliceKind = 'employee' | 'executive';

/** A shared slice: the request, the release it ran on and what it answered, frozen when shared. */
export interface SliceRow {
  id: string;
  company_id: string;
  kind: SliceKind;
  title: string;
  request: string;
  result: string;
  release_id: string;
  release_version: string;
  saved_query_id: string | null;
  created_by: string | null;
  created_at: string | Date;
  expires_at: string | Date | null;
  revoked_at: string | Date | null;
  revoked_by: string | null;
}

export interface SliceListRow extends Omit<SliceRow, 'result'> {
  created_by_first_name: string | null;
  created_by_last_name: string | null;
}

const LIST_COLUMNS = [
  'market_shared_slices.id',
  'market_shared_slices.company_id',
  'market_shared_slices.kind',
  'market_shared_slices.title',
  'market_shared_slices.request',
  'market_shared_slices.release_id',
  'market_shared_slices.release_version',
  'market_shared_slices.saved_query_id',
  'market_shared_slices.created_by',
  'market_shared_slices.created_at',
  'market_shared_slices.expires_at',
  'market_shared_slices.revoked_at',
  'market_shared_slices.revoked_by',
  'creator.first_name as created_by_first_name',
  'creator.last_name as created_by_last_name',
];

function slicesOf(db: Knex, scope: CompanyScope) {
  return db('market_shared_slices')
    .where('market_shared_slices.company_id', scope.companyId)
    .leftJoin('users as creator', 'creator.id', 'market_shared_slices.created_by');
}

/** Without the stored results, which can be large. */
export async function listSlices(db: Knex, scope: CompanyScope): Promise<SliceListRow[]> {
  return slicesOf(db, scope).select(LIST_COLUMNS).orderBy('market_shared_slices.created_at', 'desc').orderBy('market_shared_slices.id', 'desc');
}

export async function findSlice(db: Knex, scope: CompanyScope, id: string): Promise<(SliceListRow & { result: string }) | undefined> {
  return slicesOf(db, scope).where('market_shared_slices.id', id).first([...LIST_COLUMNS, 'market_shared_slices.result']);
}

export async function insertSlice(db: Knex, row: SliceRow): Promise<void> {
  await db('market_shared_slices').insert(row);
}

/** Revoking is once: a revoked slice keeps who revoked it and when. */
export async function markRevoked(db: Knex, scope: CompanyScope, id: string, by: string, at: string): Promise<void> {
  await db('market_shared_slices').where({ company_id: scope.companyId, id }).whereNull('revoked_at').update({ revoked_at: at, revoked_by: by });
}
