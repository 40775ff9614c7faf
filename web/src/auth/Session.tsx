import type { User } from 'oidc-client-ts';
import { type ReactNode, createContext, useContext, useEffect, useState } from 'react';
import { userManager } from './oidc';

interface SessionState {
  user: User | null;
  isAuthenticating: boolean;
}

const SessionContext = createContext<SessionState>({ user: null, isAuthenticating: true });

/** Restores the provider session silently at start-up and follows token renewals. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ user: null, isAuthenticating: true });
  useEffect(() => {
    let active = true;
    const update = (user: User | null): void => {
      if (active) setState({ user, isAuthenticating: false });
    };
    userManager.getUser().then((user) => update(user && !user.expired ? user : null), () => update(null));
    const loaded = (user: User) => update(user);
    const unloaded = () => update(null);
    userManager.events.addUserLoaded(loaded);
    userManager.events.addUserUnloaded(unloaded);
    return () => {
      active = false;
      userManager.events.removeUserLoaded(loaded);
      userManager.events.removeUserUnloaded(unloaded);
    };
  }, []);
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

export const useSession = (): SessionState => useContext(SessionContext);

export function signIn(returnTo = window.location.pathname + window.location.search): Promise<void> {
  return userManager.signinRedirect({ state: { returnTo } });
}
