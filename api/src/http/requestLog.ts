import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { CLIENT_CLOSED } from './errorHandler.js';

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Paths whose next segment is a bearer secret (an offer letter's link, an invitation, a password reset, a collaborator's link). */
const SECRET_IN_PATH = /^(\/api\/offer-letters\/|\/invitation\/|\/password-reset\/|\/api\/collaborator-slices\/|\/collaborator\/)[^/?]+/;

/** The URL as logged: a secret in the path is replaced, so the log cannot open what the link opens. */
export function loggedUrl(url: string): string {
  return url.replace(SECRET_IN_PATH, '$1[secret]');
}

/** Gives every request an id (the caller's `X-Request-Id` when it is sane), a child logger, and one access-log line. */
export function requestLog(log: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ reqId: requestId });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      if (ctx.state.aborted === true) ctx.state.log.info({ method: ctx.method, url: loggedUrl(ctx.url), status: CLIENT_CLOSED, ms }, 'request aborted by the client');
      else ctx.state.log.info({ method: ctx.method, url: loggedUrl(ctx.url), status: ctx.status, ms }, 'request');
    }
  };
}
