import { Globe } from 'lucide-react';
import { type FormEvent } from 'react';
import type { components } from '../../../../../openapi.d.ts';
import { api, useQuery } from '../../../api/client';
import { useMutation } from '../../../api/queries';
import { FormProblem } from '../../../ui/FormProblem';
import { Section } from '../../../ui/Page';
import { Empty, Loaded } from '../../../ui/States';
import { useToasts } from '../../../ui/Toasts';

type Domain = components['schemas']['CompanyDomain'];

const STATUS: Record<Domain['status'], { label: string; badge: string }> = {
  pending: { label: 'Pending proof', badge: 'badge warning' },
  proven: { label: 'Proven', badge: 'badge success' },
  disputed: { label: 'Disputed', badge: 'badge danger' },
  revoked: { label: 'Revoked', badge: 'badge' },
};

const PROOF: Record<NonNullable<Domain['proof']>, string> = {
  dns: 'by its DNS TXT record',
  admin_email: 'by a verified admin with an address at it',
  email_link: 'by a link sent to an address at it',
  internal: 'by Paybench support',
  seeded: 'by the demo set-up',
};

/** "Send a link": the admin types who at the domain should get it; opening it there proves the domain. */
function ProofLinkForm({ domain }: { domain: Domain }) {
  const { add } = useToasts();
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  async function sendLink(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const localPart = String(new FormData(form).get('localPart') ?? '').trim();
    const result = await run(() => api.POST('/api/company/domains/{companyDomainId}/proof-link', { params: { path: { companyDomainId: domain.id } }, body: { localPart } }));
    if (!result.ok) return;
    form.reset();
    add('success', `We sent a link to ${result.data.data.sentTo}. Opening it there proves ${domain.domain} (it works once, for 24 hours).`);
  }
  const id = `proof-link-${domain.id}`;
  return (
    <form className="sso-proof-link" onSubmit={(event) => void sendLink(event)} aria-label={`Prove ${domain.domain} by a link`}>
      <label htmlFor={id}>Or send a link to an address at {domain.domain}</label>
      <div className="sso-address">
        <input id={id} name="localPart" required maxLength={64} placeholder="it" autoComplete="off" autoCapitalize="none" spellCheck={false} />
        <span aria-hidden="true">@{domain.domain}</span>
      </div>
      <FormProblem message={problem?.message ?? null} />
      <div className="sso-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Sending…' : 'Send link'}
        </button>
      </div>
    </form>
  );
}

function DomainRow({ domain, editable, onChanged }: { domain: Domain; editable: boolean; onChanged: () => Promise<unknown> }) {
  const { add } = useToasts();
  const { run, busy } = useMutation();
  async function check() {
    const result = await run(() => api.POST('/api/company/domains/{companyDomainId}/check', { params: { path: { companyDomainId: domain.id } } }));
    if (!result.ok) return;
    await onChanged();
    if (result.data.data.status === 'proven') add('success', `${domain.domain} is proven.`);
  }
  async function withdraw() {
    const result = await run(() => api.DELETE('/api/company/domains/{companyDomainId}', { params: { path: { companyDomainId: domain.id } } }));
    if (!result.ok) return;
    await onChanged();
    add('success', `${domain.domain} is no longer claimed.`);
  }
  const status = STATUS[domain.status];
  return (
    <li className="card sso-domain" aria-label={domain.domain}>
      <header>
        <h3>{domain.domain}</h3>
        <span className={status.badge} data-testid="domain-status">
          {status.label}
        </span>
      </header>
      {domain.status === 'proven' && domain.proof && <p className="muted">Proven {PROOF[domain.proof]}. People at this domain can be routed to your sign-in provider.</p>}
      {domain.status === 'disputed' && (
        <p role="note">Another company claims this domain or has people with addresses at it. It counts for nothing until Paybench support settles it: contact support.</p>
      )}
      {domain.txtRecord && domain.status !== 'disputed' && (
        <p>
          Add this TXT record at <code>{domain.txtRecord.host}</code> with your DNS provider, then check: <code className="sso-record">{domain.txtRecord.value}</code>. Until it is
          proven, the domain routes nobody.
        </p>
      )}
      {domain.lastCheck && domain.status !== 'proven' && (
        <p className="muted">
          Last check ({new Date(domain.lastCheck.at).toLocaleString()}): {domain.lastCheck.result}
        </p>
      )}
      {editable && domain.status === 'pending' && <ProofLinkForm domain={domain} />}
      {editable && (
        <div className="sso-actions">
          {domain.status !== 'proven' && (
            <button type="button" className="primary" disabled={busy} onClick={() => void check()}>
              {busy ? 'Checking…' : 'Check now'}
            </button>
          )}
          <button type="button" disabled={busy} onClick={() => void withdraw()}>
            Withdraw
          </button>
        </div>
      )}
    </li>
  );
}

/** The company's e-mail domains: each counts (sign-in routing, market participation) only once proven. */
export function DomainsSection({ editable }: { editable: boolean }) {
  const domains = useQuery('/api/company/domains');
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  async function claim(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const domain = String(new FormData(form).get('domain') ?? '').trim();
    const result = await run(() => api.POST('/api/company/domains', { body: { domain } }));
    if (!result.ok) return;
    form.reset();
    await domains.mutate();
  }
  return (
    <Section title="E-mail domains" id="sso-domains">
      <p className="muted">
        A domain routes people to your sign-in provider, and makes your company a verifiable market participant, only once you prove you control it: with a DNS TXT record,
        with a link sent to an address at it, or because a verified admin of your company has an address at it.
      </p>
      <Loaded data={domains.data?.data} error={domains.error} inline>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No domain claimed" icon={Globe} compact headingLevel={3}>
              {editable ? 'Claim your company’s domain below.' : 'Your company admin can claim one.'}
            </Empty>
          ) : (
            <ul className="sso-list sso-domains">
              {list.map((domain) => (
                <DomainRow key={domain.id} domain={domain} editable={editable} onChanged={() => domains.mutate()} />
              ))}
            </ul>
          )
        }
      </Loaded>
      {editable && (
        <form className="settings-form sso-form" onSubmit={(event) => void claim(event)} aria-label="Claim a domain">
          <label htmlFor="sso-claim-domain">Domain</label>
          <input id="sso-claim-domain" name="domain" required placeholder="example.com" maxLength={253} />
          <FormProblem message={problem?.message ?? null} />
          <div className="sso-actions">
            <button type="submit" disabled={busy}>
              Claim domain
            </button>
          </div>
        </form>
      )}
    </Section>
  );
}
