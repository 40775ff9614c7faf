import type { FileStorage } from '../platform/storage/index.js';

/** Where job output and uploaded files live: the platform's file storage (directory, S3 or database). */
export type DownloadStorage = FileStorage;

export { DirectoryStorage } from '../platform/storage/index.js';
