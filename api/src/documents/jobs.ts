import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { CompanyScope } from '../access/caller.js';
import { saveDownload } from '../downloads/service.js';
import type { DownloadStorage } from '../downloads/storage.js';
import { HttpError } from '../kernel/errors.js';
import { type TypedJobContext, jobKind } from '../jobs/kind.js';
import { fileStem } from './present.js';
import { documentImages } from './images.js';
import { logoOfVersion, pdfOfStoredVersion, versionPdf } from './service.js';
import { type VersionForPdf, versionsForPdf } from './store.js';
import { ZipWriter } from './zip.js';

/** What documents' downloads are called in the downloads list. */
export const DOCUMENT_DOWNLOAD_KIND = 'document';

export interface DocumentPdfInput {
  versionId: string;
  /** Besides the job's owner, people with this permission (view) may fetch the file; the module decides. */
  permission?: string | null;
}

export interface DocumentBulkPdfInput {
  /** The versions to include, in the order of the archive. */
  versionIds: string[];
  /** The archive's name ("reward-letters-2026"); ".zip" is added. */
  filename?: string;
  permission?: string | null;
}

/** One job, one archive: enough for every letter of a large company's cycle; more is several jobs. */
export const MAX_BULK_DOCUMENTS = 20_000;
/** Versions read per query while drawing. */
const PAGE = 200;

const scopeOf = (ctx: { job: { companyId: string } }): CompanyScope => ({ companyId: ctx.job.companyId });

/** One version → one PDF, kept as the job owner's download. */
export const documentPdfJob = jobKind<DocumentPdfInput>({ type: 'documentPdf', title: 'Document PDF' }, ({ downloads }) => async (ctx) => {
  const pdf = await versionPdf(ctx.db, scopeOf(ctx), ctx.job.input.versionId).catch((error: unknown) => {
    throw error instanceof HttpError && error.status === 404 ? new Error('This document is no longer available.') : error;
  });
  const download = await saveDownload(ctx.db, downloads, {
    companyId: ctx.job.companyId,
    ownerUserId: ctx.job.ownerUserId,
    jobId: ctx.job.id,
    kind: DOCUMENT_DOWNLOAD_KIND,
    filename: pdf.filename,
    contentType: 'application/pdf',
    permission: ctx.job.input.permission ?? null,
    content: Readable.from([pdf.bytes]),
  });
  return { downloadId: download.id, sizeBytes: pdf.bytes.length };
});

/** Archive names, unique: two letters with one title become "….pdf" and "…-2.pdf". */
function uniqueName(taken: Set<string>, title: string): string {
  const stem = fileStem(title);
  let name = `${stem}.pdf`;
  for (let count = 2; taken.has(name); count += 1) name = `${stem}-${count}.pdf`;
  taken.add(name);
  return name;
}

interface BulkCounts {
  written: number;
  missing: number;
}

/**
 * Draws every version into the archive in the order given, a page of versions at a time, and
 * reports progress at every percent (which also stops the job when someone cancelled it).
 */
async function writeArchive(ctx: TypedJobContext<DocumentBulkPdfInput>, ids: string[], zip: ZipWriter): Promise<BulkCounts> {
  const counts: BulkCounts = { written: 0, missing: 0 };
  const names = new Set<string>();
  const step = Math.max(1, Math.ceil(ids.length / 100));
  for (let at = 0; at < ids.length; at += PAGE) {
    const page = ids.slice(at, at + PAGE);
    const found = new Map<string, VersionForPdf>((await versionsForPdf(ctx.db, scopeOf(ctx), page)).map((row) => [row.id, row]));
    // Each version's logo as issued, read once per page (a cycle's letters share one).
    const images = await documentImages(ctx.db, scopeOf(ctx), [...found.values()].flatMap((version) => logoOfVersion(version) ?? []));
    for (const [index, id] of page.entries()) {
      const version = found.get(id);
      if (version) {
        const pdf = await pdfOfStoredVersion(version, { images });
        await zip.add(uniqueName(names, version.title), pdf.bytes, new Date(version.created_at));
        counts.written += 1;
      } else counts.missing += 1;
      const done = at + index + 1;
      if (done % step === 0 || done === ids.length) await ctx.progress(Math.floor((done * 99) / ids.length), `${done} of ${ids.length} documents drawn`);
    }
  }
  return counts;
}

function checkedIds(input: DocumentBulkPdfInput): string[] {
  const ids = [...new Set(input.versionIds)];
  if (!ids.length) throw new Error('No documents were chosen.');
  if (ids.length > MAX_BULK_DOCUMENTS) throw new Error(`At most ${MAX_BULK_DOCUMENTS.toLocaleString('en')} documents go in one archive; split them into several.`);
  return ids;
}

async function saveBulk(ctx: TypedJobContext<DocumentBulkPdfInput>, downloads: DownloadStorage, file: string) {
  return saveDownload(ctx.db, downloads, {
    companyId: ctx.job.companyId,
    ownerUserId: ctx.job.ownerUserId,
    jobId: ctx.job.id,
    kind: DOCUMENT_DOWNLOAD_KIND,
    filename: `${fileStem((ctx.job.input.filename ?? 'documents').replace(/\.zip$/i, ''))}.zip`,
    contentType: 'application/zip',
    permission: ctx.job.input.permission ?? null,
    content: createReadStream(file),
  });
}

/**
 * Many versions → one ZIP of PDFs, one download. One archive rather than a download per document:
 * a thousand letters stay one line in the downloads list, one fetch, one expiry. The archive is
 * built in a temporary file first, so a cancelled or failed job leaves nothing in the storage.
 */
export const documentBulkPdfJob = jobKind<DocumentBulkPdfInput>({ type: 'documentBulkPdf', title: 'Documents (PDF archive)' }, ({ downloads }) => async (ctx) => {
  const ids = checkedIds(ctx.job.input);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'paybench-documents-'));
  const file = path.join(dir, 'documents.zip');
  const zip = new ZipWriter(createWriteStream(file, { mode: 0o600 }));
  try {
    const counts = await writeArchive(ctx, ids, zip);
    if (!counts.written) throw new Error('None of these documents is available any more.');
    await zip.finish();
    const download = await saveBulk(ctx, downloads, file);
    return { downloadId: download.id, documents: counts.written, missing: counts.missing };
  } finally {
    zip.abort();
    await rm(dir, { recursive: true, force: true });
  }
});

/** The kinds to register (`queue.registerKind(kind, deps)`). */
export const documentJobKinds = [documentPdfJob, documentBulkPdfJob] as const;
