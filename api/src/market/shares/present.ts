import type { components } from '../../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../../db/timestamps.js';
import type { SliceListRow } from './store.js';

type Schemas = components['schemas'];
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
    request: JSON.parse(row.request) as Schemas['SharedSlice']['request'],
    releaseId: row.release_id,
    releaseVersion: row.release_version,
    savedQueryId: row.saved_query_id,
    createdAt: isoTimestamp(row.created_at),
    createdBy: row.created_by ? { id: row.created_by, name: [row.created_by_first_name, row.created_by_last_name].filter(Boolean).join(' ') } : null,
    expiresAt: isoTimestampOrNull(row.expires_at),
    revokedAt: isoTimestampOrNull(row.revoked_at),
  };
}
