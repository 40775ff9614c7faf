import { useSyncExternalStore } from 'react';

/**
 * The service worker marks an answer it served from its cache (the network did not answer) with
 * this header (web/vite.config.ts); the answer's own `Date` says when it was fetched.
 */
export const FROM_CACHE_HEADER = 'X-Paybench-From-Cache';

/** The paths whose answer on screen is a kept copy, with when each was fetched (ms since epoch). */
const keptCopies = new Map<string, number>();
const listeners = new Set<() => void>();
let oldest: number | null = null;

function changed(): void {
  oldest = keptCopies.size === 0 ? null : Math.min(...keptCopies.values());
  for (const listener of listeners) listener();
}

/** Every answer of the API passes here: a kept copy is remembered, a fresh one replaces it. */
export function noteAnswer(path: string, response: Response): void {
  if (response.headers.has(FROM_CACHE_HEADER)) {
    const fetched = Date.parse(response.headers.get('Date') ?? '');
    keptCopies.set(path, Number.isNaN(fetched) ? Date.now() : fetched);
    changed();
  } else if (keptCopies.delete(path)) {
    changed();
  }
}

/** The paths (without their query) shown from kept copies, to ask again once the network is back. */
export function keptPaths(): string[] {
  return [...keptCopies.keys()].map((path) => path.split('?')[0] ?? path);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** When the oldest kept copy on screen was fetched, or null while every answer is fresh. */
export function useShownAsOf(): Date | null {
  const value = useSyncExternalStore(
    subscribe,
    () => oldest,
    () => null,
  );
  return value === null ? null : new Date(value);
}
