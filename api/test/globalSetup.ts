import type { TestProject } from 'vitest/node';
import { startTestServer } from './server.js';
import { testEngine } from './env.js';

/** One shared server per test pass; tests isolate themselves by the data they create. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestServer();
  project.provide('baseUrl', server.url);
  project.provide('engine', testEngine);
  project.provide('serverEnv', server.env);
  return () => server.stop();
}
