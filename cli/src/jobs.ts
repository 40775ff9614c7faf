import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Api, type Connection, call, createApi } from './client.js';
import type { components } from '../../openapi.js';
import { Failed } from './output.js';
import { progressBar } from './progress.js';

export type BackgroundJob = components['schemas']['BackgroundJob'];

const FINISHED = new Set<BackgroundJob['status']>(['succeeded', 'failed', 'cancelled']);
export const isFinished = (job: BackgroundJob): boolean => FINISHED.has(job.status);

interface StatusUpdate {
  jobId: string;
  status: BackgroundJob['status'];
  progress: number;
}

interface Subscription {
  close(): void;
}

/**
 * Listens for the job's realtime updates. Any failure (no socket.io client, no connection) leaves
 * the caller to polling alone, which always works.
 */
async function subscribe(connection: Connection, onUpdate: (update: StatusUpdate) => void): Promise<Subscription | undefined> {
  if (!connection.token) return undefined;
  try {
    const { io } = await import('socket.io-client');
    const socket = io(connection.url, { path: '/engine.io/', transports: ['websocket'], auth: { token: connection.token }, reconnection: false, timeout: 5000 });
    socket.on('emitBackgroundJobStatusUpdate', onUpdate);
    socket.on('connect_error', () => socket.close());
    return { close: () => socket.close() };
  } catch {
    return undefined;
  }
}

const getJob = (connection: Connection, api: Api, jobId: string) =>
  call(connection, api.GET('/api/background-jobs/{jobId}', { params: { path: { jobId } } })).then((reply) => reply.data);

/** Waits until the job finishes, showing its progress on a terminal; realtime first, polling as the fallback. */
export async function waitForJob(connection: Connection, jobId: string, label: string): Promise<BackgroundJob> {
  const api = createApi(connection);
  const bar = progressBar({ label, percent: 0 });
  let wake: (() => void) | undefined;
  const subscription = await subscribe(connection, (update) => {
    if (update.jobId !== jobId) return;
    bar.update({ label, percent: update.progress, detail: update.status });
    wake?.();
  });
  try {
    for (;;) {
      const job = await getJob(connection, api, jobId);
      bar.update({ label, percent: job.progress, detail: job.message ?? job.status });
      if (isFinished(job)) return job;
      // A realtime update ends the wait early; the poll interval is the fallback's pace.
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, subscription ? 2000 : 500);
      });
    }
  } finally {
    subscription?.close();
    bar.done();
  }
}

export function requireSuccess(job: BackgroundJob): BackgroundJob & { downloadId: string } {
  if (job.status !== 'succeeded') throw new Failed(`Job ${job.id} ${job.status}${job.message ? `: ${job.message}` : ''}.`);
  if (!job.downloadId) throw new Failed(`Job ${job.id} finished without a file.`);
  return { ...job, downloadId: job.downloadId };
}

/** Streams a download to a file, or to stdout when no file is named. */
export async function saveDownload(connection: Connection, downloadId: string, file: string | undefined): Promise<void> {
  const api = createApi(connection);
  const body = await call(connection, api.GET('/api/downloads/{downloadId}', { params: { path: { downloadId } }, parseAs: 'stream' }));
  if (!body) throw new Failed(`Download ${downloadId} is empty.`);
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  await pipeline(source, file ? createWriteStream(file) : process.stdout, { end: Boolean(file) });
}
