import { type RunningServer, startServer } from '../src/server.js';
import { loadConfig } from '../src/config.js';
import { dropSchema, isolatedEnv } from './env.js';

export interface TestServerOptions {
  /**
   * Records of the generated demo market the server seeds (default 150,000). Small ones start in a
   * second or two. It is read from the process environment at start-up (the server's Config does not
   * carry it), so it is set only around the start and put back after.
   */
  demoMarketRecords?: number;
}

/** A real Paybench on an ephemeral port with its own database; `stop` removes it again. */
export async function startTestServer(
  overrides: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<RunningServer & { env: Record<string, string>; stop(): Promise<void> }> {
  const env = isolatedEnv(overrides);
  const config = loadConfig({ ...process.env, ...env });
  const running = await withDemoMarketRecords(options.demoMarketRecords, () => startServer(config));
  return {
    ...running,
    env,
    async stop() {
      await running.close();
      await dropSchema(config);
    },
  };
}

async function withDemoMarketRecords<T>(records: number | undefined, start: () => Promise<T>): Promise<T> {
  if (records === undefined) return start();
  const configured = process.env.PAYBENCH_DEMO_MARKET_RECORDS;
  process.env.PAYBENCH_DEMO_MARKET_RECORDS = String(records);
  try {
    return await start();
  } finally {
    if (configured === undefined) delete process.env.PAYBENCH_DEMO_MARKET_RECORDS;
    else process.env.PAYBENCH_DEMO_MARKET_RECORDS = configured;
  }
}
