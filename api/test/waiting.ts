import type { components } from '../src/contract-types.js';
import type { HttpError } from '../src/kernel/errors.js';
import { type TestUser, bearer } from './factories.js';
import { request } from './http.js';

/** Waits until `check` holds (asked every `everyMs`), failing after `timeoutMs`: for work done in the background. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000, everyMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The refusal a call throws, for asserting its status, code and message. */
export async function refusal(action: Promise<unknown>): Promise<HttpError> {
  try {
    await action;
  } catch (error) {
    return error as HttpError;
  }
  throw new Error('expected a refusal');
}

/**
 * The background job once it has ended (succeeded, failed or cancelled), read as `user` through the
 * API: of the shared test server, or of the server at `base` (a test that starts its own).
 */
export async function jobEnded(user: TestUser, jobId: string, timeoutMs = 30_000, base?: string): Promise<components['schemas']['BackgroundJob']> {
  let job: components['schemas']['BackgroundJob'] | undefined;
  await until(async () => {
    job = (await request<{ data: components['schemas']['BackgroundJob'] }>(`/api/background-jobs/${jobId}`, { base, headers: bearer(user) })).body.data;
    return ['succeeded', 'failed', 'cancelled'].includes(job.status);
  }, timeoutMs, 100);
  if (!job) throw new Error(`job ${jobId} not read`);
  return job;
}
