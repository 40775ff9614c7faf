/** What the spec says is "only logged" (socket errors and drops) goes to the browser's console, nowhere else. */
export function logWarning(message: string, detail?: unknown): void {
  // eslint-disable-next-line no-console -- the console is this log
  console.warn(message, detail);
}

/** A failed call the spec says is logged (company, settings, offers, account, tags, stock exchanges). */
export function logError(message: string, detail?: unknown): void {
  // eslint-disable-next-line no-console -- the console is this log
  console.error(message, detail);
}
