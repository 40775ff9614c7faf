import { Lock, PowerOff } from 'lucide-react';
import { type FormEvent } from 'react';
import { Link } from 'wouter';
import { api, useQuery } from '../../api/client';
import { useCompanyProfile } from '../../api/company';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/person';
import { homeTiles } from '../../app/registry';
import type { ModuleName } from '../../app/webModule';
import { FormProblem } from '../../ui/FormProblem';
import { PageHeader } from '../../ui/Page';
import { FailureScreen } from '../../ui/Screens';
import { can } from './permissions';
import './settings.css';

/** What people call a module: its home tile's title. */
export const moduleTitle = (module: ModuleName): string => homeTiles.get(module)?.title ?? module;

/** Asking the company's admins for a module: why, sent once; an open request says so instead. */
export function RequestAccess({ module }: { module: ModuleName }) {
  const mine = useQuery('/api/me/access-requests');
  const { run, busy: sending, problem } = useMutation({ failure: 'problem', fieldNames: { reason: 'Why' } });
  const latest = mine.data?.data.find((entry) => entry.module === module);
  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    const result = await run(() => api.POST('/api/access-requests', { body: { module, authority: 'view', reason } }));
    if (!result.ok) return;
    await mine.mutate();
  }
  if (latest?.status === 'pending') {
    return (
      <div className="card access-request" role="status">
        <h2>Access requested</h2>
        <p>
          You asked on {new Date(latest.createdAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}. Your company’s admins have been told and will approve or decline it here.
        </p>
      </div>
    );
  }
  return (
    <form className="card access-request" onSubmit={(event) => void send(event)} aria-labelledby="request-access-heading">
      <h2 id="request-access-heading">Request access</h2>
      {latest?.status === 'declined' && (
        <p role="status">
          Your last request was declined{latest.decidedBy ? ` by ${latest.decidedBy.firstName} ${latest.decidedBy.lastName}` : ''}
          {latest.note ? `: “${latest.note}”` : '.'} You can ask again.
        </p>
      )}
      <label>
        Why do you need {moduleTitle(module)}?
        <textarea name="reason" required maxLength={1000} rows={3} />
      </label>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <button type="submit" className="primary" disabled={sending}>
        Request access
      </button>
    </form>
  );
}

/**
 * A module the person cannot open, said as it is, at the module's own address: switched off for the
 * company (and, to an admin, how to get it), or not in the person's roles (with a request for access).
 */
export function ModuleAccessScreen({ module }: { module: ModuleName }) {
  const person = usePerson().data?.data;
  const company = useCompanyProfile(Boolean(person?.companyId && !person.isCandidate)).profile;
  const state = person?.modules.find((entry) => entry.module === module);
  const title = moduleTitle(module);
  const companyName = company?.name ?? 'your company';
  if (!person) return null;
  if (!state?.available) {
    const admin = can(person, 'companySettings', 'edit') || can(person, 'roles', 'edit');
    return (
      <>
        <PageHeader title={`${title} is not switched on for ${companyName}`} icon={PowerOff} />
        <div className="card module-off">
          {person.isInternalAdmin && !person.viewAs ? (
            <>
              <p>Switch it on for {companyName} with its release flag in the internal tools.</p>
              <Link href="/internal" className="button primary">
                Open the internal tools
              </Link>
            </>
          ) : admin ? (
            <p>
              Paybench switches modules on for each company. To get {title}, ask your Paybench contact (Paybench support) to switch it on for {companyName}; once it is on,
              everyone whose role includes it can open it here.
            </p>
          ) : (
            <p>Your company admin can ask Paybench to switch it on. Once it is on, they can give you access.</p>
          )}
          <Link href="/home" className="button">
            Back to home
          </Link>
        </div>
      </>
    );
  }
  return (
    <>
      <PageHeader title={`Your role does not include ${title}`} description={`${title} is switched on for ${companyName}, but none of your roles gives access to it.`} icon={Lock} />
      {person.viewAs ? (
        <p className="muted">Access cannot be requested while viewing as someone else.</p>
      ) : person.isCandidate ? (
        <p className="muted">As a candidate you see your offer only; company roles are for the people of {companyName}.</p>
      ) : (
        <RequestAccess module={module} />
      )}
    </>
  );
}

/** /benchmarking-no-access for a signed-in person: market data as it stands for them, with a way to ask. */
export function MarketDataNoAccess() {
  const person = usePerson().data?.data;
  const company = useCompanyProfile(Boolean(person?.companyId && !person.isCandidate)).profile;
  const state = person?.modules.find((entry) => entry.module === 'benchmarking');
  const home = (
    <Link href="/home" className="button">
      Back to home
    </Link>
  );
  if (!person) return <FailureScreen title="Permission denied" description="You do not have access to this content. Please contact your company admin for support." actions={home} />;
  if (state?.authorized) {
    return (
      <FailureScreen
        title="You have access to market data"
        description="Your roles include market data."
        actions={
          <Link href="/benchmarkingsurvey/data-explorer" className="button primary">
            Open the data explorer
          </Link>
        }
      />
    );
  }
  if (!state?.available) {
    return <FailureScreen title={`Market data is not switched on for ${company?.name ?? 'your company'}`} description="Your company admin can ask Paybench support to switch it on." actions={home} />;
  }
  return (
    <FailureScreen
      title="Your role does not include market data"
      description="Benchmarking against the market needs the Market data permission. Ask your company’s admins for it."
      actions={
        <>
          {!person.viewAs && <RequestAccess module="benchmarking" />}
          {home}
        </>
      }
    />
  );
}
