import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on the module `name` beside `callerUrl` (pass `import.meta.url`).
 * Compiled, the module is plain JavaScript; from source (development, tests) the thread first
 * registers the TypeScript loader (a worker's execArgv cannot take --import on Node 20).
 */
export function startThread(callerUrl: string, name: string, workerData: unknown): Worker {
  const here = fileURLToPath(callerUrl);
  const file = path.join(path.dirname(here), `${name}${path.extname(here)}`);
  if (path.extname(here) !== '.ts') return new Worker(file, { workerData });
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(file).href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

type ThreadAnswer<T> = { kind: 'done'; value: T } | { kind: 'failed'; message: string; stack?: string };

/** Runs `name` (a module that calls `answerFromThread`) on a thread and resolves with its one answer. */
export function runInThread<T>(callerUrl: string, name: string, workerData: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = startThread(callerUrl, name, workerData);
    let settled = false;
    worker.once('message', (answer: ThreadAnswer<T>) => {
      settled = true;
      if (answer.kind === 'done') resolve(answer.value);
      else reject(Object.assign(new Error(answer.message), { stack: answer.stack ?? answer.message }));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The ${name} thread stopped (exit code ${code})`));
    });
  });
}

/** The thread's side of `runInThread`: does the work with the data it was given and posts the outcome. */
export async function answerFromThread<T>(work: (data: unknown) => Promise<T>): Promise<void> {
  const { parentPort, workerData } = await import('node:worker_threads');
  let answer: ThreadAnswer<T>;
  try {
    answer = { kind: 'done', value: await work(workerData) };
  } catch (error) {
    answer = { kind: 'failed', message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
  }
  parentPort?.postMessage(answer);
}
