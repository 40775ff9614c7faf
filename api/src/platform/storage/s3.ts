import { PassThrough, Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, type S3ClientConfig, type ServerSideEncryption } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3StorageConfig } from '../../config.js';
import { type FileStorage, checkedKey } from './types.js';

/** A missing object reads as a missing file does on disk. */
function notFound(key: string): Error {
  return Object.assign(new Error(`no stored file ${key}`), { code: 'ENOENT' });
}

const isMissing = (error: unknown): boolean => {
  const name = (error as { name?: string }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return name === 'NoSuchKey' || name === 'NotFound' || status === 404;
};

export class S3Storage implements FileStorage {
  readonly backend = 's3' as const;
  /** The SDK client (its middleware stack is where a caller may watch requests). */
  readonly client: S3Client;

  constructor(private readonly config: S3StorageConfig) {
    const options: S3ClientConfig = { region: config.region, forcePathStyle: config.forcePathStyle };
    if (config.endpoint) options.endpoint = config.endpoint;
    if (config.credentials) options.credentials = config.credentials;
    this.client = new S3Client(options);
  }

  private objectKey(key: string): string {
    return `${this.config.prefix}${checkedKey(key)}`;
  }

  /** A multipart upload from the stream: parts of 5 MiB, never the whole file in memory. */
  async write(key: string, content: Readable): Promise<number> {
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    content.on('error', (error) => counted.destroy(error));
    content.pipe(counted);
    const encryption = this.config.serverSideEncryption;
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        Body: counted,
        ...(encryption ? { ServerSideEncryption: encryption as ServerSideEncryption } : {}),
        ...(encryption === 'aws:kms' && this.config.kmsKeyId ? { SSEKMSKeyId: this.config.kmsKeyId } : {}),
      },
      partSize: 5 * 1024 * 1024,
      queueSize: 2,
    });
    await upload.done();
    return size;
  }

  read(key: string): Readable {
    const out = new PassThrough();
    this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) })).then(
      (answer) => {
        const body = answer.Body;
        if (!(body instanceof Readable)) {
          out.destroy(new Error('the object store answered without a body'));
          return;
        }
        body.on('error', (error) => out.destroy(error));
        body.pipe(out);
      },
      (error: unknown) => out.destroy(isMissing(error) ? notFound(key) : (error as Error)),
    );
    return out;
  }

  async size(key: string): Promise<number> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
      return Number(head.ContentLength ?? 0);
    } catch (error) {
      throw isMissing(error) ? notFound(key) : error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
  }

  async downloadUrl(key: string, file: { filename: string; contentType: string }): Promise<string | undefined> {
    if (this.config.downloads !== 'signed-url') return undefined;
    const command = new GetObjectCommand({
      Bucket: this.config.bucket,
      Key: this.objectKey(key),
      ResponseContentType: file.contentType,
      ResponseContentDisposition: `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.client, command, { expiresIn: this.config.urlExpiresSeconds });
  }

  destroy(): void {
    this.client.destroy();
  }
}
