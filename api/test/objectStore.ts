import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestObjectStore {
  endpoint: string;
  bucket: string;
  /** The environment a Paybench needs to keep its files in this store. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A real S3-protocol server (s3rver) on an ephemeral port, with one bucket, its objects in a temp dir. */
export async function startTestObjectStore(bucket = 'paybench-files'): Promise<TestObjectStore> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'paybench-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      PAYBENCH_STORAGE: 's3',
      PAYBENCH_S3_ENDPOINT: endpoint,
      PAYBENCH_S3_BUCKET: bucket,
      PAYBENCH_S3_REGION: 'us-east-1',
      PAYBENCH_S3_FORCE_PATH_STYLE: 'true',
      // s3rver's fixed test credentials.
      PAYBENCH_S3_ACCESS_KEY_ID: 'S3RVER',
      PAYBENCH_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
