import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/* The job_postings table; every function takes the company's scope. */

export interface PostingRow {
  id: string;
  company_id: string;
  company_job_id: string;
  title: string;
  state: string;
  remote: boolean | number;
  /** JSON: StoredRegion[]. */
  hiring_regions: string;
  /** JSON: StoredLocation[]. */
  locations: string;
  pay_basis: string;
  pay_period: string;
  rounding: number;
  benefits_description: string;
  asks_pay_history: boolean | number;
  employer_headcount: number | null;
  band_set_id: string | null;
  band_set_version: number | null;
  /** JSON: StoredApproval, or null. */
  approval: string | null;
  stale_at: string | Date | null;
  stale_reason: string | null;
  owner_user_id: string;
  version: number;
  created_by: string;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export const postingsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('job_postings').where('job_postings.company_id', scope.companyId);

/** Dates as ISO text and booleans as booleans, whichever engine answered. */
function normal(row: PostingRow): PostingRow {
  const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());
  return {
    ...row,
    remote: Boolean(row.remote),
    asks_pay_history: Boolean(row.asks_pay_history),
    version: Number(row.version),
    rounding: Number(row.rounding),
    employer_headcount: row.employer_headcount === null ? null : Number(row.employer_headcount),
    band_set_version: row.band_set_version === null ? null : Number(row.band_set_version),
    stale_at: iso(row.stale_at),
    created_at: iso(row.created_at) ?? '',
    updated_at: iso(row.updated_at) ?? '',
  };
}

export async function listPostingRows(db: Knex, scope: CompanyScope, filter: { stale?: boolean; state?: string | null } = {}): Promise<PostingRow[]> {
  let query = postingsOf(db, scope);
  if (filter.stale === true) query = query.whereNotNull('stale_at');
  if (filter.stale === false) query = query.whereNull('stale_at');
  if (filter.state) query = query.where('state', filter.state);
  const rows = (await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])) as PostingRow[];
  return rows.map(normal);
}

export async function findPosting(db: Knex, scope: CompanyScope, id: string): Promise<PostingRow | undefined> {
  const row = (await postingsOf(db, scope).where('id', id).first()) as PostingRow | undefined;
  return row ? normal(row) : undefined;
}

export async function insertPosting(db: Knex, row: PostingRow): Promise<void> {
  await db('job_postings').insert(row);
}

/** Postings not closed, of a company (those a new band set may no longer hold). */
export async function livePostingRows(db: Knex, scope: CompanyScope): Promise<PostingRow[]> {
  return (await listPostingRows(db, scope)).filter((row) => row.state !== 'closed');
}

/** Open postings of one company job (an offer for it is checked against their ranges). */
export async function openPostingsOfJob(db: Knex, scope: CompanyScope, companyJobId: string): Promise<PostingRow[]> {
  const rows = (await postingsOf(db, scope).where({ company_job_id: companyJobId, state: 'open' }).orderBy('created_at', 'desc')) as PostingRow[];
  return rows.map(normal);
}

export async function markStale(db: Knex, scope: CompanyScope, id: string, at: string, reason: string): Promise<void> {
  await postingsOf(db, scope).where('id', id).update({ stale_at: at, stale_reason: reason });
}
