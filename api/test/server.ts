import { type RunningServer, startServer } from '../src/server.js';
import { dropSchema, isolatedConfig } from './env.js';

/** A real Paybench on an ephemeral port with its own database; `stop` removes it again. */
export async function startTestServer(overrides: Record<string, string> = {}): Promise<RunningServer & { stop(): Promise<void> }> {
  const config = isolatedConfig(overrides);
  const running = await startServer(config);
  return {
    ...running,
    async stop() {
      await running.close();
      await dropSchema(config);
    },
  };
}
