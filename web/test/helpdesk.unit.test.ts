import { describe, expect, it } from 'vitest';
import { type HelpDeskConditions, INITIAL_STATE, type HelpDeskState, helpDeskReducer, isOnboardingPath, launcherVisible, shouldBoot } from '../src/features/helpdesk/machine';
import { BuiltInHelpDesk } from '../src/features/helpdesk/provider';
import { withRetries } from '../src/features/helpdesk/retry';

const ready: HelpDeskConditions = { flagOn: true, signedIn: true, hasCompany: true, viewingAs: false, path: '/home' };

describe('when the help desk boots (spec: flag on, a user and a company, not onboarding)', () => {
  it('boots with everything in place', () => {
    expect(shouldBoot(ready)).toBe(true);
    expect(shouldBoot({ ...ready, path: '/settings/users' })).toBe(true);
  });
  it('stays shut down when any condition is missing', () => {
    expect(shouldBoot({ ...ready, flagOn: false })).toBe(false);
    expect(shouldBoot({ ...ready, signedIn: false })).toBe(false);
    expect(shouldBoot({ ...ready, hasCompany: false })).toBe(false);
    expect(shouldBoot({ ...ready, viewingAs: true })).toBe(false);
    expect(shouldBoot({ ...ready, path: '/onboarding' })).toBe(false);
    expect(shouldBoot({ ...ready, path: '/onboarding/company' })).toBe(false);
  });
  it('knows the onboarding routes and nothing else', () => {
    expect(isOnboardingPath('/onboarding')).toBe(true);
    expect(isOnboardingPath('/onboarding/user')).toBe(true);
    expect(isOnboardingPath('/onboardingish')).toBe(false);
    expect(isOnboardingPath('/home')).toBe(false);
  });
});

describe('the help desk state machine', () => {
  const run = (...events: Parameters<typeof helpDeskReducer>[1][]): HelpDeskState => events.reduce(helpDeskReducer, INITIAL_STATE);

  it('starts shut down, with no launcher', () => {
    expect(INITIAL_STATE).toEqual({ phase: 'shut-down', open: false });
    expect(launcherVisible(INITIAL_STATE)).toBe(false);
  });
  it('boots: fetching the token, then booted with the launcher', () => {
    expect(run({ type: 'conditions', eligible: true })).toEqual({ phase: 'booting', open: false });
    const booted = run({ type: 'conditions', eligible: true }, { type: 'token-received' });
    expect(booted).toEqual({ phase: 'booted', open: false });
    expect(launcherVisible(booted)).toBe(true);
  });
  it('opens on the launcher and is hidden on close, the launcher staying', () => {
    const open = run({ type: 'conditions', eligible: true }, { type: 'token-received' }, { type: 'show' });
    expect(open).toEqual({ phase: 'booted', open: true });
    const closed = helpDeskReducer(open, { type: 'close' });
    expect(closed).toEqual({ phase: 'booted', open: false });
    expect(launcherVisible(closed)).toBe(true);
  });
  it('cannot be opened before it is booted', () => {
    expect(run({ type: 'show' })).toEqual({ phase: 'shut-down', open: false });
    expect(run({ type: 'conditions', eligible: true }, { type: 'show' })).toEqual({ phase: 'booting', open: false });
  });
  it('shuts down, open or not, when the conditions go (sign out, view-as, onboarding, flag off)', () => {
    const open = run({ type: 'conditions', eligible: true }, { type: 'token-received' }, { type: 'show' });
    expect(helpDeskReducer(open, { type: 'conditions', eligible: false })).toEqual({ phase: 'shut-down', open: false });
    expect(run({ type: 'conditions', eligible: true }, { type: 'conditions', eligible: false })).toEqual({ phase: 'shut-down', open: false });
  });
  it('is hidden and disabled on error: no launcher, cannot be opened, not booted again while the conditions hold', () => {
    const failed = run({ type: 'conditions', eligible: true }, { type: 'token-failed' });
    expect(failed).toEqual({ phase: 'failed', open: false });
    expect(launcherVisible(failed)).toBe(false);
    expect(helpDeskReducer(failed, { type: 'show' })).toEqual({ phase: 'failed', open: false });
    expect(helpDeskReducer(failed, { type: 'conditions', eligible: true })).toEqual({ phase: 'failed', open: false });
    expect(helpDeskReducer(failed, { type: 'token-received' })).toEqual({ phase: 'failed', open: false });
  });
  it('boots afresh after a failure once it was shut down in between', () => {
    const again = run({ type: 'conditions', eligible: true }, { type: 'token-failed' }, { type: 'conditions', eligible: false }, { type: 'conditions', eligible: true });
    expect(again).toEqual({ phase: 'booting', open: false });
  });
  it('ignores a token that arrives after it was shut down', () => {
    expect(run({ type: 'conditions', eligible: true }, { type: 'conditions', eligible: false }, { type: 'token-received' })).toEqual({ phase: 'shut-down', open: false });
  });
});

