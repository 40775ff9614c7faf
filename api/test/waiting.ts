import type { HttpError } from '../src/http/errors.js';

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
