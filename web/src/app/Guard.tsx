import type { ReactNode } from 'react';
import { Suspense, lazy, useEffect } from 'react';
import { Redirect } from 'wouter';
import { COMPANY_AS_KEY, VIEW_AS_KEY } from '../auth/oidc';
import { signIn, useSession } from '../auth/Session';
import { FullSizeSpinner } from '../ui/Spinner';
import { FailureScreen } from '../ui/Screens';
import { useOnline } from '../ui/hooks';
import { usePerson } from './person';
import { retryImport } from './retryImport';
import type { ModuleName } from './webModule';

// Loaded only when someone reaches a module they cannot open.
const ModuleAccessScreen = lazy(() => retryImport(() => import('../features/settings/ModuleAccess')).then((m) => ({ default: m.ModuleAccessScreen })));

export type { ModuleName };

export { usePerson };

/**
 * Authorized means signed in with a person and a company; verified e-mail and accepted terms come
 * first. Not signed in: off to the provider, and back here afterwards.
 */
export function RequireSession({ children, allowWithoutCompany = false }: { children: ReactNode; allowWithoutCompany?: boolean }) {
  const { user, isAuthenticating } = useSession();
  const { data, error } = usePerson();
  const online = useOnline();
  useEffect(() => {
    if (!isAuthenticating && !user && online) void signIn();
  }, [isAuthenticating, user, online]);
  // Signed out without a network (the installed app opened offline): the sign-in screen says so,
  // rather than waiting on a provider it cannot reach.
  if (!isAuthenticating && !user && !online) return <Redirect to="/login" replace />;
  if (error) {
    // A view-as session ended elsewhere refuses every request; the way out is to stop sending its headers.
    if (localStorage.getItem(VIEW_AS_KEY) || localStorage.getItem(COMPANY_AS_KEY)) {
      const stop = () => {
        localStorage.removeItem(VIEW_AS_KEY);
        localStorage.removeItem(COMPANY_AS_KEY);
        window.location.assign('/internal');
      };
      return (
        <FailureScreen
          title="This view-as session is over"
          description="It was ended or is no longer valid. Go back to the internal tools to start another."
          actions={
            <button type="button" className="primary" onClick={stop}>
              Stop viewing
            </button>
          }
        />
      );
    }
    return <FailureScreen title="Something went wrong" description="Please refresh the page and try again. If the problem persists, contact your company admin for support." />;
  }
  const person = data?.data;
  if (!person) return <FullSizeSpinner loading />;
  if (!person.emailVerified) return <Redirect to="/unverified" replace />;
  if (!person.companyId && !allowWithoutCompany) return <Redirect to="/create-company" replace />;
  if (person.companyId && !person.termsAcceptedAt && !person.viewAs) return <Redirect to="/acknowledge-terms-of-use" replace />;
  return <>{children}</>;
}

/**
 * A module's screens show only when the company has it and the person may use it. Otherwise its own
 * address says why: switched off for the company, or not in the person's roles (with a way to ask).
 * Market data keeps its own no-access page.
 */
export function RequireModule({ module, children }: { module: ModuleName; children: ReactNode }) {
  const { data } = usePerson();
  const state = data?.data.modules.find((entry) => entry.module === module);
  if (state?.authorized) return <>{children}</>;
  if (module === 'benchmarking') return <Redirect to="/benchmarking-no-access" replace />;
  return (
    <Suspense fallback={<FullSizeSpinner loading />}>
      <ModuleAccessScreen module={module} />
    </Suspense>
  );
}
