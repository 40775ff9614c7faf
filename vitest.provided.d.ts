// What the test global setup provides to every test file (see api/test/globalSetup.ts).
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    engine: 'sqlite' | 'postgres';
    /** The environment of the shared server's database, so tests can arrange data directly. */
    serverEnv: Record<string, string>;
  }
}
