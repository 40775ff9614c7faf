import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { api } from '../../api/client';
import { forgetAllAnswers, useMutation } from '../../api/queries';
import { retryImport } from '../../app/retryImport';
import { SESSION_EXPIRED_REASON, userManager } from '../../auth/oidc';
import { signIn, useSession } from '../../auth/Session';
import { FullSizeSpinner } from '../../ui/Spinner';
import { PaybenchMark } from '../../ui/Brand';
import { FailureScreen } from '../../ui/Screens';
import { useOnline } from '../../ui/hooks';
import './entry.css';

const REASONS: Record<string, string> = {
  expired: 'Your session has expired. Please sign in again.',
  revoked: 'Your session was ended. Please sign in again.',
  invalid: 'Your sign-in was not accepted. Please sign in again.',
  unknown_user: 'This account no longer has access.',
};

/** /: home when signed in, else the sign-in screen. */
export function RootScreen() {
  const { user, isAuthenticating } = useSession();
  if (isAuthenticating) return <FullSizeSpinner loading />;
  return <Redirect to={user ? '/home' : '/login'} replace />;
}

export function LoginScreen() {
  const reason = localStorage.getItem(SESSION_EXPIRED_REASON);
  const online = useOnline();
  return (
    <main className="entry">
      <div className="card entry-card">
        <PaybenchMark size={48} />
        <h1>Sign in to Paybench</h1>
        <p className="lede">Pay benchmarking, salary bands, merit cycles, total rewards and offers.</p>
        {reason && <p role="alert">{REASONS[reason] ?? REASONS.expired}</p>}
        {!online && <p role="status">You are offline. Signing in needs a connection.</p>}
        <button type="button" className="primary" disabled={!online} onClick={() => void signIn('/home')}>
          Continue to sign in
        </button>
      </div>
    </main>
  );
}

/** Completes the code + PKCE exchange and goes where the person was headed. */
export function CallbackScreen() {
  const [, navigate] = useLocation();
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    userManager.signinRedirectCallback().then(
      (user) => {
        localStorage.removeItem(SESSION_EXPIRED_REASON);
        const returnTo = (user.state as { returnTo?: string } | undefined)?.returnTo;
        navigate(returnTo && returnTo.startsWith('/') && !returnTo.startsWith('/auth0') ? returnTo : '/home', { replace: true });
      },
      (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)),
    );
  }, [navigate]);
  if (failed) {
    return <FailureScreen title="Sign-in did not complete" description={failed} actions={<a href="/login">Try again</a>} />;
  }
  return <FullSizeSpinner loading label="Signing you in" />;
}

/** Signs out everywhere: the server session, the provider session, and every cache on this device. */
export function LogoutScreen() {
  const { user, isAuthenticating } = useSession();
  const [done, setDone] = useState(false);
  // Once: removing the stored user below changes the session, which must not read as "signed out"
  // while the provider's sign-out is still to come.
  const started = useRef(false);
  useEffect(() => {
    if (isAuthenticating || started.current) return;
    started.current = true;
    void (async () => {
      if (user) await api.POST('/api/me/logout').catch(() => undefined);
      // Every kept answer goes; the app's own files (workbox's precache, no one's data) stay, so the
      // installed app still opens offline, on its signed-out screen.
      if ('caches' in window) for (const key of await caches.keys()) if (!key.startsWith('workbox-precache')) await caches.delete(key);
      // Coming back from the provider's logout the URL has no reason: keep the one stored on the way out.
      const reason = new URLSearchParams(window.location.search).get('reason') ?? localStorage.getItem(SESSION_EXPIRED_REASON);
      for (const key of Object.keys(localStorage)) if (key.startsWith('paybench.') || key.startsWith('oidc.')) localStorage.removeItem(key);
      // The tab's own state (the data explorer's choices) goes too.
      for (const key of Object.keys(sessionStorage)) if (key.startsWith('paybench.')) sessionStorage.removeItem(key);
      if (reason) localStorage.setItem(SESSION_EXPIRED_REASON, reason);
      if (user) {
        await userManager.removeUser();
        await userManager.signoutRedirect({ id_token_hint: user.id_token }).catch(() => setDone(true));
      } else {
        setDone(true);
      }
    })();
  }, [user, isAuthenticating]);
  if (!done) return <FullSizeSpinner loading label="Signing you out" />;
  return (
    <FailureScreen
      title="You are signed out"
      description="Your data has been removed from this device."
      actions={
        <a className="button primary" href="/login">
          Sign in again
        </a>
      }
    />
  );
}

/** /unverified: the address is proved by the link e-mailed at sign-up; another can be sent from here. */
export function UnverifiedScreen() {
  const { user } = useSession();
  const [, navigate] = useLocation();
  const [notice, setNotice] = useState<string | null>(null);
  // Both outcomes are a notice in place, never a toast.
  const { run, busy } = useMutation({ failure: 'problem' });
  async function resend() {
    const result = await run(() => api.POST('/api/me/email-verification'));
    setNotice(result.ok ? `We sent a new link to ${result.data.data.sentTo}. It works for a day.` : result.problem.message);
  }
  async function checkAgain() {
    const { data } = await api.GET('/api/me');
    if (data?.data.emailVerified) {
      await forgetAllAnswers({ refetch: true });
      navigate(data.data.companyId ? '/home' : '/create-account', { replace: true });
    } else {
      setNotice('Your address is not verified yet. Open the link in the e-mail we sent, then try again.');
    }
  }
  return (
    <FailureScreen
      title="Please verify your e-mail address"
      description={
        user
          ? `We sent a link to ${user.profile.email ?? 'your e-mail address'}. Open it to prove the address is yours; then continue here.`
          : 'We need to know this address is yours before showing pay data. Sign in, then ask for a link.'
      }
      actions={
        <>
          {notice && <p role="status">{notice}</p>}
          {user && (
            <>
              <button type="button" className="primary" onClick={() => void checkAgain()}>
                I have opened the link
              </button>
              <button type="button" disabled={busy} onClick={() => void resend()}>
                Send the link again
              </button>
            </>
          )}
          <a className="button" href="/logout">
            Sign out
          </a>
        </>
      }
    />
  );
}

// Market data's no-access page asks for access for a signed-in person; loaded only there.
const MarketDataNoAccess = lazy(() => retryImport(() => import('../settings/ModuleAccess')).then((m) => ({ default: m.MarketDataNoAccess })));

/** /no-access, and /benchmarking-no-access (which, signed in, says where market data stands and lets the person ask for it). */
export function NoAccessScreen() {
  const { user } = useSession();
  const [location] = useLocation();
  if (user && location === '/benchmarking-no-access') {
    return (
      <Suspense fallback={<FullSizeSpinner loading />}>
        <MarketDataNoAccess />
      </Suspense>
    );
  }
  return (
    <FailureScreen
      title="Permission denied"
      description="You do not have access to this content. Please contact your company admin for support."
      actions={
        <a className="button" href="/home">
          Back to home
        </a>
      }
    />
  );
}

export function NotFoundScreen() {
  return (
    <FailureScreen
      title="Not found"
      description="The content could not be found."
      actions={
        <a className="button" href="/home">
          Back to home
        </a>
      }
    />
  );
}
