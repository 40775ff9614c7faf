const RETRIES = 5;
const DELAY_MS = 1000;
const RELOAD_MARKER = 'paybench.chunkReloadAt';
const RELOAD_GUARD_MS = 10_000;

/**
 * Dynamic imports are retried 5 times, 1 s apart; if the chunk still cannot load (a new release
 * replaced it), the page reloads once — guarded by a 10-second marker so it cannot loop.
 */
export async function retryImport<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      if (attempt < RETRIES) {
        await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
        continue;
      }
      const last = Number(sessionStorage.getItem(RELOAD_MARKER) ?? 0);
      if (Date.now() - last > RELOAD_GUARD_MS) {
        sessionStorage.setItem(RELOAD_MARKER, String(Date.now()));
        window.location.reload();
      }
      throw error;
    }
  }
}
