import type { components } from '../contract-types.js';
import type { JobRow } from './store.js';

export function presentJob(row: JobRow, downloadId: string | null): components['schemas']['BackgroundJob'] {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    progress: Number(row.progress),
    message: row.message,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    downloadId,
  };
}
