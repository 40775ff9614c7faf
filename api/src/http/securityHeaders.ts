import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import helmet from 'koa-helmet';

/** Strict defaults: the PWA loads only its own scripts and talks only to this origin. */
const policy = (): Middleware =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'worker-src': ["'self'"],
        'manifest-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true },
  }) as Middleware;

interface HeaderChanges {
  set: [string, number | string | readonly string[]][];
  removed: string[];
}

/** What helmet does to a response, recorded once: the same headers on every answer (the policy has no per-request parts). */
async function recordedChanges(middleware: Middleware): Promise<HeaderChanges> {
  const changes: HeaderChanges = { set: [], removed: [] };
  const res = {
    setHeader(name: string, value: number | string | readonly string[]) {
      changes.set.push([name, value]);
      return res;
    },
    removeHeader(name: string) {
      changes.removed.push(name);
    },
  } as unknown as ServerResponse;
  const req = { headers: {} } as IncomingMessage;
  await middleware({ req, res } as Parameters<Middleware>[0], () => Promise.resolve());
  return changes;
}

/**
 * Helmet's headers on every answer. Helmet runs a dozen middlewares through a promise per request
 * to set headers that never change: they are worked out once and set in one loop.
 */
export function securityHeaders(): Middleware {
  let changes: HeaderChanges | undefined;
  const recording = recordedChanges(policy()).then((recorded) => (changes = recorded));
  const apply = (res: ServerResponse, recorded: HeaderChanges): void => {
    for (const name of recorded.removed) res.removeHeader(name);
    for (const [name, value] of recorded.set) res.setHeader(name, value);
  };
  return async (ctx, next) => {
    apply(ctx.res, changes ?? (await recording));
    return next();
  };
}
