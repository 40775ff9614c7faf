import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { components } from '../../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../../api/client';
import { invalidate, useVersionedSave, useMutation } from '../../../api/queries';
import { usePerson } from '../../../app/Guard';
import { ConfirmDelete } from '../../../ui/ConfirmDelete';
import { FormProblem } from '../../../ui/FormProblem';
import { PageHeader, Section } from '../../../ui/Page';
import { Empty, Loaded } from '../../../ui/States';
import { useToasts } from '../../../ui/Toasts';
import { can } from '../permissions';
import { DomainsSection } from './Domains';
import '../settings.css';
import './sso.css';

type Connection = components['schemas']['SsoConnection'];
type Problem = { message: string; fields: string[] };

const formatDateTime = (value: string): string => new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "bigco.com, @BigCo.de\nbigco.io" → each domain once, as typed (the server lower-cases them). */
const splitDomains = (text: string): string[] => [...new Set(text.split(/[\s,;]+/).map((entry) => entry.trim()).filter(Boolean))];

function problemOf(error: unknown): Problem {
  const fields = (error as { errors?: { message: string }[] } | undefined)?.errors?.map((entry) => entry.message) ?? [];
  const message = errorMessage(error);
  return { message, fields: fields.filter((field) => field !== message) };
}

interface FormValues {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  domains: string[];
}

/** The provider's form: adding one (the secret is required) or changing one (an empty secret keeps the stored one). */
function ProviderForm({ connection, callbackUrl, busy, problem, onSubmit, onCancel }: {
  connection?: Connection;
  callbackUrl: string;
  busy: boolean;
  problem: Problem | null;
  onSubmit: (values: FormValues) => void;
  onCancel?: () => void;
}) {
  const prefix = connection ? `sso-${connection.id}` : 'sso-new';
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onSubmit({
      issuerUrl: String(form.get('issuerUrl') ?? '').trim(),
      clientId: String(form.get('clientId') ?? '').trim(),
      clientSecret: String(form.get('clientSecret') ?? ''),
      domains: splitDomains(String(form.get('domains') ?? '')),
    });
  }
  return (
    <form className="settings-form sso-form" onSubmit={submit} aria-label={connection ? `Change ${connection.issuerUrl}` : 'Add a sign-in provider'}>
      <p className="muted">
        Register Paybench as a web application at your provider with the redirect URI <code>{callbackUrl}</code>, the scopes{' '}
        <code>openid email profile</code>, and the authorization code flow.
      </p>
      <label htmlFor={`${prefix}-issuer`}>Issuer URL</label>
      <input id={`${prefix}-issuer`} name="issuerUrl" type="url" required maxLength={2000} placeholder="https://login.example.com" defaultValue={connection?.issuerUrl} />
      <label htmlFor={`${prefix}-client`}>Client ID</label>
      <input id={`${prefix}-client`} name="clientId" required maxLength={500} autoComplete="off" defaultValue={connection?.clientId} />
      <label htmlFor={`${prefix}-secret`}>Client secret</label>
      {connection && <p className="muted" id={`${prefix}-secret-hint`}>Leave empty to keep the stored secret.</p>}
      <input
        id={`${prefix}-secret`}
        name="clientSecret"
        type="password"
        required={!connection}
        maxLength={2000}
        autoComplete="new-password"
        aria-describedby={connection ? `${prefix}-secret-hint` : undefined}
      />
      <label htmlFor={`${prefix}-domains`}>E-mail domains</label>
      <p className="muted" id={`${prefix}-domains-hint`}>
        The domains your company owns, separated by commas. People with an address at one of them sign in at this provider.
      </p>
      <input id={`${prefix}-domains`} name="domains" required aria-describedby={`${prefix}-domains-hint`} placeholder="example.com" defaultValue={connection?.domains.join(', ')} />
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <div className="sso-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking the provider…' : connection ? 'Save changes' : 'Add provider'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function ConnectionCard({ connection, editable, onChanged }: { connection: Connection; editable: boolean; onChanged: () => Promise<unknown> }) {
  const { add } = useToasts();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const { save, busy } = useVersionedSave((ifMatch: string, body: components['schemas']['SsoConnectionPatch']) =>
    api.PATCH('/api/company/sso-connections/{ssoConnectionId}', { params: { path: { ssoConnectionId: connection.id }, header: { 'If-Match': ifMatch } }, body }),
  );

  async function change(body: components['schemas']['SsoConnectionPatch'], done: string) {
    const result = await save(connection.version, body);
    if (!result.ok) {
      setProblem({ message: result.message, fields: [] });
      return;
    }
    setProblem(null);
    setEditing(false);
    await onChanged();
    add('success', done);
  }

  return (
    <article className="card sso-connection" aria-label={connection.issuerUrl}>
      <header>
        <h3>{connection.issuerUrl}</h3>
        <span className={connection.enabled ? 'badge success' : 'badge'}>{connection.enabled ? 'On' : 'Off'}</span>
      </header>
      <dl className="sso-facts">
        <dt>Domains</dt>
        <dd>{connection.domains.join(', ')}</dd>
        <dt>Client ID</dt>
        <dd>
          <code>{connection.clientId}</code>
        </dd>
        <dt>Client secret</dt>
        <dd>{connection.clientSecretSet ? 'Stored (never shown)' : 'Not stored'}</dd>
        <dt>Redirect URI</dt>
        <dd>
          <code>{connection.callbackUrl}</code>
        </dd>
        <dt>Provider last checked</dt>
        <dd>{formatDateTime(connection.verifiedAt)}</dd>
      </dl>
      {editing ? (
        <ProviderForm
          connection={connection}
          callbackUrl={connection.callbackUrl}
          busy={busy}
          problem={problem}
          onCancel={() => {
            setEditing(false);
            setProblem(null);
          }}
          onSubmit={(values) => {
            const body: components['schemas']['SsoConnectionPatch'] = { issuerUrl: values.issuerUrl, clientId: values.clientId, domains: values.domains };
            if (values.clientSecret) body.clientSecret = values.clientSecret;
            void change(body, 'Sign-in provider saved.');
          }}
        />
      ) : (
        editable && (
          <div className="sso-actions">
            <button type="button" onClick={() => setEditing(true)}>
              Change
            </button>
            <button type="button" disabled={busy} onClick={() => void change({ enabled: !connection.enabled }, connection.enabled ? 'Single sign-on switched off.' : 'Single sign-on switched on.')}>
              {connection.enabled ? 'Switch off' : 'Switch on'}
            </button>
            <button type="button" onClick={() => setConfirming(true)}>
              Remove
            </button>
          </div>
        )
      )}
      {!editing && problem && <FormProblem message={problem.message} />}
      {confirming && (
        <ConfirmDelete
          title={`Remove the sign-in provider ${connection.issuerUrl}?`}
          confirmLabel="Remove provider"
          onClose={() => setConfirming(false)}
          call={() => api.DELETE('/api/company/sso-connections/{ssoConnectionId}', { params: { path: { ssoConnectionId: connection.id } } })}
          onDeleted={async () => {
            setConfirming(false);
            await onChanged();
            add('success', `${connection.domains.join(', ')} sign in with a password again.`);
          }}
        >
          <p>{connection.domains.join(', ')} will sign in with a password again.</p>
        </ConfirmDelete>
      )}
    </article>
  );
}

