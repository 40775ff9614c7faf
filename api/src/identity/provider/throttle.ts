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

/**
 * Reserves one attempt against a key before the attempt is checked, so parallel attempts cannot all
 * pass a lock check made before any of them was counted: undefined when counted, or when the key's
 * lock ends when it is locked. Each step is one statement that the database applies to the row
 * atomically (a conditional UPDATE), on SQLite and Postgres alike. The attempt that reaches the
 * limit is still checked, and locks the key for whoever comes next.
 */
export async function reserveAttempt(db: Knex, { key, limit }: ThrottleKey, now = Date.now()): Promise<Date | undefined> {
  const at = new Date(now).toISOString();
  await db<ThrottleRow>(TABLE).insert({ key, failures: 0, window_started_at: at, locked_until: null }).onConflict('key').ignore();
  // A window that ran out, or a lock that ended, starts afresh.
  const windowOver = new Date(now - WINDOW_MS).toISOString();
  await db<ThrottleRow>(TABLE)
    .where({ key })
    .where((ended) => ended.where((open) => open.whereNull('locked_until').where('window_started_at', '<=', windowOver)).orWhere('locked_until', '<=', at))
    .update({ failures: 0, window_started_at: at, locked_until: null });
  const counted = await db<ThrottleRow>(TABLE).where({ key }).whereNull('locked_until').where('failures', '<', limit).increment('failures', 1);
  const lockEnd = new Date(now + LOCK_MS);
  await db<ThrottleRow>(TABLE).where({ key }).whereNull('locked_until').where('failures', '>=', limit).update({ locked_until: lockEnd.toISOString() });
  if (counted) return undefined;
  return (await lockedUntil(db, [{ key, limit }], now)) ?? lockEnd;
}

/** Hands back a reservation whose attempt turned out not to be a failure (lifting the lock it may have set). */
export async function releaseAttempt(db: Knex, { key, limit }: ThrottleKey): Promise<void> {
  await db<ThrottleRow>(TABLE).where({ key }).where('failures', '>', 0).decrement('failures', 1);
  await db<ThrottleRow>(TABLE).where({ key }).where('failures', '<', limit).whereNotNull('locked_until').update({ locked_until: null });
}

/**
 * Reserves an attempt against every key, in order: the time the first locked one's lock ends (and
 * the reservations already made are handed back), or undefined when all were reserved.
 */
export async function reserveAttempts(db: Knex, keys: ThrottleKey[], now = Date.now()): Promise<Date | undefined> {
  const reserved: ThrottleKey[] = [];
  for (const key of keys) {
    const locked = await reserveAttempt(db, key, now);
    if (!locked) {
      reserved.push(key);
      continue;
    }
    for (const done of reserved) await releaseAttempt(db, done);
    return locked;
  }
  return undefined;
}

export async function clearFailures(db: Knex, { key }: ThrottleKey): Promise<void> {
  await db<ThrottleRow>(TABLE).where({ key }).delete();
}
