import type { Knex } from 'knex';
import { DatabaseStorage } from './database.js';
import { DirectoryStorage } from './directory.js';
import { S3Storage } from './s3.js';
import type { StorageConfig } from '../../config.js';
import type { FileStorage } from './types.js';

export type { FileStorage, StorageBackend } from './types.js';
export { DatabaseStorage } from './database.js';
export { DirectoryStorage } from './directory.js';
export { S3Storage } from './s3.js';
export { type S3StorageConfig, type StorageConfig, storageConfigFrom } from '../../config.js';

/** The configured storage; the database backend uses the server's own connection pool. */
export function createFileStorage(config: StorageConfig, db: Knex): FileStorage {
  if (config.backend === 's3' && config.s3) return new S3Storage(config.s3);
  if (config.backend === 'database') return new DatabaseStorage(db);
  return new DirectoryStorage(config.directory);
}
