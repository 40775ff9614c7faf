import type { components } from '../../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../../db/timestamps.js';
import { BELOW_THRESHOLD_BUCKET, isAllowedPercentile } from '../../reference/catalog/index.js';
import { withheldStatement } from '../engine/index.js';
import { storedRequest } from '../queries/present.js';
import type { SliceListRow } from './store.js';

type Schemas = components['schemas'];
type Cell = Schemas['BenchmarkCell'];

/*
 * A stored answer as it may be read today: snapshots taken before only the published percentiles
 * were accepted lose the others, and their withheld cells say what a withheld cell says now,
 * without the reason or buckets that told how small the cell was.
 */

export const storedPercentiles = (percentiles: readonly number[]): Schemas['MarketPercentile'][] => percentiles.filter(isAllowedPercentile);

export function storedCell(stored: Cell): Cell {
  // Cells stored before medians carried their interval, or their synthetic share, read without one.
  const cell = { ...stored, medianUncertainty: stored.medianUncertainty ?? null, syntheticShare: stored.syntheticShare ?? null };
  if (cell.status === 'published') return { ...cell, percentiles: cell.percentiles?.filter((p) => isAllowedPercentile(p.percentile)) ?? null };
  return {
    ...cell,
    medianUncertainty: null,
    syntheticShare: null,
    insufficientReason: withheldStatement(),
    percentiles: null,
    consistency: null,
    sample: { companies: null, employees: null, companyBucket: { ...BELOW_THRESHOLD_BUCKET }, employeeBucket: { ...BELOW_THRESHOLD_BUCKET } },
  };
}
export type SliceStatus = Schemas['SharedSlice']['status'];

export function sliceStatus(row: Pick<SliceListRow, 'revoked_at' | 'expires_at'>, now = Date.now()): SliceStatus {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && new Date(row.expires_at).getTime() <= now) return 'expired';
  return 'active';
}

/** Where the product shows the slice: the spec's page routes. */
export function slicePath(row: Pick<SliceListRow, 'id' | 'kind'>): string {
  return row.kind === 'executive' ? `/shares/executive/${row.id}` : `/shares/${row.id}`;
}

export function presentSlice(row: SliceListRow): Schemas['SharedSlice'] {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    status: sliceStatus(row),
    path: slicePath(row),
    request: storedRequest<Schemas['BenchmarkRequest'] | Schemas['ExecutiveCompRequest']>(row.request),
    releaseId: row.release_id,
    releaseVersion: row.release_version,
    savedQueryId: row.saved_query_id,
    createdAt: isoTimestamp(row.created_at),
    createdBy: row.created_by ? { id: row.created_by, name: [row.created_by_first_name, row.created_by_last_name].filter(Boolean).join(' ') } : null,
    expiresAt: isoTimestampOrNull(row.expires_at),
    revokedAt: isoTimestampOrNull(row.revoked_at),
  };
}
