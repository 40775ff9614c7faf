import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { forgetAllAnswers, useMutation } from '../../api/queries';
import { COMPANY_AS_KEY, VIEW_AS_KEY } from '../../auth/oidc';
import { usePerson } from '../../app/Guard';
import { Palette } from 'lucide-react';
import { Link } from 'wouter';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/Page';
import { FailureScreen } from '../../ui/Screens';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useToasts } from '../../ui/Toasts';
import { DataLabSubscriptionControl } from '../dataLab/SubscriptionControl';
import { CheckoutRequests } from './CheckoutRequests';
import { EnterpriseTags } from './EnterpriseTags';
import { ErrorScreenText } from './ErrorScreenText';
import { DomainClaims, ParticipantQueue } from './Verification';
import './internal.css';

type Company = components['schemas']['AccountSummary'];
type FlagName = components['schemas']['ReleaseFlagName'];

const FLAG_TEXT: Record<FlagName, string> = {
  benchmarking: 'Benchmarking',
  compensation_planning: 'Compensation planning (and reward letters)',
  total_rewards: 'Total rewards',
  offer_letters: 'Visual offer letters',
  team_view: 'Team view',
  bands: 'Salary bands',
  market_pricing: 'Market pricing',
  budgets: 'Budgets',
  release_job_manager_page: 'Background jobs page',
  multiplayer: 'Live updates (realtime socket)',
  help_desk: 'Help-desk chat',
  pay_equity: 'Pay equity and pay transparency (pay gap reports, job evaluation, pay information requests)',
};

/** Every cached answer belongs to whoever was asked about; a new identity starts clean. */
const forgetCachedAnswers = () => forgetAllAnswers({ refetch: false });

