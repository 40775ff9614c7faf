import type { Caller } from '../access/caller.js';
import { isoTimestamp, isoTimestampOrNull } from '../db/timestamps.js';
import { notFound } from '../kernel/errors.js';
import type { FileFormat } from '../kernel/files/table.js';
import type { RunRecord } from './run.js';
import type { UploadRow } from './uploads.js';

/** What every import says about an uploaded file; the area adds its kind and its mapping suggestion. */
export function presentUpload(row: UploadRow) {
  return {
    id: row.id,
    filename: row.filename,
    format: row.format as FileFormat,
    sizeBytes: Number(row.size_bytes),
    columns: JSON.parse(row.columns) as string[],
    rowCount: Number(row.row_count),
    createdAt: isoTimestamp(row.created_at),
    expiresAt: isoTimestamp(row.expires_at),
  };
}

/** What every import says about a run: its state, plan and problems; the area adds its kind, source and mapping. */
export function presentRecord<Plan, Problem>(row: RunRecord) {
  return {
    id: row.id,
    dryRun: Boolean(row.dry_run),
    jobId: row.job_id,
    rowCount: row.row_count === null ? null : Number(row.row_count),
    plan: row.plan ? (JSON.parse(row.plan) as Plan) : null,
    errors: row.errors ? (JSON.parse(row.errors) as Problem[]) : [],
    errorCount: Number(row.error_count),
    message: row.message,
    createdAt: isoTimestamp(row.created_at),
    startedAt: isoTimestampOrNull(row.started_at),
    finishedAt: isoTimestampOrNull(row.finished_at),
  };
}

/** An import is its starter's: anyone else, in this company or another, gets 404 (its problems quote the file's cells). */
export function ownRun<Run extends RunRecord>(row: Run | undefined, caller: Caller): Run {
  if (!row || row.owner_user_id !== caller.userId) throw notFound();
  return row;
}
