import { type RunningServer, startServer } from '../src/server.js';
import { loadConfig } from '../src/config.js';
import { dropSchema, isolatedEnv } from './env.js';

/** A real Paybench on an ephemeral port with its own database; `stop` removes it again. */
export async function startTestServer(
  overrides: Record<string, string> = {},
): Promise<RunningServer & { env: Record<string, string>; stop(): Promise<void> }> {
  const env = isolatedEnv(overrides);
  const config = loadConfig({ ...process.env, ...env });
  const running = await startServer(config);
  return {
    ...running,
    env,
    async stop() {
      await running.close();
      await dropSchema(config);
    },
  };
}
