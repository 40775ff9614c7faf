/** Lets everything waiting on the event loop (other requests, timers) run before going on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Paces long synchronous work (reading, checking and planning 50,000 rows): it hands the event loop
 * back once its slice of a few milliseconds is used up, so a request that needs several turns of
 * the loop is answered within a few slices rather than after the whole file.
 */
export class Pacer {
  private since = performance.now();

  constructor(private readonly sliceMs = 2) {}

  /** Whether the slice is used up: then `await pacer.pause()`. */
  get due(): boolean {
    return performance.now() - this.since >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await nextTurn();
    this.since = performance.now();
  }
}
