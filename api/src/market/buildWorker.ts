/** The release build thread: builds what it is given and posts the release back, moving its buffers. */
import { parentPort, workerData } from 'node:worker_threads';
import { buffersOf, buildScreened, type BuildMessage, type ReleaseRecipe } from './build.js';

const post = (message: BuildMessage, transfer: ArrayBuffer[] = []): void => parentPort?.postMessage(message, transfer);

try {
  const { release, screening } = buildScreened(workerData as ReleaseRecipe, (fraction, step) => post({ kind: 'progress', fraction, step }));
  post({ kind: 'done', release, screening }, buffersOf(release));
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
