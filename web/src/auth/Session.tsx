import type { User } from 'oidc-client-ts';
import { type ReactNode, createContext, useContext, useEffect, useState } from 'react';
import { hasRecentSession, userManager } from './oidc';
import { isTransient } from './policy';

interface SessionState {
  user: User | null;
  /** True until the kept session has been restored (or found absent). */
  isAuthenticating: boolean;
  /** True once this page has sent the person to the identity provider to sign in. */
  loginInitiated: boolean;
}

const SessionContext = createContext<SessionState>({ user: null, isAuthenticating: true, loginInitiated: false });

/**
 * The kept session, restored silently: a token still good is used as it is; an expired one is
 * renewed with its refresh token (when someone signed in here within the last day) instead of
 * being dropped. Without a network the expired session stays, so the device's kept answers show.
 */
async function restore(): Promise<User | null> {
  const user = await userManager.getUser();
  if (!user || !user.expired) return user;
  if (!user.refresh_token || !hasRecentSession()) return null;
  try {
    return await userManager.signinSilent();
  } catch (error) {
    return isTransient(error) ? user : null;
  }
}

/** Restores the provider session silently at start-up and follows token renewals. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ user: null, isAuthenticating: true, loginInitiated: userManager.loginInitiated });
  useEffect(() => {
    let active = true;
    const update = (user: User | null): void => {
      if (active) setState((previous) => ({ ...previous, user, isAuthenticating: false }));
    };
    restore().then(update, () => update(null));
    const loaded = (user: User) => update(user);
    const unloaded = () => update(null);
    userManager.events.addUserLoaded(loaded);
    userManager.events.addUserUnloaded(unloaded);
    const stopInitiated = userManager.onLoginInitiated((loginInitiated) => {
      if (active) setState((previous) => ({ ...previous, loginInitiated }));
    });
    return () => {
      active = false;
      userManager.events.removeUserLoaded(loaded);
      userManager.events.removeUserUnloaded(unloaded);
      stopInitiated();
    };
  }, []);
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

export const useSession = (): SessionState => useContext(SessionContext);

/** Off to the provider to sign in, and back to `returnTo` afterwards (once per page, however often asked). */
export function signIn(returnTo = window.location.pathname + window.location.search): Promise<void> {
  return userManager.signinRedirect({ state: { returnTo } });
}