function ReleaseFlags({ company }: { company: Company }) {
  const flags = useQuery('/api/internal/companies/{companyId}/release-flags', { params: { path: { companyId: company.companyId } } });
  const { add } = useToasts();
  const [busy, setBusy] = useState<string | null>(null);
  // The switch moves at once; if the server refuses, it moves back.
  const [pending, setPending] = useState<Partial<Record<FlagName, boolean>>>({});
  async function set(flag: FlagName, enabled: boolean) {
    setBusy(flag);
    setPending((current) => ({ ...current, [flag]: enabled }));
    const { error } = await api.PUT('/api/internal/companies/{companyId}/release-flags/{flag}', {
      params: { path: { companyId: company.companyId, flag } },
      body: { enabled },
    });
    setBusy(null);
    if (error) {
      setPending((current) => ({ ...current, [flag]: undefined }));
      return add('error', errorMessage(error));
    }
    add('success', `${FLAG_TEXT[flag]} is now ${enabled ? 'on' : 'off'} for ${company.companyName}.`);
    await flags.mutate();
    setPending((current) => ({ ...current, [flag]: undefined }));
  }
  if (flags.error) return <p role="alert">{errorMessage(flags.error)}</p>;
  if (!flags.data) return <p className="muted">Loading release flags…</p>;
  return (
    <fieldset className="flags">
      <legend>Release flags</legend>
      <ul>
        {flags.data.data.map((flag) => (
          <li key={flag.flag}>
            <label className="switch">
              <input type="checkbox" role="switch" checked={pending[flag.flag] ?? flag.enabled} aria-busy={busy === flag.flag} onChange={(event) => void set(flag.flag, event.target.checked)} />
              <span>{FLAG_TEXT[flag.flag]}</span>
              {!flag.isDefault && <span className="badge">changed</span>}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function ViewAsForms({ company }: { company: Company }) {
  const { run, busy } = useMutation();
  async function start(event: FormEvent<HTMLFormElement>, mode: 'user' | 'company') {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const reason = String(form.get('reason') ?? '').trim();
    const userEmail = String(form.get('email') ?? '').trim();
    const result = await run(() =>
      api.POST('/api/v2/view-as-sessions', {
        body: mode === 'user' ? { userEmail, reason } : { companyKey: company.companyKey, reason },
      }),
    );
    if (!result.ok) return;
    const { data } = result;
    localStorage.removeItem(VIEW_AS_KEY);
    localStorage.removeItem(COMPANY_AS_KEY);
    if (data.data.mode === 'user' && data.data.targetEmail) localStorage.setItem(VIEW_AS_KEY, data.data.targetEmail);
    else localStorage.setItem(COMPANY_AS_KEY, data.data.companyKey);
    await forgetCachedAnswers();
    // A full load: every screen, socket and cache starts as the person being viewed.
    window.location.assign('/home');
  }
  return (
    <div className="view-as-forms">
      <form className="card inset" onSubmit={(event) => void start(event, 'user')} aria-label={`View ${company.companyName} as a user`}>
        <h3>View as a user</h3>
        <label>
          The user’s e-mail
          <input name="email" type="email" required autoComplete="off" />
        </label>
        <label>
          Reason (kept in the audit log)
          <input name="reason" required minLength={3} maxLength={500} placeholder="e.g. ticket 4711" />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          View as user
        </button>
      </form>
      <form className="card inset" onSubmit={(event) => void start(event, 'company')} aria-label={`View as ${company.companyName}`}>
        <h3>View as the company</h3>
        <p className="muted small-text">See {company.companyName} as its admins do, read-only.</p>
        <label>
          Reason (kept in the audit log)
          <input name="reason" required minLength={3} maxLength={500} />
        </label>
        <button type="submit" disabled={busy}>
          View as company
        </button>
      </form>
    </div>
  );
}

function Sessions() {
  const sessions = useQuery('/api/v2/view-as-sessions');
  if (!sessions.data) return null;
  const list = sessions.data.data.slice(0, 10);
  if (list.length === 0) return <p className="muted">You have not viewed as anyone yet.</p>;
  return (
    <DataTable
      caption="Your recent view-as sessions"
      // Long reasons make it scroll sideways; keyboard users reach it as a region.
      regionLabel="Your recent view-as sessions"
      rows={list}
      rowKey={(session) => session.id}
      columns={[
        { key: 'as', header: 'As', cell: (session) => (session.mode === 'user' ? session.targetEmail : 'The company') },
        { key: 'company', header: 'Company', cell: (session) => session.companyKey },
        { key: 'reason', header: 'Reason', className: 'wrap', cell: (session) => session.reason },
        { key: 'started', header: 'Started', cell: (session) => new Date(session.startedAt).toLocaleString() },
        { key: 'ended', header: 'Ended', cell: (session) => (session.endedAt ? new Date(session.endedAt).toLocaleString() : 'Open') },
      ]}
    />
  );
}

/** /internal: internal admins find a company, switch its release flags, and view as a user or as the company. */
export function InternalScreen() {
  const person = usePerson().data?.data;
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Company | null>(null);
  const companies = useQuery('/api/internal/companies', person?.isInternalAdmin ? { params: { query: search ? { search } : {} } } : null);
  if (!person) return <FullSizeSpinner loading />;
  if (!person.isInternalAdmin) {
    return <FailureScreen title="Permission denied" description="You do not have access to this content. Please contact your company admin for support." />;
  }
  return (
    <>
      <PageHeader
        title="Internal tools"
        description="Support customers: every view-as session is recorded with who, whom, when and why."
        actions={
          <>
            <Link href="/internal/market-releases" className="button">
              Market releases
            </Link>
            <Link href="/internal/market-quarantines" className="button">
              Held-back market contributions
            </Link>
            <Link href="/internal/ui" className="button">
              <Palette size={18} aria-hidden="true" />
              UI kit
            </Link>
          </>
        }
      />
      <div className="internal-grid">
        <section className="card" aria-labelledby="companies-heading">
          <h2 id="companies-heading">Companies</h2>
          <label className="search">
            Search by name or key
            <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
          </label>
          {companies.error && <p role="alert">{errorMessage(companies.error)}</p>}
          <ul className="company-list" aria-label="Companies">
            {companies.data?.data.map((company) => (
              <li key={company.companyId}>
                <button type="button" aria-pressed={chosen?.companyId === company.companyId} onClick={() => setChosen(company)}>
                  <strong>{company.companyName}</strong> <span className="muted">{company.companyKey}</span>
                  {company.isDemo && <span className="badge">demo</span>}
                </button>
              </li>
            ))}
          </ul>
          {companies.data?.data.length === 0 && <p className="muted">No company matches.</p>}
        </section>
        {chosen ? (
          <section className="card" aria-labelledby="company-heading">
            <h2 id="company-heading">{chosen.companyName}</h2>
            <ViewAsForms company={chosen} />
            <EnterpriseTags company={chosen} />
            <ReleaseFlags company={chosen} />
            <ErrorScreenText company={chosen} />
            <DataLabSubscriptionControl companyId={chosen.companyId} companyName={chosen.companyName} />
          </section>
        ) : (
          <section className="card muted">Choose a company to view as one of its users or as the company, or to change its release flags.</section>
        )}
      </div>
      <section aria-label="View-as sessions">
        <Sessions />
      </section>
      <section aria-label="Invoice requests">
        <CheckoutRequests />
      </section>
      <section aria-label="Market participants">
        <ParticipantQueue />
      </section>
      <section aria-label="E-mail domains">
        <DomainClaims />
      </section>
    </>
  );
}
