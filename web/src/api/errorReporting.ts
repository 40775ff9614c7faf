import { api } from './client';

const ANONYMOUS_ID = 'paybench.anonymousId';

function anonymousId(): string {
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
