import pino from 'pino';
import { loadConfig } from './config.js';
import { chooseLogFormat, prettyDestination } from './http/logFormat.js';
import { DEMO_COMPANY } from './demo/seed.js';
import { startServer } from './server.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  // Readable lines in a terminal; JSON for log collectors (not a terminal, or LOG_FORMAT=json).
  const format = chooseLogFormat(process.env.LOG_FORMAT, Boolean(process.stdout.isTTY));
  const log = format === 'pretty' ? pino({ level: config.logLevel }, prettyDestination()) : pino({ level: config.logLevel });
  const running = await startServer(config, log);
  const lines = [
    '',
    `  Paybench ${running.deps.version} is running at ${running.url}`,
    `  Database: ${config.engine}${config.engine === 'sqlite' ? ` (${config.dataDir})` : ''}`,
  ];
  if (running.demoCreated) lines.push(`  Demo company created: ${DEMO_COMPANY.name} (${DEMO_COMPANY.domains.join(', ')})`);
  if (running.demoSignIn) {
    lines.push('', '  Demo sign-ins (one per role), all with the password below:');
    for (const email of running.demoSignIn.emails) lines.push(`    ${email}`);
    lines.push(`  Password: ${running.demoSignIn.password}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    running.close().then(
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

main().catch((error: unknown) => {
  // Database errors quote their SQL; keep the message readable.
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`Paybench could not start: ${text.length > 2000 ? `${text.slice(0, 2000)}…` : text}\n`);
  process.exit(1);
});
