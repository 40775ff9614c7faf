/** The release build thread: builds what it is given and posts the release back, moving its buffers. */
import { parentPort, workerData } from 'node:worker_threads';
import { buffersOf, buildScreened, type BuildMessage, type ReleaseRecipe } from './build.js';
import { measureUtility } from './engine/index.js';

const post = (message: BuildMessage, transfer: ArrayBuffer[] = []): void => parentPort?.postMessage(message, transfer);

try {
  const recipe = workerData as ReleaseRecipe;
  const { release, screening } = buildScreened(recipe, (fraction, step) => post({ kind: 'progress', fraction, step }));
  // Measured here, before the columns move: on the server's thread it would stall every request.
  const utility = recipe.forex ? measureUtility(release, { forex: recipe.forex }) : undefined;
  post({ kind: 'done', release, screening, utility }, buffersOf(release));
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
