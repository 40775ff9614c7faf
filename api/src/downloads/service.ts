import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type Caller, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { notFound } from '../kernel/errors.js';
import { RawResponse, RedirectResponse, type ServiceContext } from '../kernel/operations.js';
import type { DownloadStorage } from './storage.js';
import { type DownloadRow, deleteDownload, expiredDownloads, findDownload, insertDownload } from './store.js';

/** Files are kept a week: long enough to fetch, short enough not to pile up pay data. */
export const DOWNLOAD_LIFETIME_MS = 7 * 24 * 3600 * 1000;

export interface NewDownload {
  companyId: string;
  ownerUserId: string;
  jobId: string | null;
  kind: string;
  filename: string;
  contentType: string;
  /** Besides the owner, people with this permission (view) may fetch it. */
  permission: string | null;
  content: Readable;
}

export async function saveDownload(db: Knex, storage: DownloadStorage, input: NewDownload): Promise<DownloadRow> {
  const id = newId();
  const storageKey = `${id}.bin`;
  const size = await storage.write(storageKey, input.content);
  const now = new Date();
  const row: DownloadRow = {
    id,
    company_id: input.companyId,
    owner_user_id: input.ownerUserId,
    job_id: input.jobId,
    kind: input.kind,
    filename: input.filename,
    content_type: input.contentType,
    size_bytes: size,
    storage_key: storageKey,
    permission: input.permission,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + DOWNLOAD_LIFETIME_MS).toISOString(),
  };
  await insertDownload(db, row);
  return row;
}

/** The owner, or someone whose permission covers the file; anyone else — and every other company — gets 404. */
async function accessible(db: Knex, caller: Caller, id: string, log: Logger): Promise<DownloadRow> {
  const row = await findDownload(db, companyScope(caller), id);
  const allowed = row && (row.owner_user_id === caller.userId || (row.permission !== null && hasPermission(caller.permissions, row.permission, 'view', 'all', log)));
  if (!row || !allowed || new Date(row.expires_at).getTime() < Date.now()) throw notFound();
  return row;
}

export function presentDownload(row: DownloadRow): components['schemas']['Download'] {
  return {
    id: row.id,
    kind: row.kind,
    filename: row.filename,
    contentType: row.content_type,
    sizeBytes: Number(row.size_bytes),
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    jobId: row.job_id,
  };
}

export async function downloadMetadata(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, log: Logger) {
  const { db, caller } = ctx;
  return presentDownload(await accessible(db, caller, id, log));
}

/** The file streamed through the API, or a redirect to a short-lived signed URL when the storage hands those out. */
export async function openDownload(ctx: Pick<ServiceContext, 'db'>, storage: DownloadStorage, caller: Caller, id: string, log: Logger): Promise<RawResponse | RedirectResponse> {
  const { db } = ctx;
  const row = await accessible(db, caller, id, log);
  const url = await storage.downloadUrl(row.storage_key, { filename: row.filename, contentType: row.content_type });
  if (url) return new RedirectResponse(url);
  return new RawResponse(storage.read(row.storage_key), row.content_type, row.filename, Number(row.size_bytes));
}

/** Deletes expired files and their rows. */
export async function removeExpiredDownloads(db: Knex, storage: DownloadStorage): Promise<number> {
  const rows = await expiredDownloads(db, new Date());
  for (const row of rows) {
    await storage.remove(row.storage_key);
    await deleteDownload(db, row.id);
  }
  return rows.length;
}