/** /settings/sso: the company's own OpenID providers and the e-mail domains routed to them. */
export function SsoSettingsScreen() {
  const person = usePerson().data?.data;
  const connections = useQuery('/api/company/sso-connections');
  const { add } = useToasts();
  const { run, busy, problem } = useMutation({ failure: 'problem', describe: problemOf });
  const [formKey, setFormKey] = useState(0);
  const editable = can(person, 'companySettings', 'edit') && !person?.viewAs;
  const callbackUrl = `${window.location.origin}/auth/sso/callback`;

  async function create(values: FormValues) {
    const result = await run(() => api.POST('/api/company/sso-connections', { body: { ...values, enabled: true } }));
    if (!result.ok) return;
    const { data } = result;
    setFormKey((key) => key + 1);
    await Promise.all([connections.mutate(), invalidate('/api/company/domains')]);
    add('success', `Saved. People at ${data.data.domains.join(', ')} sign in at their company's provider once each domain is proven (below).`);
  }

  return (
    <>
      <PageHeader
        title="Enterprise sign-in (SSO)"
        icon={KeyRound}
        description="Send people with your company's e-mail addresses to your own OpenID provider to sign in. Only domains you have proven are routed. Their Paybench account is made on their first sign-in, as an employee of your company; everyone else keeps signing in with a password."
      />
      <DomainsSection editable={editable} />
      <Section title="Sign-in providers" id="sso-providers">
        <Loaded data={connections.data?.data} error={connections.error} inline>
          {(list) =>
            list.length === 0 ? (
              <Empty title="No provider yet" icon={KeyRound} compact headingLevel={3}>
                {editable ? 'Add your provider below; its domains are routed to it once proven.' : 'Your company admin can add one.'}
              </Empty>
            ) : (
              <div className="sso-list">
                {list.map((connection) => (
                  <ConnectionCard key={`${connection.id}-${connection.version}`} connection={connection} editable={editable} onChanged={() => connections.mutate()} />
                ))}
              </div>
            )
          }
        </Loaded>
      </Section>
      {editable && (
        <Section title="Add a provider" id="sso-add">
          <div className="card">
            <ProviderForm key={formKey} callbackUrl={callbackUrl} busy={busy} problem={problem} onSubmit={(values) => void create(values)} />
          </div>
        </Section>
      )}
    </>
  );
}
