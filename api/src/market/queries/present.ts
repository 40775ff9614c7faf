import type { components } from '../../contract-types.js';
import { isoTimestamp } from '../../db/timestamps.js';
import type { BenchmarkRequest } from '../engine/index.js';
import type { SavedQueryListRow } from './store.js';

type Schemas = components['schemas'];

function person(id: string | null, first: string | null, last: string | null): Schemas['BenchmarkingAuthor'] | null {
  if (!id) return null;
  return { id, name: [first, last].filter(Boolean).join(' ') };
}

export function presentSavedQuery(row: SavedQueryListRow): Schemas['SavedReportQuery'] {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    request: JSON.parse(row.request) as BenchmarkRequest,
    version: Number(row.version),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
    createdBy: person(row.created_by, row.created_by_first_name, row.created_by_last_name),
    updatedBy: person(row.updated_by, row.updated_by_first_name, row.updated_by_last_name),
  };
}
