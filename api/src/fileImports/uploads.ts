import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import type { AppDeps } from '../deps.js';
import { newId } from '../db/ids.js';
import type { DownloadStorage } from '../downloads/storage.js';
import { saveDownload } from '../downloads/service.js';
import { storageKeyOf } from '../downloads/store.js';
import type { UploadedFile } from '../http/body.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { CONTENT_TYPES, type FileFormat, type ReadOptions, type SourceTable, formatOf, readSentTable, readTable } from '../kernel/files/table.js';
import { ImportStopped } from './run.js';

/*
 * The upload stage of every file import: the file is read once for its header (and counted), kept as
 * its uploader's download (it expires with it), and described by a row the area stores in its own
 * table (people_import_files, band_files). Starting an import looks the row up again, the uploader's
 * alone; the job reads the kept file back.
 */

/** What every import keeps about an uploaded file (the columns of people_import_files and band_files). */
export interface UploadRow {
  id: string;
  company_id: string;
  owner_user_id: string;
  download_id: string;
  kind: string;
  format: string;
  filename: string;
  size_bytes: number | string;
  /** The header row, as JSON. */
  columns: string;
  row_count: number | string;
  created_at: string | Date;
  expires_at: string | Date;
}

export interface Upload {
  file: UploadedFile;
  /** The import's kind of file (employees, survey, bands, …). */
  kind: string;
  /** The name the uploader gave; else `<baseName>.<format>`. */
  filename?: string;
  baseName: string;
  /** The download kind the file is kept as. */
  downloadKind: string;
}

/** Reads the uploaded file's header row and counts its rows, keeps it as the uploader's download, and describes it; 400 when it is no table. */
export async function acceptUpload(deps: AppDeps, caller: Caller, upload: Upload): Promise<UploadRow> {
  const scope = companyScope(caller);
  const { file } = upload;
  const format = formatOf(file.contentType, upload.filename, file.bytes.subarray(0, 4));
  const table = await readSentTable(Readable.from(file.bytes), format, { keepRows: false });
  const filename = upload.filename ?? `${upload.baseName}.${format}`;
  const download = await saveDownload(deps.db, deps.downloads, {
    companyId: scope.companyId,
    ownerUserId: caller.userId,
    jobId: null,
    kind: upload.downloadKind,
    filename,
    contentType: CONTENT_TYPES[format],
    permission: null,
    content: Readable.from(file.bytes),
  });
  return {
    id: newId(),
    company_id: scope.companyId,
    owner_user_id: caller.userId,
    download_id: download.id,
    kind: upload.kind,
    format,
    filename,
    size_bytes: file.bytes.length,
    columns: JSON.stringify(table.columns),
    row_count: table.rowCount,
    created_at: download.created_at,
    expires_at: download.expires_at,
  };
}

/**
 * An uploaded file is its uploader's alone: anyone else, in this company or another, gets 404 (or,
 * with `field`, a 400 naming the request field that sent the id); an expired one 404.
 */
export function ownUpload<Row extends UploadRow>(row: Row | undefined, caller: Caller, field?: string): Row {
  const gone = !row || row.owner_user_id !== caller.userId;
  if (gone && field) throw badRequest('There is no uploaded file with this id; upload it first.', [{ field, message: 'is not a file you uploaded' }]);
  if (gone) throw notFound();
  if (new Date(row.expires_at).getTime() <= Date.now()) throw notFound('The file has expired; upload it again.');
  return row;
}

export interface StoredUpload {
  db: Knex;
  storage: DownloadStorage;
  scope: CompanyScope;
  file: UploadRow | undefined;
  /** How an import whose file has expired ends. */
  expiredStatus: ImportStopped['status'];
}

/** The kept file read whole, for the job; an expired file stops the import. */
export async function readUpload(stored: StoredUpload, options: ReadOptions = {}): Promise<SourceTable> {
  const { file } = stored;
  const key = file && new Date(file.expires_at).getTime() > Date.now() ? await storageKeyOf(stored.db, stored.scope, file.download_id) : undefined;
  if (!file || !key) throw new ImportStopped('The uploaded file has expired; upload it again.', stored.expiredStatus);
  return readTable(stored.storage.read(key), file.format as FileFormat, options);
}
