import { ErrorResponse, ErrorTimeout } from 'oidc-client-ts';
import { describe, expect, it } from 'vitest';
import {
  type LockRequester,
  PROVIDER,
  ProviderError,
  hasSessionCheckCookie,
  isFresh,
  providerError,
  sessionCheckCookie,
  tokenTimesProblem,
  withRetries,
  withTokenLock,
} from '../src/auth/policy';

/**
 * The browser's Web Locks behaviour in memory (Node has none): one holder per name, waiters in
 * order, a waiter whose signal aborts leaves the queue with an AbortError.
 */
class MemoryLocks implements LockRequester {
  private held = new Map<string, Promise<void>>();

  async request<T>(name: string, { signal }: { signal: AbortSignal }, callback: () => Promise<T>): Promise<T> {
    for (;;) {
      const current = this.held.get(name);
      if (!current) break;
      await new Promise<void>((resolve, reject) => {
        const abort = () => reject(new DOMException('The lock request was aborted', 'AbortError'));
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
        void current.then(() => {
          signal.removeEventListener('abort', abort);
          resolve();
        });
      });
    }
    let release = () => {};
    this.held.set(name, new Promise<void>((resolve) => (release = resolve)));
    try {
      return await callback();
    } finally {
      this.held.delete(name);
      release();
    }
  }
}

describe('the identity provider’s numbers', () => {
  it('are the spec’s: 10 s timeout, 3 token attempts, 60 s leeway and early expiry, a 5 s × 10 lock, a one-day cookie', () => {
    expect(PROVIDER.httpTimeoutSeconds).toBe(10);
    expect(PROVIDER.tokenAttempts).toBe(3);
    expect(PROVIDER.leewaySeconds).toBe(60);
    expect(PROVIDER.earlyExpirySeconds).toBe(60);
    expect(PROVIDER.silentLock).toMatchObject({ timeoutMs: 5000, attempts: 10 });
    expect(sessionCheckCookie(true, false)).toBe('paybench.is.authenticated=true; Max-Age=86400; Path=/; SameSite=Strict');
    expect(sessionCheckCookie(true, true)).toBe('paybench.is.authenticated=true; Max-Age=86400; Path=/; SameSite=Strict; Secure');
    expect(sessionCheckCookie(false, false)).toBe('paybench.is.authenticated=; Max-Age=0; Path=/; SameSite=Strict');
    expect(hasSessionCheckCookie('a=1; paybench.is.authenticated=true')).toBe(true);
    expect(hasSessionCheckCookie('a=1; paybench.is.authenticated=')).toBe(false);
  });
});

describe('the token exchange, tried up to 3 times', () => {
  it('tries again after network failures and succeeds on the third try', async () => {
    let calls = 0;
    const result = await withRetries(async (attempt) => {
      calls++;
      if (attempt < 3) throw new TypeError('Failed to fetch');
      return 'tokens';
    });
    expect(result).toBe('tokens');
    expect(calls).toBe(3);
  });

  it('gives up after the third failed try, and does not repeat a refusal by the provider', async () => {
    let calls = 0;
    await expect(
      withRetries(async () => {
        calls++;
        throw new ErrorTimeout('Network timed out');
      }),
    ).rejects.toThrow('Network timed out');
    expect(calls).toBe(3);

    calls = 0;
    await expect(
      withRetries(async () => {
        calls++;
        throw new ErrorResponse({ error: 'invalid_grant', error_description: 'grant request is invalid' });
      }),
    ).rejects.toThrow('grant request is invalid');
    expect(calls).toBe(1);
  });
});

