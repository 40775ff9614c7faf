/** Help-desk token: up to 5 attempts, 1 s apart (spec §9). */
export const TOKEN_ATTEMPTS = 5;
export const TOKEN_RETRY_DELAY_MS = 1000;

export const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface RetryOptions {
  attempts?: number;
  delayMs?: number;
  /** How to wait between attempts (injected by tests). */
  delay?: (ms: number) => Promise<void>;
  /** Stop early (e.g. the help desk was shut down meanwhile): the last error is thrown. */
  cancelled?: () => boolean;
}

/**
 * Runs `attempt` until it succeeds, at most `attempts` times with `delayMs` between tries; the last
 * failure is thrown when every attempt failed.
 */
export async function withRetries<T>(attempt: (number: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? TOKEN_ATTEMPTS;
  const delayMs = options.delayMs ?? TOKEN_RETRY_DELAY_MS;
  const delay = options.delay ?? wait;
  let lastError: unknown = new Error('No attempt was made');
  for (let number = 1; number <= attempts; number += 1) {
    try {
      return await attempt(number);
    } catch (error) {
      lastError = error;
      if (number === attempts || options.cancelled?.()) break;
      await delay(delayMs);
      if (options.cancelled?.()) break;
    }
  }
  throw lastError;
}
