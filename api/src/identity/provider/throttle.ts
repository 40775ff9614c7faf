import type { Knex } from 'knex';

const TABLE = 'sign_in_throttle';
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
/** Per e-mail: a person mistyping a few times is fine, a guesser is stopped quickly. */
export const MAX_FAILURES_PER_EMAIL = 5;
/** Per client address: higher, because an office or campus shares one address. */
export const MAX_FAILURES_PER_ADDRESS = 20;

interface ThrottleRow {
  key: string;
  failures: number;
  window_started_at: string | Date;
  locked_until: string | Date | null;
}

export interface ThrottleKey {
  key: string;
  limit: number;
}

/** Password-reset requests (counted whether or not the e-mail has an account): a few per e-mail, more per address. */
export const MAX_RESET_REQUESTS_PER_EMAIL = 5;
export const MAX_RESET_REQUESTS_PER_ADDRESS = 20;

/** Sign-ups (counted whether or not the e-mail has an account, so the lock tells nothing): a few per e-mail, more per address. */
export const MAX_SIGN_UPS_PER_EMAIL = 5;
export const MAX_SIGN_UPS_PER_ADDRESS = 20;

export const emailKey = (email: string): ThrottleKey => ({ key: `email:${email}`, limit: MAX_FAILURES_PER_EMAIL });
export const addressKey = (address: string): ThrottleKey => ({ key: `address:${address || 'unknown'}`, limit: MAX_FAILURES_PER_ADDRESS });
export const resetEmailKey = (email: string): ThrottleKey => ({ key: `reset-email:${email}`, limit: MAX_RESET_REQUESTS_PER_EMAIL });
export const resetAddressKey = (address: string): ThrottleKey => ({ key: `reset-address:${address || 'unknown'}`, limit: MAX_RESET_REQUESTS_PER_ADDRESS });
export const signUpEmailKey = (email: string): ThrottleKey => ({ key: `signup-email:${email}`, limit: MAX_SIGN_UPS_PER_EMAIL });
export const signUpAddressKey = (address: string): ThrottleKey => ({ key: `signup-address:${address || 'unknown'}`, limit: MAX_SIGN_UPS_PER_ADDRESS });

const time = (value: string | Date | null): number => (value === null ? 0 : new Date(value).getTime());

/** When the latest lock among `keys` ends, or undefined when none is locked. */
export async function lockedUntil(db: Knex, keys: ThrottleKey[], now = Date.now()): Promise<Date | undefined> {
  const rows = await db<ThrottleRow>(TABLE).whereIn('key', keys.map((k) => k.key));
  const until = Math.max(0, ...rows.map((row) => time(row.locked_until)));
  return until > now ? new Date(until) : undefined;
}

/** Counts one failure against a key inside its window; the failure that reaches the limit locks the key. */
export async function recordFailure(db: Knex, { key, limit }: ThrottleKey, now = Date.now()): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx<ThrottleRow>(TABLE).where({ key }).first();
    const windowOpen = row !== undefined && time(row.window_started_at) + WINDOW_MS > now;
    const failures = windowOpen ? row.failures + 1 : 1;
    const locks = failures >= limit;
    const next: ThrottleRow = {
      key,
      failures: locks ? 0 : failures,
      window_started_at: windowOpen && !locks ? row.window_started_at : new Date(now).toISOString(),
      locked_until: locks ? new Date(now + LOCK_MS).toISOString() : null,
    };
    await trx<ThrottleRow>(TABLE).insert(next).onConflict('key').merge();
  });
}

export async function clearFailures(db: Knex, { key }: ThrottleKey): Promise<void> {
  await db<ThrottleRow>(TABLE).where({ key }).delete();
}
