import { constants as zlib } from 'node:zlib';
import Koa from 'koa';
import compress from 'koa-compress';
import type { AppDeps } from './deps.js';
import { HttpError, notFound } from './kernel/errors.js';
import { CLIENT_CLOSED, clientWentAway, errorHandler } from './http/errorHandler.js';
import { hostRedirects } from './http/hostRedirects.js';
import { checkAddress } from './http/inputGuards.js';
import { rateLimit } from './http/rateLimit.js';
import { requestLog } from './http/requestLog.js';
import { contractRouter } from './http/router.js';
import { securityHeaders } from './http/securityHeaders.js';
import { webApp } from './http/webApp.js';
import type { IdentityProvider } from './access/identityProvider.js';
import { allOperations, apiModules } from './modules.js';
import { checkGating } from './kernel/modules.js';

/** The whole HTTP surface: contract API, built PWA, and the one error shape for everything else. */
export function createApp(deps: AppDeps, identity: IdentityProvider): Koa {
  const app = new Koa({ proxy: process.env.PAYBENCH_TRUST_PROXY === 'true' });
  checkGating(deps.contract, apiModules);
  const router = contractRouter(deps, allOperations, identity);
  const limiter = rateLimit(deps.config.rateLimitPerMinute);
  // Analytics events come from anonymous browsers too: a tighter limit of their own.
  const eventsLimiter = rateLimit(deps.config.eventsPerMinute, 'events');

  // Failures after the answer started (a download the client stopped reading) reach Koa's 'error' event.
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    if (ctx && clientWentAway(ctx, error)) ctx.state.log?.info({ method: ctx.method, url: ctx.url, status: CLIENT_CLOSED }, 'request aborted by the client');
    else deps.log.error({ err: error }, 'response failed');
  });
  app.use(requestLog(deps.log));
  // An old brand host and the admin host answer with a permanent move to the app's own address.
  app.use(hostRedirects(deps.config.redirectHosts, deps.config.publicUrl));
  // JSON and CSV answers above ~1 KB go compressed (a quick brotli level: they are made per request);
  // the PWA's files are compressed once at build time and served by `webApp` as they are.
  app.use(compress({ threshold: 1024, br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }, deflate: false }));
  app.use(errorHandler());
  app.use(async (ctx, next) => {
    checkAddress(ctx.url);
    await next();
  });
  app.use(securityHeaders());
  app.use(identity.middleware);
  // The API, the identity provider's endpoints (token, device code, sign-in forms) and the domain proof page share one limit.
  const limited = ['/api/', '/oauth/', '/interaction/', '/authorize', '/v2/logout', '/domain-proof/'];
  app.use(async (ctx, next) => (limited.some((prefix) => ctx.path.startsWith(prefix)) ? limiter(ctx, next) : next()));
  app.use(async (ctx, next) => (ctx.path.startsWith('/api/events/') ? eventsLimiter(ctx, next) : next()));
  // Pages areas render themselves (a link opened from an e-mail), declared in their module.ts.
  for (const page of apiModules.flatMap((module) => module.pages ?? [])) app.use(page(deps));
  app.use(router.routes());
  app.use(async (ctx, next) => {
    const match = router.match(ctx.path, ctx.method);
    if (match.path.length && !match.route) {
      const allowed = [...new Set(match.path.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD');
      throw new HttpError(405, 'method_not_allowed', {
        message: `${ctx.method} is not allowed here; use ${allowed.join(', ')}.`,
        headers: { Allow: allowed.join(', ') },
      });
    }
    await next();
  });
  app.use(webApp(deps.config.webDist, deps.config.publicUrl));
  app.use(async () => {
    throw notFound('There is nothing at this address.');
  });
  return app;
}