describe('the silent-token lock', () => {
  it('lets one renewal run at a time; the next one finds the lock free', async () => {
    const locks = new MemoryLocks();
    const order: string[] = [];
    let releaseFirst = () => {};
    const first = withTokenLock(async () => {
      order.push('first starts');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('first ends');
      return 'first';
    }, locks);
    const second = withTokenLock(async () => {
      order.push('second starts');
      return 'second';
    }, locks);
    await expect.poll(() => order.length).toBe(1);
    releaseFirst();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(order).toEqual(['first starts', 'first ends', 'second starts']);
  });

  it('waits its attempts out while another tab holds the lock, then fails with the provider timeout', async () => {
    const locks = new MemoryLocks();
    let waits = 0;
    const counting: LockRequester = {
      request: (name, options, callback) => {
        waits++;
        return locks.request(name, options, callback);
      },
    };
    let release = () => {};
    const holder = locks.request('paybench.token', { signal: new AbortController().signal }, () => new Promise<void>((resolve) => (release = resolve)));
    const waiting = withTokenLock(async () => 'never', counting, { name: 'paybench.token', timeoutMs: 20, attempts: 10 });
    const failure = await waiting.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).code).toBe('timeout');
    expect(waits).toBe(10);
    release();
    await holder;
  });

  it('passes on a failure of the work itself without waiting again', async () => {
    let runs = 0;
    await expect(
      withTokenLock(async () => {
        runs++;
        throw new ProviderError('missing_refresh_token');
      }, new MemoryLocks()),
    ).rejects.toThrow('Your session cannot be renewed on this device. Please sign in again.');
    expect(runs).toBe(1);
  });
});

describe('token times', () => {
  it('counts a kept token as expired 60 s early', () => {
    expect(isFresh(1000, 939)).toBe(true);
    expect(isFresh(1000, 940)).toBe(false);
    expect(isFresh(undefined, 0)).toBe(false);
  });

  it('accepts a new ID token within 60 s of clock difference, not beyond', () => {
    expect(tokenTimesProblem({ exp: 1000, iat: 900 }, 1060)).toBeNull();
    expect(tokenTimesProblem({ exp: 1000, iat: 900 }, 1061)).toBe('The sign-in answer has already expired. Check this device’s clock, then sign in again.');
    expect(tokenTimesProblem({ exp: 5000, iat: 1060 }, 1000)).toBeNull();
    expect(tokenTimesProblem({ exp: 5000, iat: 1061 }, 1000)).toBe('The sign-in answer was issued in the future. Check this device’s clock, then sign in again.');
  });
});

describe('the identity provider’s errors, each in its own words', () => {
  const said = (error: unknown, during?: 'sign-in' | 'refresh') => {
    const failure = providerError(error, during);
    return [failure.code, failure.message];
  };

  it('names timeout, cancelled, mfa_required, missing_refresh_token, state_mismatch, missing_transaction and login_required', () => {
    expect(said(new ErrorTimeout('Network timed out'))).toEqual(['timeout', 'The sign-in service did not answer in time. Please try again.']);
    expect(said(new Error('Popup closed by user'))).toEqual(['cancelled', 'Sign-in was cancelled: the sign-in window was closed (Popup closed). Please try again.']);
    expect(said(new ErrorResponse({ error: 'mfa_required' }))).toEqual([
      'mfa_required',
      'Your account needs a second sign-in step (multi-factor authentication). Please sign in again and complete it.',
    ]);
    expect(said(new Error('A refresh_token is required'))).toEqual(['missing_refresh_token', 'Your session cannot be renewed on this device. Please sign in again.']);
    expect(said(new Error('State does not match'))).toEqual([
      'state_mismatch',
      'Invalid state: this answer from the sign-in service does not match the sign-in started here. Please sign in again.',
    ]);
    expect(said(new Error('No matching state found in storage'))).toEqual([
      'missing_transaction',
      'This sign-in was not started on this device, or it is already complete. Please sign in again.',
    ]);
    expect(said(new ErrorResponse({ error: 'login_required' }))).toEqual(['login_required', 'Your session has ended. Please sign in again.']);
  });

  it('reads a refused refresh as the end of the session, and other refusals in the provider’s words', () => {
    expect(said(new ErrorResponse({ error: 'invalid_grant', error_description: 'grant request is invalid' }), 'refresh')).toEqual(['login_required', 'Your session has ended. Please sign in again.']);
    expect(said(new ErrorResponse({ error: 'invalid_grant', error_description: 'grant request is invalid' }), 'sign-in')).toEqual(['failed', 'grant request is invalid']);
    expect(said(new Error('something else'))).toEqual(['failed', 'Sign-in did not complete. Please try again.']);
  });
});
