import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Caller } from '../access/caller.js';
import type { Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import { HttpError } from '../kernel/errors.js';
import { sendEmailVerification } from './provider/verifyRoutes.js';

/** Links a person may ask for in a day: enough for a lost e-mail, too few to flood an inbox. */
export const VERIFICATION_LINKS_PER_DAY = 5;
const limiters = new WeakMap<Config, RateLimiterMemory>();

/** A new link that proves the signed-in person's address (they signed up and lost the first one). */
export async function resendEmailVerification(ctx: { deps: Pick<AppDeps, 'config' | 'mailer'>; caller: Caller }): Promise<{ sentTo: string; expiresAt: string }> {
  const { deps, caller } = ctx;
  if (caller.emailVerified) throw new HttpError(409, 'already_verified', { message: `${caller.email} is already verified.` });
  let limiter = limiters.get(deps.config);
  if (!limiter) {
    limiter = new RateLimiterMemory({ points: VERIFICATION_LINKS_PER_DAY, duration: 24 * 60 * 60 });
    limiters.set(deps.config, limiter);
  }
  try {
    await limiter.consume(caller.userId);
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    throw new HttpError(429, 'rate_limited', {
      message: `We already sent ${VERIFICATION_LINKS_PER_DAY} links today. Check your inbox and spam folder, or try again tomorrow.`,
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))) },
    });
  }
  const expiresAt = await sendEmailVerification(deps, { id: caller.userId, email: caller.email, firstName: caller.firstName, companyId: caller.companyId });
  return { sentTo: caller.email, expiresAt: expiresAt.toISOString() };
}
