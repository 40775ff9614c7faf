/**
 * A Paybench node as its own process, with the test-only slow job registered: started by
 * `roles.postgres.test.ts` (`node --import tsx`) so that it can be killed with SIGKILL mid-job.
 * Configured entirely by its environment, like the product's `main.ts`; prints its address once ready.
 */
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { slowExport } from './slowJob.js';

const running = await startServer(loadConfig());
running.deps.jobs.registerKind(slowExport, running.deps);
process.stdout.write(`node ready at ${running.url}\n`);
