import { useEffect } from 'react';
import { api } from './client';

const ANONYMOUS_ID = 'paybench.anonymousId';

/** The browser's anonymous id for analytics events, kept in local storage. */
export function anonymousId(): string {
  const existing = localStorage.getItem(ANONYMOUS_ID);
  if (existing) return existing;
  const id = crypto.randomUUID();
  localStorage.setItem(ANONYMOUS_ID, id);
  return id;
}

/** Render failures go to the server as analytics events ("Client Error"); reporting never throws. */
export function reportClientError(error: unknown, componentStack?: string): void {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? '').slice(0, 2000) : '';
  void api
    .POST('/api/events/track', {
      body: { anonymousId: anonymousId(), event: 'Client Error', properties: { message, stack, componentStack: (componentStack ?? '').slice(0, 2000), path: window.location.pathname } },
    })
    .catch(() => undefined);
}

/**
 * A failed fetch the app cannot work without (the benchmarking metadata, the company's settings)
 * goes to error tracking as a "Client Error" naming what failed; the screen still shows the failure.
 */
export function reportFetchFailure(what: string, error: unknown): void {
  const message = error instanceof Error ? error.message : typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error);
  reportClientError(new Error(`${what} could not be loaded: ${message}`));
}

/** Reports a query's failure once per failure (the same error object is not reported twice). */
export function useReportedFailure(what: string, error: unknown): void {
  useEffect(() => {
    if (error) reportFetchFailure(what, error);
  }, [what, error]);
}
