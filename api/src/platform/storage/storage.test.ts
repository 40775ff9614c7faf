import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, testDb } from '../../../test/factories.js';
import { removeExpiredDownloads, saveDownload } from '../../downloads/service.js';
import { type TestObjectStore, startTestObjectStore } from '../../../test/objectStore.js';
import { CHUNK_BYTES, DatabaseStorage } from './database.js';
import { DirectoryStorage } from './directory.js';
import { type FileStorage, S3Storage, storageConfigFrom } from './index.js';

// 1,300,000 bytes: in the database that is 4 full chunks of 262,144 (1,048,576) and one of 251,424.
const SIZE = 1_300_000;

/** The same bytes every time, made a block at a time (never one buffer): byte i is i mod 251. */
function bigFile(): Readable {
  return Readable.from(
    (function* () {
      for (let start = 0; start < SIZE; start += 65_536) {
        const block = Buffer.alloc(Math.min(65_536, SIZE - start));
        for (let i = 0; i < block.length; i++) block[i] = (start + i) % 251;
        yield block;
      }
    })(),
  );
}

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const unique = (): string => `test-${Math.random().toString(36).slice(2, 10)}.bin`;

let store: TestObjectStore;
let db: Knex;
let expectedHash: string;

beforeAll(async () => {
  store = await startTestObjectStore();
  db = await testDb();
  expectedHash = await sha256(bigFile());
});
afterAll(() => store?.stop());

const s3 = (env: Record<string, string> = {}): S3Storage => {
  const config = storageConfigFrom({ ...store.env, ...env }, os.tmpdir()).s3;
  if (!config) throw new Error('no S3 configuration');
  return new S3Storage(config);
};

const backends: [string, () => FileStorage][] = [
  ['directory', () => new DirectoryStorage(mkdtempSync(path.join(os.tmpdir(), 'paybench-files-')))],
  ['database', () => new DatabaseStorage(db)],
  ['s3 (a real S3-protocol server)', () => s3()],
];

