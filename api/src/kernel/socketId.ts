/** The caller's socket, sent as `X-Socket-Id` so events about its own request can be matched to it. */
export function socketIdOf(header: string): string | undefined {
  return /^[A-Za-z0-9_-]{1,64}$/.test(header) ? header : undefined;
}
