import { ArrowLeftRight, Bell, Building2, Cable, Coins, DoorOpen, IdCard, KeyRound, type LucideIcon, Megaphone, Plug, Scale, ShieldCheck, UserCog, Workflow } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { api, errorMessage, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/Page';
import { Empty } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import './settings.css';

interface Section {
  href: string;
  title: string;
  description: string;
  icon: LucideIcon;
  /** The module whose gating applies; none = every member. */
  module?: string;
}

const SECTIONS: Section[] = [
  { href: '/settings/company-info', title: 'Company info', description: 'Currency, share price, valuation and strike price.', module: 'settings', icon: Building2 },
  { href: '/settings/comp-types', title: 'Compensation types', description: 'Which kinds of pay you use and what you call them.', module: 'settings', icon: Coins },
  { href: '/settings/exchange-rates', title: 'Exchange rates', description: 'Your own rates for currency pairs, used in place of the reference rates.', module: 'settings', icon: ArrowLeftRight },
  { href: '/settings/users', title: 'Users', description: 'Everyone in the company and their roles.', module: 'settings', icon: UserCog },
  { href: '/settings/guests', title: 'Guests', description: 'Candidates who sign in to read their offers.', module: 'settings', icon: DoorOpen },
  { href: '/settings/roles', title: 'Roles', description: 'What each role may see and change.', module: 'settings', icon: ShieldCheck },
  { href: '/settings/access', title: 'Your access', description: 'Your company account, the modules open to you and what your roles let you do.', icon: IdCard },
  { href: '/settings/notifications', title: 'Notifications', description: 'E-mail, in-app and chat notifications.', icon: Bell },
  { href: '/settings/integrations', title: 'Integrations', description: 'HR, payroll and cap-table systems.', module: 'integrations', icon: Plug },
  { href: '/settings/connections', title: 'Connections', description: 'The state of each connected system.', module: 'integrations', icon: Cable },
  { href: '/settings/workflows', title: 'Workflows', description: 'Who approves offers, band sets and merit-cycle worksheets.', module: 'settings', icon: Workflow },
  { href: '/settings/sso', title: 'Enterprise sign-in (SSO)', description: "Your company's own sign-in provider for its e-mail domains.", module: 'settings', icon: KeyRound },
  { href: '/settings/communicate', title: 'Communicate', description: 'What total-rewards statements show, and how.', module: 'totalRewards', icon: Megaphone },
  { href: '/pay-transparency#pay-transparency-criteria', title: 'Pay-setting criteria', description: 'How pay and its progression are set, as every answer to an employee’s pay-information request shows it.', module: 'payEquity', icon: Scale },
];

/** Personal API tokens, for scripts and the CLI: the secret is shown once, then only its prefix. */
function ApiTokens({ readOnly }: { readOnly: boolean }) {
  const tokens = useQuery('/api/me/api-tokens');
  const { add } = useToasts();
  const [secret, setSecret] = useState<string | null>(null);
  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const name = String(new FormData(formElement).get('name') ?? '').trim();
    const { data, error } = await api.POST('/api/me/api-tokens', { body: { name } });
    if (error) return add('error', errorMessage(error));
    setSecret(data.data.token);
    formElement.reset();
    await tokens.mutate();
  }
  async function revoke(tokenId: string) {
    const { error } = await api.DELETE('/api/me/api-tokens/{tokenId}', { params: { path: { tokenId } } });
    if (error) return add('error', errorMessage(error));
    await tokens.mutate();
  }
  const active = tokens.data?.data.filter((token) => !token.revokedAt) ?? [];
  return (
    <section className="card" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Personal API tokens</h2>
      <p className="muted">
        For scripts and the <code>paybench</code> command line. A token acts as you; it survives signing out of the browser.
      </p>
      {secret && (
        <div className="secret" role="status">
          <p>Copy this token now; it is not shown again.</p>
          <code data-testid="new-token">{secret}</code>
        </div>
      )}
      {!readOnly && (
        <form className="inline-form" onSubmit={(event) => void create(event)}>
          <label>
            Token name
            <input name="name" required maxLength={100} placeholder="e.g. payroll sync" />
          </label>
          <button type="submit" className="primary">
            Create token
          </button>
        </form>
      )}
      {tokens.data && active.length === 0 && (
        <Empty title="No tokens yet" icon={KeyRound} compact headingLevel={3}>
          {readOnly ? 'Tokens cannot be made while viewing as someone else.' : 'Name a token above and create it to use the paybench command line or a script as you.'}
        </Empty>
      )}
      {active.length > 0 && (
        <DataTable
          caption="Your tokens"
          captionHidden
          cardsOnPhone
          rows={active}
          rowKey={(token) => token.id}
          columns={[
            { key: 'name', header: 'Name', rowHeader: true, cell: (token) => token.name },
            { key: 'prefix', header: 'Starts with', cell: (token) => <code>{token.prefix}…</code> },
            { key: 'lastUsed', header: 'Last used', cell: (token) => (token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleDateString() : 'Never') },
            {
              key: 'actions',
              header: <span className="visually-hidden">Actions</span>,
              cell: (token) =>
                !readOnly && (
                  <button type="button" className="small" onClick={() => void revoke(token.id)}>
                    Revoke {token.name}
                  </button>
                ),
            },
          ]}
        />
      )}
    </section>
  );
}

/** /settings: the sections this person may open, and their own API tokens. */
export function SettingsHomeScreen() {
  const person = usePerson().data?.data;
  const authorized = new Set(person?.modules.filter((m) => m.authorized).map((m) => m.module));
  const sections = SECTIONS.filter((section) => !section.module || authorized.has(section.module as never));
  return (
    <>
      <PageHeader title="Settings" description="Your company, the people who use Paybench, and how it keeps you informed." />
      <ul className="settings-sections" aria-label="Settings sections">
        {sections.map((section) => (
          <li key={section.href} className="settings-section">
            <span className="settings-icon" aria-hidden="true">
              <section.icon size={20} />
            </span>
            <div>
              <h2>
                <Link href={section.href}>{section.title}</Link>
              </h2>
              <p>{section.description}</p>
            </div>
          </li>
        ))}
      </ul>
      <ApiTokens readOnly={Boolean(person?.viewAs)} />
    </>
  );
}
