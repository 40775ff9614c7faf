import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileStorage, checkedKey } from './types.js';

/** Files in a local directory (the default): one disk, so one node, or a disk every node mounts. */
export class DirectoryStorage implements FileStorage {
  readonly backend = 'directory' as const;

  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  async write(key: string, content: Readable): Promise<number> {
    await mkdir(this.root, { recursive: true });
    await pipeline(content, createWriteStream(this.file(key), { mode: 0o600 }));
    return this.size(key);
  }

  read(key: string): Readable {
    return createReadStream(this.file(key));
  }

  async size(key: string): Promise<number> {
    return (await stat(this.file(key))).size;
  }

  async remove(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  downloadUrl(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
}
