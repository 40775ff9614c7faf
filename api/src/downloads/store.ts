import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

export interface DownloadRow {
  id: string;
  company_id: string;
  owner_user_id: string;
  job_id: string | null;
  kind: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  storage_key: string;
  permission: string | null;
  created_at: string | Date;
  expires_at: string | Date;
}

export async function insertDownload(db: Knex, row: DownloadRow): Promise<void> {
  await db('downloads').insert(row);
}

export async function findDownload(db: Knex, scope: CompanyScope, id: string): Promise<DownloadRow | undefined> {
  return db<DownloadRow>('downloads').where({ company_id: scope.companyId, id }).first();
}

export async function downloadOfJob(db: Knex, jobIds: string[]): Promise<Map<string, string>> {
  if (!jobIds.length) return new Map();
  const rows = await db<DownloadRow>('downloads').whereIn('job_id', jobIds).select('id', 'job_id');
  return new Map(rows.map((row) => [row.job_id ?? '', row.id]));
}

export async function expiredDownloads(db: Knex, now: Date): Promise<DownloadRow[]> {
  return db<DownloadRow>('downloads').where('expires_at', '<', now.toISOString()).limit(500);
}

export async function deleteDownload(db: Knex, id: string): Promise<void> {
  await db('downloads').where({ id }).delete();
}

/** The storage key of one of the company's downloads (an uploaded file kept as its uploader's download). */
export async function storageKeyOf(db: Knex, scope: CompanyScope, downloadId: string): Promise<string | undefined> {
  const row = await db('downloads').where({ company_id: scope.companyId, id: downloadId }).first<{ storage_key: string } | undefined>('storage_key');
  return row?.storage_key;
}
