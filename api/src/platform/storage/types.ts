import type { Readable } from 'node:stream';

/**
 * Where the product keeps its files (downloads, exports, rendered PDFs and ZIPs, uploaded import
 * files): a local directory, an S3-compatible bucket or the database. Keys are opaque names the
 * product makes (letters, digits, `.`, `_`, `-`); which company a file belongs to, and until when it
 * is kept, is told by the row that names its key, and the product removes the file when that row expires.
 */
export interface FileStorage {
  /** `directory`, `s3` or `database`. */
  readonly backend: StorageBackend;
  /** Stores the stream under `key`, a chunk at a time; answers its size in bytes. */
  write(key: string, content: Readable): Promise<number>;
  /** The stored content as a stream (an error on the stream if there is none). */
  read(key: string): Readable;
  size(key: string): Promise<number>;
  /** Removes the file; removing a file that is not there is no error. */
  remove(key: string): Promise<void>;
  /**
   * A short-lived address the client fetches the file from directly, when the backend is configured
   * to hand one out (S3 with signed URLs); otherwise undefined and the API streams the file itself.
   */
  downloadUrl(key: string, file: { filename: string; contentType: string }): Promise<string | undefined>;
}

export type { StorageBackend } from '../../config.js';
import type { StorageBackend } from '../../config.js';

const SAFE_KEY = /^[A-Za-z0-9._-]{1,200}$/;

/** Refuses a key that could leave its place (a path, a slash, `..`). */
export function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
  return key;
}
