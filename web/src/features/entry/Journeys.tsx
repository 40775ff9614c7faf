import { type FormEvent, useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { leaveFor, useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { signIn, useSession } from '../../auth/Session';
import { userManager } from '../../auth/oidc';
import { PaybenchMark } from '../../ui/Brand';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import './entry.css';

type Step = components['schemas']['OnboardingStepInput']['step'];

const USER_STEPS: { step: Step; title: string; description: string; href?: string }[] = [
  { step: 'profile', title: 'Your profile', description: 'Your name as colleagues see it.', href: '/onboarding/user' },
  { step: 'explore_benchmarking', title: 'Explore market data', description: 'Run a first benchmark in the data explorer.', href: '/benchmarkingsurvey/data-explorer' },
];

const COMPANY_STEPS: { step: Step; title: string; description: string; href: string }[] = [
  { step: 'company', title: 'Company details', description: 'Name, domains and key.', href: '/settings/company-info' },
  { step: 'currency', title: 'Currency and equity', description: 'Currency, share price and valuation.', href: '/settings/company-info' },
  { step: 'invite_team', title: 'Invite your team', description: 'Add people and give them roles.', href: '/settings/users' },
  { step: 'import_people', title: 'Import people data', description: 'Import users with the paybench command line or from your HR system.', href: '/settings/users' },
  { step: 'connect_hris', title: 'Connect your HR system', description: 'Keep people data in sync.', href: '/settings/integrations' },
];

function StepList({
  steps,
  done,
  onComplete,
  canComplete,
}: {
  steps: { step: Step; title: string; description: string; href?: string }[];
  done: string[];
  onComplete: (step: Step) => void;
  canComplete: boolean;
}) {
  return (
    <ol className="steps">
      {steps.map((entry) => {
        const complete = done.includes(entry.step);
        return (
          <li key={entry.step} className={complete ? 'step done' : 'step'} data-step={entry.step}>
            <div>
              <h3>
                {entry.href ? <Link href={entry.href}>{entry.title}</Link> : entry.title}
                {complete && <span className="badge success">Done</span>}
              </h3>
              <p className="muted">{entry.description}</p>
            </div>
            {!complete && canComplete && (
              <button type="button" className="small" onClick={() => onComplete(entry.step)}>
                Mark “{entry.title}” done
              </button>
            )}
          </li>
        );
      })}
    </ol>
  );
}

function useOnboarding() {
  const person = usePerson().data?.data;
  const user = useQuery('/api/me/onboarding');
  const company = useQuery('/api/company/onboarding', person?.companyId && !person.isCandidate ? {} : null);
  const { add } = useToasts();
  const readOnly = Boolean(person?.viewAs);
  async function completeUser(step: Step) {
    const { data, error } = await api.POST('/api/me/onboarding', { body: { step } });
    if (error) return add('error', errorMessage(error));
    await user.mutate({ data: data.data }, { revalidate: false });
  }
  async function completeCompany(step: Step) {
    const { data, error } = await api.POST('/api/company/onboarding', { body: { step } });
    if (error) return add('error', errorMessage(error));
    await company.mutate({ data: data.data }, { revalidate: false });
  }
  return { person, user, company, completeUser, completeCompany, readOnly };
}

/** /onboarding: the person's steps and, for admins, the company's. The help desk is not started here. */
export function OnboardingScreen() {
  const { person, user, company, completeUser, completeCompany, readOnly } = useOnboarding();
  if (!person || !user.data) return <FullSizeSpinner loading label="Loading your onboarding" />;
  return (
    <>
      <h1>Getting started</h1>
      <section className="card" aria-labelledby="you-heading">
        <h2 id="you-heading">
          <Link href="/onboarding/user">You</Link> {user.data.data.completed && <span className="badge success">All done</span>}
        </h2>
        <StepList steps={USER_STEPS} done={user.data.data.completedSteps} onComplete={(step) => void completeUser(step)} canComplete={!readOnly} />
      </section>
      {company.data && (
        <section className="card" aria-labelledby="company-steps-heading">
          <h2 id="company-steps-heading">
            <Link href="/onboarding/company">Your company</Link> {company.data.data.completed && <span className="badge success">All done</span>}
          </h2>
          <StepList
            steps={COMPANY_STEPS}
            done={company.data.data.completedSteps}
            onComplete={(step) => void completeCompany(step)}
            canComplete={!readOnly && can(person, 'companySettings', 'edit')}
          />
        </section>
      )}
    </>
  );
}

/** /onboarding/user: the profile step — the person's name — then on to market data. */
export function OnboardingUserScreen() {
  const { person, user, completeUser, readOnly } = useOnboarding();
  const { run, busy } = useMutation();
  const { add } = useToasts();
  if (!person || !user.data) return <FullSizeSpinner loading />;
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = { accountData: { firstName: String(form.get('firstName') ?? ''), lastName: String(form.get('lastName') ?? '') }, subdomain: 'app' as const };
    // Saving the name also completes the profile step; the screen stays busy until /api/me says so.
    const result = await run(
      async () => {
        const answer = await api.POST('/api/accounts', { body });
        if (answer.error === undefined) await completeUser('profile');
        return answer;
      },
      { invalidates: '/api/me', hold: 'invalidated' },
    );
    if (result.ok) add('success', 'Your profile is saved.');
  }
  return (
    <>
      <h1>Your profile</h1>
      <form className="card settings-form" onSubmit={(event) => void save(event)}>
        <label>
          First name
          <input name="firstName" required maxLength={100} defaultValue={person.firstName} autoComplete="given-name" disabled={readOnly} />
        </label>
        <label>
          Last name
          <input name="lastName" required maxLength={100} defaultValue={person.lastName} autoComplete="family-name" disabled={readOnly} />
        </label>
        <p className="muted">Signed in as {person.email}.</p>
        {!readOnly && (
          <button type="submit" className="primary" disabled={busy}>
            Save and continue
          </button>
        )}
      </form>
      <StepList steps={USER_STEPS} done={user.data.data.completedSteps} onComplete={(step) => void completeUser(step)} canComplete={!readOnly} />
    </>
  );
}

/** /onboarding/company: the company's set-up steps, each linking to where it is done. */
export function OnboardingCompanyScreen() {
  const { person, company, completeCompany, readOnly } = useOnboarding();
  if (!person) return <FullSizeSpinner loading />;
  if (!person.companyId) {
    return (
      <section className="panel">
        <h1>Your company</h1>
        <p>You do not belong to a company yet.</p>
        <Link href="/create-company" className="button primary">
          Create your company
        </Link>
      </section>
    );
  }
  if (!company.data) return <FullSizeSpinner loading />;
  const editable = !readOnly && can(person, 'companySettings', 'edit');
  return (
    <>
      <h1>Set up your company</h1>
      {!editable && <p className="muted">Your company admin completes these steps.</p>}
      <StepList steps={COMPANY_STEPS} done={company.data.data.completedSteps} onComplete={(step) => void completeCompany(step)} canComplete={editable} />
    </>
  );
}

/**
 * /auth/sso: single sign-on starts from the work e-mail, which is passed to the provider as a hint
 * so it can send the person to their company's identity provider.
 */
export function SsoScreen() {
  // Busy until the page leaves for the provider; a failed start frees the button and says nothing.
  const { run, busy } = useMutation({ failure: 'problem' });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    await run(() => leaveFor(userManager.signinRedirect({ login_hint: email, state: { returnTo: '/home' } })), { hold: 'leaving' });
  }
  return (
    <main className="entry">
      <form className="card entry-card" onSubmit={(event) => void submit(event)}>
        <PaybenchMark size={48} />
        <h1>Sign in with single sign-on</h1>
        <label>
          Work e-mail
          <input name="email" type="email" required autoComplete="email" />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          Continue
        </button>
        <a href="/login">Sign in with a password instead</a>
      </form>
    </main>
  );
}

/**
 * /auth0/idp-initiated-callback: a sign-in started at the company's identity provider. A response
 * nobody asked for cannot be trusted (no state, no PKCE), so the app starts a sign-in of its own,
 * which the provider completes at once while its session is fresh.
 */
export function IdpInitiatedScreen() {
  const { user, isAuthenticating } = useSession();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (isAuthenticating) return;
    if (user) navigate('/home', { replace: true });
    else void signIn('/home');
  }, [user, isAuthenticating, navigate]);
  return <FullSizeSpinner loading label="Continuing your sign-in" />;
}

