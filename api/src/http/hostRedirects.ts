import type { Middleware } from 'koa';

/**
 * Where a request that arrived on a retired or secondary host name goes instead: the same path and
 * query on the public address. `null` when the host is not one of `hosts` (compared without case;
 * an entry with a port matches that port only, one without matches any port).
 * GET and HEAD are moved with 301; any other method with 308, which keeps the method and body.
 */
export function hostRedirect(
  hosts: readonly string[],
  publicUrl: string,
  request: { host: string; method: string; url: string },
): { status: 301 | 308; location: string } | null {
  const arrived = request.host.toLowerCase();
  if (!arrived) return null;
  const hostname = arrived.startsWith('[') ? arrived.slice(0, arrived.indexOf(']') + 1) : arrived.split(':')[0];
  if (!hosts.some((host) => host === arrived || host === hostname)) return null;
  const target = new URL(publicUrl);
  if (target.host.toLowerCase() === arrived) return null;
  const location = `${target.origin}${request.url.startsWith('/') ? request.url : `/${request.url}`}`;
  return { status: request.method === 'GET' || request.method === 'HEAD' ? 301 : 308, location };
}

/** Sends requests for the configured hosts (an old brand host, the admin host) to the app's public address. */
export function hostRedirects(hosts: readonly string[], publicUrl: string): Middleware {
  return async (ctx, next) => {
    if (!hosts.length) return next();
    const redirect = hostRedirect(hosts, publicUrl, { host: ctx.host, method: ctx.method, url: ctx.url });
    if (!redirect) return next();
    ctx.status = redirect.status;
    ctx.set('Location', redirect.location);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = `Moved to ${redirect.location}`;
  };
}