describe('the identity token, tried 5 times 1 s apart', () => {
  /** A delay that records what it was asked to wait and returns at once. */
  function recordedDelay() {
    const waits: number[] = [];
    return { waits, delay: (ms: number) => (waits.push(ms), Promise.resolve()) };
  }

  it('returns the first success, waiting 1 s after each failure', async () => {
    const { waits, delay } = recordedDelay();
    const attempts: number[] = [];
    const token = await withRetries(
      async (number) => {
        attempts.push(number);
        if (number < 3) throw new Error(`down ${number}`);
        return 'jwt-3';
      },
      { delay },
    );
    expect(token).toBe('jwt-3');
    expect(attempts).toEqual([1, 2, 3]);
    expect(waits).toEqual([1000, 1000]);
  });

  it('gives up after 5 attempts (4 waits) with the last failure', async () => {
    const { waits, delay } = recordedDelay();
    let calls = 0;
    await expect(
      withRetries(
        async (number) => {
          calls += 1;
          throw new Error(`down ${number}`);
        },
        { delay },
      ),
    ).rejects.toThrow('down 5');
    expect(calls).toBe(5);
    expect(waits).toEqual([1000, 1000, 1000, 1000]);
  });

  it('does not wait when the first attempt succeeds', async () => {
    const { waits, delay } = recordedDelay();
    expect(await withRetries(async () => 'jwt', { delay })).toBe('jwt');
    expect(waits).toEqual([]);
  });

  it('stops trying once cancelled (the help desk was shut down meanwhile)', async () => {
    const { delay } = recordedDelay();
    let calls = 0;
    let cancelled = false;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          if (calls === 2) cancelled = true;
          throw new Error(`down ${calls}`);
        },
        { delay, cancelled: () => cancelled },
      ),
    ).rejects.toThrow('down 2');
    expect(calls).toBe(2);
  });
});

describe('the built-in provider', () => {
  const identity = { jwt: 'j', email: 'ada@example.com', name: 'Ada Lovelace', companyId: 'c1' };

  it('boots closed, shows, hides and forgets the person on shutdown, telling its readers each time', () => {
    const desk = new BuiltInHelpDesk();
    let told = 0;
    desk.subscribe(() => (told += 1));
    desk.show();
    expect(desk.getSnapshot()).toEqual({ identity: null, open: false });
    desk.boot(identity);
    expect(desk.getSnapshot()).toEqual({ identity, open: false });
    desk.show();
    expect(desk.getSnapshot()).toEqual({ identity, open: true });
    desk.hide();
    expect(desk.getSnapshot()).toEqual({ identity, open: false });
    desk.show();
    desk.shutdown();
    expect(desk.getSnapshot()).toEqual({ identity: null, open: false });
    expect(told).toBe(5);
  });
});
