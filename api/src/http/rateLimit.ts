import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../kernel/errors.js';

/** A fixed window per client address; the 429 carries the catalogue's text and a Retry-After. */
export function rateLimit(pointsPerMinute: number): Middleware {
  const limiter = new RateLimiterMemory({ points: pointsPerMinute, duration: 60 });
  return async (ctx, next) => {
    try {
      const result = await limiter.consume(ctx.ip || 'unknown');
      ctx.set('RateLimit-Limit', String(pointsPerMinute));
      ctx.set('RateLimit-Remaining', String(result.remainingPoints));
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const retryAfter = String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
      throw new HttpError(429, 'rate_limited', {
        message: 'Too many requests have been made. Please wait 60 seconds and try again.',
        headers: { 'Retry-After': retryAfter },
      });
    }
    await next();
  };
}
