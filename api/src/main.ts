import cluster from 'node:cluster';
import pino, { type Logger } from 'pino';
import { childRole, isPrimaryMessage } from './cluster/messages.js';
import { StartupRefused, holdPort, portProblem } from './cluster/port.js';
import { startCluster } from './cluster/primary.js';
import { type Config, loadConfig } from './config.js';
import { chooseLogFormat, jsonDestination, prettyDestination } from './http/logFormat.js';
import { DEMO_COMPANY, type DemoSeedResult } from './demo/seed.js';
import { prepareDatabase, readVersion, startServer } from './server.js';

function banner(config: Config, facts: { version: string; url: string; roles: readonly string[]; processes: number; demo: DemoSeedResult }): string {
  const lines = [
    '',
    `  Paybench ${facts.version} is running at ${facts.url}`,
    `  Database: ${config.engine}${config.engine === 'sqlite' ? ` (${config.dataDir})` : ''}`,
    `  Roles: ${facts.roles.join(', ')}`,
  ];
  if (facts.processes > 1) lines.push(`  Web processes: ${facts.processes}`);
  if (facts.demo.created) lines.push(`  Demo company created: ${DEMO_COMPANY.name} (${DEMO_COMPANY.domains.join(', ')})`);
  if (facts.demo.signIn) {
    lines.push('', '  Demo sign-ins (one per role), all with the password below:');
    for (const email of facts.demo.signIn.emails) lines.push(`    ${email}`);
    lines.push(`  Password: ${facts.demo.signIn.password}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/** SIGTERM/SIGINT: `close` drains, then the process exits; past the shutdown timeout it exits anyway. */
function stopOnSignals(config: Config, log: Logger, roles: readonly string[] | undefined, close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, roles }, 'draining: finishing requests in flight and the job in hand');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    close().then(
      () => {
        log.info({ signal, exitCode: 0 }, 'stopped cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** A web process of a cluster: asks the primary for the port it holds and waits until it is free. */
function portFromPrimary(): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    const answered = (message: unknown): void => {
      if (!isPrimaryMessage(message) || message.type !== 'paybench:port-free') return;
      process.off('message', answered);
      resolve();
    };
    process.on('message', answered);
    process.send({ type: 'paybench:port-wanted' });
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  // Readable lines in a terminal; JSON for log collectors (not a terminal, or LOG_FORMAT=json).
  const format = chooseLogFormat(process.env.LOG_FORMAT, Boolean(process.stdout.isTTY));
  const log = pino({ level: config.logLevel }, format === 'pretty' ? prettyDestination() : jsonDestination());
  const role = cluster.isWorker ? childRole() : undefined;

  if (role) {
    // A web process of a cluster: the primary prepared the database; one process is also the job worker.
    const running = await startServer({ ...config, roles: { web: true, worker: role.worker } }, log.child({ process: role.index + 1 }), {
      prepared: { applied: [], currencies: 0, rates: 0, demo: { created: false, signIn: undefined }, bootstrapped: false },
      listenWhenReady: role.late,
      beforeListen: portFromPrimary,
    }).catch(async (error: unknown) => {
      // The port taken since the primary looked: the primary says so once, for every process.
      const refused = portProblem(error, config.port);
      if (!refused) throw error;
      await new Promise<void>((resolve) => {
        if (!process.send) return resolve();
        process.send({ type: 'paybench:start-refused', reason: refused.message }, () => resolve());
      });
      process.exit(1);
    });
    // The primary passes Ctrl-C on as SIGTERM; the terminal's own SIGINT to the whole group is left to it.
    process.on('SIGINT', () => undefined);
    stopOnSignals(config, running.deps.log, running.deps.lifecycle?.roles, running.close);
    process.send?.({ type: 'paybench:ready' });
    return;
  }

  if (cluster.isPrimary && config.roles.web && config.webProcesses > 1) {
    // Before the migrations: a port in use stops start-up at once, saying so; a free one answers
    // "starting" until the web processes take it.
    const held = await holdPort(config.host, config.port);
    const prepared = await prepareDatabase(config);
    if (prepared.applied.length) log.info({ applied: prepared.applied }, 'migrations applied');
    const started = await startCluster(config, log, config.webProcesses, held);
    const roles = [...(config.roles.web ? ['web'] : []), ...(config.roles.worker ? ['worker'] : [])];
    process.stdout.write(banner(config, { version: readVersion(), url: started.url, roles, processes: config.webProcesses, demo: prepared.demo }));
    stopOnSignals(config, log, roles, started.stop);
    return;
  }

  const running = await startServer(config, log).catch((error: unknown) => {
    throw portProblem(error, config.port) ?? error;
  });
  const roles = running.deps.lifecycle?.roles ?? ['web', 'worker'];
  process.stdout.write(banner(config, { version: running.deps.version, url: running.url, roles, processes: 1, demo: { created: running.demoCreated, signIn: running.demoSignIn } }));
  stopOnSignals(config, log, roles, running.close);
}

/** A start-up failure said readably: a long message (SQL with its values) keeps its start and its end, where the reason is, then the stack. */
function startFailure(error: unknown): string {
  if (error instanceof StartupRefused) return error.message;
  if (!(error instanceof Error)) return String(error);
  const message = error.message.length > 1500 ? `${error.message.slice(0, 400)} … ${error.message.slice(-800)}` : error.message;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [message, ...frames].join('\n');
}

main().catch((error: unknown) => {
  // A reason the operator fixes is one line; other errors keep their stack.
  process.stderr.write(`Paybench could not start: ${startFailure(error)}\n`);
  process.exit(1);
});
