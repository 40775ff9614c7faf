// The help desk's states (spec §4): booted when the help-desk flag is on, a person and a company
// exist and the path is not onboarding; otherwise shut down; hidden on close; hidden and disabled
// on error. While an internal admin views as someone, it is shut down too: the identity it would
// carry is not the viewer's.

/** What decides whether the help desk may run. */
export interface HelpDeskConditions {
  flagOn: boolean;
  signedIn: boolean;
  hasCompany: boolean;
  viewingAs: boolean;
  path: string;
}

/** The onboarding routes (`/onboarding` and everything under it): the help desk is not started there. */
export const isOnboardingPath = (path: string): boolean => path === '/onboarding' || path.startsWith('/onboarding/');

export const shouldBoot = (c: HelpDeskConditions): boolean => c.flagOn && c.signedIn && c.hasCompany && !c.viewingAs && !isOnboardingPath(c.path);

export type HelpDeskPhase =
  /** Not running: no identity handed to the provider. */
  | 'shut-down'
  /** Fetching the identity token (up to 5 attempts). */
  | 'booting'
  /** Running: the launcher shows. */
  | 'booted'
  /** The token could not be had: hidden and disabled until it is shut down and booted again. */
  | 'failed';

export interface HelpDeskState {
  phase: HelpDeskPhase;
  /** The panel is open (only while booted). */
  open: boolean;
}

export type HelpDeskEvent =
  | { type: 'conditions'; eligible: boolean }
  | { type: 'token-received' }
  | { type: 'token-failed' }
  | { type: 'show' }
  | { type: 'close' };

export const INITIAL_STATE: HelpDeskState = { phase: 'shut-down', open: false };

export function helpDeskReducer(state: HelpDeskState, event: HelpDeskEvent): HelpDeskState {
  switch (event.type) {
    case 'conditions':
      if (!event.eligible) return state.phase === 'shut-down' ? state : INITIAL_STATE;
      // Already booting, booted or failed: nothing new to do (a failure stays until shut down).
      return state.phase === 'shut-down' ? { phase: 'booting', open: false } : state;
    case 'token-received':
      return state.phase === 'booting' ? { phase: 'booted', open: false } : state;
    case 'token-failed':
      return state.phase === 'booting' ? { phase: 'failed', open: false } : state;
    case 'show':
      return state.phase === 'booted' ? { ...state, open: true } : state;
    case 'close':
      return state.open ? { ...state, open: false } : state;
  }
}

/** The launcher is there only while booted. */
export const launcherVisible = (state: HelpDeskState): boolean => state.phase === 'booted';
