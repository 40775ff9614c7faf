import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where job output lives. A directory by default; object storage can implement the same four calls. */
export interface DownloadStorage {
  write(key: string, content: Readable): Promise<number>;
  read(key: string): Readable;
  size(key: string): Promise<number>;
  remove(key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9._-]+$/;

export class DirectoryStorage implements DownloadStorage {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, key);
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
}
