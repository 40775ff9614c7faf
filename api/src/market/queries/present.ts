import type { components } from '../../contract-types.js';
import { isoTimestamp } from '../../db/timestamps.js';
import { allowedPercentiles } from '../../reference/catalog/index.js';
import type { SavedQueryListRow } from './store.js';

type Schemas = components['schemas'];

/**
 * A stored request as it reads and runs today. One stored before only the published percentiles
 * were accepted keeps just those; with none left it names none, so it answers all seven.
 */
export function storedRequest<T extends { percentiles?: readonly number[] }>(json: string): T {
  const { percentiles, ...rest } = JSON.parse(json) as T;
  const allowed = percentiles === undefined ? undefined : allowedPercentiles(percentiles);
  return (allowed ? { ...rest, percentiles: allowed } : rest) as T;
}

function person(id: string | null, first: string | null, last: string | null): Schemas['BenchmarkingAuthor'] | null {
  if (!id) return null;
  return { id, name: [first, last].filter(Boolean).join(' ') };
}

export function presentSavedQuery(row: SavedQueryListRow): Schemas['SavedReportQuery'] {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    request: storedRequest<Schemas['BenchmarkRequest']>(row.request),
    version: Number(row.version),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
    createdBy: person(row.created_by, row.created_by_first_name, row.created_by_last_name),
    updatedBy: person(row.updated_by, row.updated_by_first_name, row.updated_by_last_name),
  };
}