describe.each(backends)('file storage: %s', (_name, make) => {
  it('stores a large stream and gives back the same bytes, its size and, once removed, nothing', async () => {
    const storage = make();
    const key = unique();
    expect(await storage.write(key, bigFile())).toBe(SIZE);
    expect(await storage.size(key)).toBe(SIZE);
    expect(await sha256(storage.read(key))).toBe(expectedHash);
    await storage.remove(key);
    await expect(storage.size(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(sha256(storage.read(key))).rejects.toMatchObject({ code: 'ENOENT' });
    // Removing again is no error: expiry may run twice.
    await storage.remove(key);
  });

  it('overwrites a key, stores an empty file and refuses keys that could leave their place', async () => {
    const storage = make();
    const key = unique();
    await storage.write(key, Readable.from([Buffer.from('first version')]));
    await storage.write(key, Readable.from([Buffer.from('second')]));
    expect(await text(storage.read(key))).toBe('second');
    const empty = unique();
    expect(await storage.write(empty, Readable.from([]))).toBe(0);
    expect(await text(storage.read(empty))).toBe('');
    for (const bad of ['../secrets.key', 'a/b', '', 'x'.repeat(201)]) {
      await expect(storage.write(bad, Readable.from([Buffer.from('x')]))).rejects.toThrow(/unsafe storage key/);
    }
    await storage.remove(key);
    await storage.remove(empty);
  });

  it('loses an expired download to the clean-up, file and row, and keeps one still valid', async () => {
    const storage = make();
    const company = await createTestCompany(db);
    const keep = async (filename: string) =>
      saveDownload(db, storage, {
        companyId: company.id,
        ownerUserId: company.users.admin?.id ?? '',
        jobId: null,
        kind: 'test',
        filename,
        contentType: 'text/csv',
        permission: null,
        content: Readable.from([Buffer.from('a,b\n1,2\n')]),
      });
    const old = await keep('old.csv');
    const fresh = await keep('fresh.csv');
    await db('downloads').where({ id: old.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(await removeExpiredDownloads(db, storage)).toBeGreaterThanOrEqual(1);
    await expect(storage.size(old.storage_key)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await db('downloads').where({ id: old.id }).first()).toBeUndefined();
    expect(await storage.size(fresh.storage_key)).toBe(8);
    await storage.remove(fresh.storage_key);
  });
});

describe('file storage in the database', () => {
  it('keeps a file in chunks of 256 KiB', async () => {
    const storage = new DatabaseStorage(db);
    const key = unique();
    await storage.write(key, bigFile());
    const chunks = await db('stored_file_chunks').where({ file_key: key }).orderBy('seq').select('seq');
    // ceil(1,300,000 / 262,144) = 5 chunks, numbered 0 to 4.
    expect(CHUNK_BYTES).toBe(262_144);
    expect(chunks.map((row: { seq: number }) => Number(row.seq))).toEqual([0, 1, 2, 3, 4]);
    await storage.remove(key);
    expect(await db('stored_file_chunks').where({ file_key: key }).count({ n: '*' }).first()).toMatchObject({ n: expect.anything() });
    expect(Number((await db('stored_file_chunks').where({ file_key: key }).count({ n: '*' }).first())?.n)).toBe(0);
  });
});

describe('file storage in S3', () => {
  it('streams through the API unless signed URLs are asked for', async () => {
    expect(await s3().downloadUrl('a.bin', { filename: 'a.csv', contentType: 'text/csv' })).toBeUndefined();
  });

  it('hands out a signed URL that fetches the file with its name, and stops working when it expires', async () => {
    // 3 s: the signature's clock has whole seconds, so a URL works between 2 and 3 s, time for a fetch on a busy machine.
    const storage = s3({ PAYBENCH_S3_DOWNLOADS: 'signed-url', PAYBENCH_S3_URL_EXPIRES_SECONDS: '3' });
    const key = unique();
    await storage.write(key, Readable.from([Buffer.from('email,role\nana@example.com,admin\n')]));
    const url = await storage.downloadUrl(key, { filename: 'users 2026.csv', contentType: 'text/csv' });
    expect(url).toMatch(new RegExp(`^${store.endpoint}/${store.bucket}/${key.replace('.', '\\.')}\\?.*X-Amz-Expires=3`));
    const fetched = await fetch(url!);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe('email,role\nana@example.com,admin\n');
    expect(fetched.headers.get('content-disposition')).toContain('filename="users 2026.csv"');
    await new Promise((resolve) => setTimeout(resolve, 4_100));
    expect((await fetch(url!)).status).toBe(403);
    await storage.remove(key);
  });

  it('keeps keys under the configured prefix and asks for server-side encryption', async () => {
    const storage = s3({ PAYBENCH_S3_PREFIX: 'paybench/', PAYBENCH_S3_SSE: 'AES256' });
    // s3rver stores no encryption setting, so the header is read off the request as it leaves.
    const sent: (string | undefined)[] = [];
    storage.client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { headers?: Record<string, string> };
        sent.push(request.headers?.['x-amz-server-side-encryption']);
        return next(args);
      },
      { step: 'finalizeRequest', name: 'recordEncryptionHeader' },
    );
    const key = unique();
    await storage.write(key, Readable.from([Buffer.from('sealed')]));
    const client = new S3Client({ endpoint: store.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: store.bucket, Prefix: 'paybench/' }));
    expect(listed.Contents?.map((object) => object.Key)).toContain(`paybench/${key}`);
    const head = await client.send(new HeadObjectCommand({ Bucket: store.bucket, Key: `paybench/${key}` }));
    expect(head.ContentLength).toBe(6);
    expect(sent[0]).toBe('AES256');
    await storage.remove(key);
    client.destroy();
  });
});

describe('storage settings', () => {
  it('default to the downloads directory in the data directory', () => {
    expect(storageConfigFrom({}, '/srv/paybench')).toEqual({ backend: 'directory', directory: '/srv/paybench/downloads', s3: undefined });
  });

  it('name what is wrong or missing', () => {
    expect(() => storageConfigFrom({ PAYBENCH_STORAGE: 'ftp' }, '/d')).toThrow('PAYBENCH_STORAGE must be directory, s3 or database, got "ftp"');
    expect(() => storageConfigFrom({ PAYBENCH_STORAGE: 's3' }, '/d')).toThrow('PAYBENCH_STORAGE=s3 needs PAYBENCH_S3_BUCKET');
    expect(() => storageConfigFrom({ PAYBENCH_STORAGE: 's3', PAYBENCH_S3_BUCKET: 'b', PAYBENCH_S3_SSE: 'yes' }, '/d')).toThrow(/PAYBENCH_S3_SSE must be AES256 or aws:kms/);
    expect(() => storageConfigFrom({ PAYBENCH_STORAGE: 's3', PAYBENCH_S3_BUCKET: 'b', PAYBENCH_S3_ACCESS_KEY_ID: 'k' }, '/d')).toThrow(/go together/);
  });

  it('use path-style addresses by default for a store of your own, virtual-host style for AWS', () => {
    expect(storageConfigFrom({ PAYBENCH_STORAGE: 's3', PAYBENCH_S3_BUCKET: 'b', PAYBENCH_S3_ENDPOINT: 'http://minio:9000' }, '/d').s3?.forcePathStyle).toBe(true);
    expect(storageConfigFrom({ PAYBENCH_STORAGE: 's3', PAYBENCH_S3_BUCKET: 'b' }, '/d').s3?.forcePathStyle).toBe(false);
  });
});
