import type { Middleware } from 'koa';
import { RateLimiterCluster, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { childRole } from '../cluster/messages.js';
import { HttpError } from '../kernel/errors.js';

/**
 * A fixed window per client address; the 429 carries the catalogue's text and a Retry-After.
 * In the web processes of a cluster the counts are kept once, by the primary (`name` tells the
 * limits apart there), so a client gets the same allowance however its requests are spread.
 */
export function rateLimit(pointsPerMinute: number, name = 'api'): Middleware {
  const options = { points: pointsPerMinute, duration: 60 };
  const limiter = childRole() ? new RateLimiterCluster({ ...options, keyPrefix: name, timeoutMs: 5_000 }) : new RateLimiterMemory(options);
  return async (ctx, next) => {
    try {
      const result = await limiter.consume(ctx.ip || 'unknown');
      ctx.set('RateLimit-Limit', String(pointsPerMinute));
      ctx.set('RateLimit-Remaining', String(result.remainingPoints));
    } catch (refusal) {
      // The cluster's primary did not answer in time (a node far past its cores): the request goes
      // on uncounted rather than failing; a limit that cannot be counted does not refuse.
      if (!(refusal instanceof RateLimiterRes)) {
        if (limiter instanceof RateLimiterCluster) return next();
        throw refusal;
      }
      const retryAfter = String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
      throw new HttpError(429, 'rate_limited', {
        message: 'Too many requests have been made. Please wait 60 seconds and try again.',
        headers: { 'Retry-After': retryAfter },
      });
    }
    await next();
  };
}
