import type { Knex } from 'knex';
import { HttpError, badRequest, notFound } from './errors.js';

// Versioned writes: a shared record carries an integer version; a change names the version the
// caller read (If-Match) and is refused, never merged, when someone else changed it first.
// The router turns a missing If-Match into 428 and sets ETag from what a handler returns.

/** `"3"` or `W/"3"` → 3. Where a record is made by its first write, 0 names "nothing stored yet". */
export function versionOf(ifMatch: string): number {
  const version = Number(/^(?:W\/)?"?(\d{1,15})"?$/.exec(ifMatch.trim())?.[1]);
  if (!Number.isInteger(version)) throw badRequest('If-Match must be the version you read, e.g. "3"', [{ field: 'header.if-match', message: 'is not a version' }]);
  return version;
}

/** 409 saying what changed; with the version now stored as ETag when it is known, so a client can read again. */
export function versionConflict(what: string, current?: number): HttpError {
  return new HttpError(409, 'version_conflict', {
    message: `Someone else changed ${what} first. Reload and try again.`,
    headers: current === undefined ? {} : { ETag: `"${current}"` },
  });
}

/**
 * The one versioned write: `changes` go to the one row `row()` selects only while its version is
 * still `version`, and the version goes up by one; true when it did. `nullIsFirst` reads a row
 * stored before it had versions (null) as version 1.
 */
export async function writeAtVersion(row: () => Knex.QueryBuilder, version: number, changes: Record<string, unknown>, { nullIsFirst = false }: { nullIsFirst?: boolean } = {}): Promise<boolean> {
  const atVersion = row().andWhere((query) => (nullIsFirst && version === 1 ? query.where('version', 1).orWhereNull('version') : query.where('version', version)));
  return (await atVersion.update({ ...changes, version: version + 1 })) === 1;
}

/**
 * The other versioned write: a change made without a version read (a side effect of another change,
 * a system run) still moves the version of every row `rows()` selects on by one, so a client holding
 * the one before is refused. Returns how many rows changed.
 */
export async function moveVersionOn(rows: () => Knex.QueryBuilder, changes: Record<string, unknown> = {}): Promise<number> {
  if ('version' in changes) throw new Error('moveVersionOn moves the version itself; leave it out of the changes');
  return (await rows().update(changes).increment('version', 1)) as number;
}

/**
 * `writeAtVersion` that answers for itself: returns the new version; a row that is gone is 404, a
 * newer one 409 with its version.
 */
export async function updateAtVersion(row: () => Knex.QueryBuilder, version: number, changes: Record<string, unknown>, what: string): Promise<number> {
  if (await writeAtVersion(row, version, changes)) return version + 1;
  const current = (await row().first('version')) as { version: number | string } | undefined;
  if (!current) throw notFound();
  throw versionConflict(what, Number(current.version));
}
