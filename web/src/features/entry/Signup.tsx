import type { FormEvent } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { api } from '../../api/client';
import { leaveFor, useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { userManager } from '../../auth/oidc';
import { useSession } from '../../auth/Session';
import { PaybenchMark } from '../../ui/Brand';
import { FormProblem } from '../../ui/FormProblem';
import { FullSizeSpinner } from '../../ui/Spinner';
import './entry.css';

/** Where someone came from (a partner's link, a campaign), kept for the account until it is made. */
const SIGNUP_SOURCE_KEY = 'paybench.signupSource';

interface SignupSource {
  partnerCode?: string;
  referrer?: string;
  campaignTrackingStringified?: string;
}

function rememberSource(): void {
  const query = new URLSearchParams(window.location.search);
  const campaign = Object.fromEntries([...query].filter(([key]) => key.startsWith('utm_')));
  const source: SignupSource = {};
  const partner = query.get('partner') ?? query.get('partnerCode');
  if (partner) source.partnerCode = partner.slice(0, 100);
  if (document.referrer && !document.referrer.startsWith(window.location.origin)) source.referrer = document.referrer.slice(0, 2000);
  if (Object.keys(campaign).length) source.campaignTrackingStringified = JSON.stringify(campaign).slice(0, 4000);
  if (Object.keys(source).length) sessionStorage.setItem(SIGNUP_SOURCE_KEY, JSON.stringify(source));
}

function storedSource(): SignupSource {
  try {
    return JSON.parse(sessionStorage.getItem(SIGNUP_SOURCE_KEY) ?? '{}') as SignupSource;
  } catch {
    return {};
  }
}

const SIGNUP_STEPS = [
  { title: 'Your account', text: 'Your name, work e-mail and a password — or your company’s single sign-on.' },
  { title: 'Confirm your e-mail', text: 'We send a link to prove the address is yours.' },
  { title: 'Your company', text: 'Its name and currency. You become its admin and can invite your team.' },
];

function Steps({ current }: { current: number }) {
  return (
    <ol className="signup-steps" aria-label="Getting started">
      {SIGNUP_STEPS.map((step, index) => (
        <li key={step.title} aria-current={index === current ? 'step' : undefined} className={index < current ? 'done' : undefined}>
          <strong>{step.title}</strong>
          <span className="muted">{step.text}</span>
        </li>
      ))}
    </ol>
  );
}

/** /signup: what creating an account involves, then the provider's sign-up page (or the company's SSO). */
export function SignupScreen() {
  const { user, isAuthenticating } = useSession();
  const person = usePerson().data?.data;
  // Busy until the page leaves for the provider; a failed start frees the button and says nothing.
  const { run, busy } = useMutation({ failure: 'problem' });
  if (isAuthenticating || (user && !person)) return <FullSizeSpinner loading />;
  if (person) {
    return (
      <main className="entry">
        <div className="card entry-card">
          <PaybenchMark size={48} />
          <h1>You already have an account</h1>
          <p className="lede">You are signed in as {person.email}.</p>
          <Link href={person.companyId ? '/home' : '/create-account'} className="button primary">
            {person.companyId ? 'Go to Paybench' : 'Continue setting up'}
          </Link>
          <a href="/logout">Sign out to create another account</a>
        </div>
      </main>
    );
  }
  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    rememberSource();
    await run(() => leaveFor(userManager.signinRedirect({ login_hint: email || undefined, extraQueryParams: { screen_hint: 'signup' }, state: { returnTo: '/create-account' } })), { hold: 'leaving' });
  }
  return (
    <main className="entry">
      <form className="card entry-card" onSubmit={(event) => void start(event)}>
        <PaybenchMark size={48} />
        <h1>Create your Paybench account</h1>
        <p className="lede">Benchmark pay, build bands and run merit cycles with your team. It takes three steps:</p>
        <Steps current={0} />
        <label>
          Work e-mail
          <input name="email" type="email" autoComplete="email" maxLength={320} />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          Create your account
        </button>
        <p className="muted">
          Joining a company that already uses Paybench? Ask its admin to invite you. Already have an account? <Link href="/login">Sign in</Link>.
        </p>
      </form>
    </main>
  );
}

/** /create-account: the new person confirms their details (the account's record), then creates their company. */
export function CreateAccountScreen() {
  const person = usePerson().data?.data;
  const [, navigate] = useLocation();
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  if (!person) return <FullSizeSpinner loading />;
  if (person.companyId) return <Redirect to="/home" replace />;
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      accountData: { firstName: String(form.get('firstName') ?? '').trim(), lastName: String(form.get('lastName') ?? '').trim() },
      subdomain: 'app' as const,
      ...storedSource(),
    };
    const result = await run(() => api.POST('/api/accounts', { body }), { invalidates: '/api/me' });
    if (!result.ok) return;
    sessionStorage.removeItem(SIGNUP_SOURCE_KEY);
    navigate('/create-company');
  }
  return (
    <main className="entry">
      <form className="card entry-card" onSubmit={(event) => void save(event)}>
        <PaybenchMark size={48} />
        <h1>Confirm your details</h1>
        <Steps current={2} />
        <p className="lede">Signed in as {person.email}. This is how colleagues will see you.</p>
        <label>
          First name
          <input name="firstName" required maxLength={100} autoComplete="given-name" defaultValue={person.firstName} />
        </label>
        <label>
          Last name
          <input name="lastName" required maxLength={100} autoComplete="family-name" defaultValue={person.lastName} />
        </label>
        <FormProblem message={problem?.message ?? null} />
        <button type="submit" className="primary" disabled={busy}>
          Continue to your company
        </button>
      </form>
    </main>
  );
}
