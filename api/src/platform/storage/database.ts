import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { type FileStorage, checkedKey } from './types.js';

/** 256 KiB a row: a large file is never one value in memory, and a row stays well under any limit. */
export const CHUNK_BYTES = 256 * 1024;

/**
 * Files in the database itself (`stored_files` and `stored_file_chunks`): for small installs that
 * back up one thing and run no object store. Written and read a chunk at a time.
 */
export class DatabaseStorage implements FileStorage {
  readonly backend = 'database' as const;

  constructor(private readonly db: Knex) {}

  async write(key: string, content: Readable): Promise<number> {
    checkedKey(key);
    await this.remove(key);
    await this.db('stored_files').insert({ key, size_bytes: 0, created_at: new Date().toISOString() });
    let seq = 0;
    let size = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (): Promise<void> => {
      if (!pendingBytes) return;
      const whole = Buffer.concat(pending);
      for (let start = 0; start < whole.length; start += CHUNK_BYTES) {
        await this.db('stored_file_chunks').insert({ file_key: key, seq: seq++, data: whole.subarray(start, start + CHUNK_BYTES) });
      }
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const chunk of content) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        pending.push(buffer);
        pendingBytes += buffer.length;
        size += buffer.length;
        if (pendingBytes >= CHUNK_BYTES) await flush();
      }
      await flush();
      await this.db('stored_files').where({ key }).update({ size_bytes: size });
    } catch (error) {
      await this.remove(key);
      throw error;
    }
    return size;
  }

  read(key: string): Readable {
    checkedKey(key);
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      const file = await db('stored_files').where({ key }).first<{ key: string } | undefined>();
      if (!file) throw Object.assign(new Error(`no stored file ${key}`), { code: 'ENOENT' });
      for (let seq = 0; ; seq++) {
        const row = await db('stored_file_chunks').where({ file_key: key, seq }).first<{ data: Buffer } | undefined>();
        if (!row) return;
        yield Buffer.from(row.data);
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async size(key: string): Promise<number> {
    const row = await this.db('stored_files').where({ key: checkedKey(key) }).first<{ size_bytes: number | string } | undefined>();
    if (!row) throw Object.assign(new Error(`no stored file ${key}`), { code: 'ENOENT' });
    return Number(row.size_bytes);
  }

  async remove(key: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('stored_file_chunks').where({ file_key: checkedKey(key) }).delete();
      await trx('stored_files').where({ key }).delete();
    });
  }

  downloadUrl(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
}
