import cluster, { type Worker } from 'node:cluster';
import { setupPrimary as setupRealtimeBridge } from '@socket.io/cluster-adapter';
import type { Logger } from 'pino';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { type ChildRole, CHILD_ROLE_ENV, isChildMessage, type PrimaryMessage } from './messages.js';
import { StartupRefused } from './port.js';
import { WriteLockQueue } from './writeLock.js';

/** What the primary tells `main` once every web process serves. */
export interface ClusterStarted {
  url: string;
  /** Stops every process (each drains first) and resolves when all have exited. */
  stop(): Promise<void>;
}

/**
 * The primary of `PAYBENCH_WEB_PROCESSES` web processes sharing one port (node:cluster hands each
 * connection to one of them). It serves nothing itself; it
 * - forks the processes once the database is prepared (migrations and seeds ran once, here),
 *   one of them also the job worker when this node is one (jobs, outbox and clean-ups stay in one process);
 * - carries what must be one across the processes: the rate limits (rate-limiter-flexible's
 *   cluster master keeps the counts), realtime events on SQLite (socket.io's cluster adapter; on
 *   Postgres the processes' own Postgres adapters carry them) and SQLite's write queue (one turn
 *   at a time across processes, in arrival order);
 * - replaces a process that dies, and on SIGHUP restarts them one by one (a new web process
 *   serves before the old one drains; the job worker is stopped before its replacement starts,
 *   so two never run jobs at once);
 * - on SIGTERM/SIGINT passes the signal on and exits when every process has drained.
 * `port` is the one `holdPort` held while the database was prepared; `releasePort` frees it when the
 * first process is about to listen, so the port answers `starting` while the processes load their
 * code instead of refusing connections. If a process fails to start, the others are stopped
 * (none is replaced before all have started) and the first process's reason is thrown.
 */
export async function startCluster(config: Config, log: Logger, processes: number, held: { port: number; release(): Promise<void> }): Promise<ClusterStarted> {
  const port = held.port;
  let releasing: Promise<void> | undefined;
  const releasePort = (): Promise<void> => (releasing ??= held.release());
  const url = config.port === 0 ? `http://127.0.0.1:${port}` : config.publicUrl;
  new RateLimiterClusterMaster();
  if (config.engine === 'sqlite') setupRealtimeBridge();
  const writeLock = new WriteLockQueue();
  const roles = new Map<Worker, ChildRole>();
  const ready = new Set<Worker>();
  let stopping = false;
  let started = false;
  /** Why a process could not start, as it said so (the port taken meanwhile): the first one told. */
  let refusal: string | undefined;

  const fork = (role: ChildRole): Promise<Worker> => {
    const child = cluster.fork({ ...process.env, PORT: String(port), PAYBENCH_PUBLIC_URL: url, [CHILD_ROLE_ENV]: JSON.stringify(role) });
    roles.set(child, role);
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`web process ${role.index + 1} stopped during start-up (exit code ${code})`));
      child.once('exit', onExit);
      child.on('message', (message: unknown) => {
        if (!isChildMessage(message)) return;
        if (message.type === 'paybench:ready') {
          ready.add(child);
          child.off('exit', onExit);
          resolve(child);
        } else if (message.type === 'paybench:port-wanted') {
          void releasePort().then(() => child.send({ type: 'paybench:port-free' } satisfies PrimaryMessage));
        } else if (message.type === 'paybench:start-refused') refusal ??= message.reason;
        else writeLock.handle(child, message);
      });
    });
  };

  cluster.on('exit', (child, code, signal) => {
    const role = roles.get(child);
    roles.delete(child);
    ready.delete(child);
    writeLock.forget(child);
    if (stopping || !started || !role || role.replacing) return;
    log.error({ process: role.index + 1, code, signal }, 'a web process stopped; starting another');
    void fork({ index: role.index, worker: role.worker, late: true }).catch((error: unknown) => log.error({ err: error }, 'the replacement web process did not start'));
  });

  const exited = (child: Worker): Promise<void> =>
    child.isDead() ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

  const all: ChildRole[] = Array.from({ length: processes }, (_, index) => ({ index, worker: index === 0 && config.roles.worker }));
  const forks = await Promise.allSettled(all.map((role) => fork(role)));
  await releasePort();
  const failed = forks.find((result) => result.status === 'rejected');
  if (failed) {
    // Stop the ones that did start, and wait for them, so that none is left behind the exit.
    stopping = true;
    const children = [...roles.keys()];
    for (const child of children) child.process.kill('SIGTERM');
    await Promise.all(children.map(exited));
    throw refusal ? new StartupRefused(refusal) : failed.reason;
  }
  started = true;

  let restarting = false;
  const restart = async (): Promise<void> => {
    if (restarting || stopping) return;
    restarting = true;
    log.info('restarting the web processes one by one');
    try {
      for (const [child, role] of [...roles]) {
        if (stopping) break;
        role.replacing = true;
        const fresh = { index: role.index, worker: role.worker, late: true };
        if (role.worker) {
          child.process.kill('SIGTERM');
          await exited(child);
          await fork(fresh);
        } else {
          await fork(fresh);
          child.process.kill('SIGTERM');
          await exited(child);
        }
      }
      log.info('web processes restarted');
    } catch (error) {
      log.error({ err: error }, 'restart failed');
    } finally {
      restarting = false;
    }
  };
  process.on('SIGHUP', () => void restart());

  return {
    url,
    async stop() {
      stopping = true;
      const children = [...roles.keys()];
      for (const child of children) child.process.kill('SIGTERM');
      await Promise.all(children.map(exited));
    },
  };
}
