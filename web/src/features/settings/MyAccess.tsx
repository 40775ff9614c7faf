import { IdCard } from 'lucide-react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { DataTable } from '../../ui/DataTable';
import { PageHeader, Section } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { moduleTitle } from './ModuleAccess';
import { grantWords } from './words';
import './settings.css';

/**
 * /settings/access: what the signed-in person can use and do — the company accounts they can work
 * in, the modules open to them (and those the company has that their roles do not reach), and
 * every permission their roles grant, edit implying view, as the server resolves it on each call.
 */
export function MyAccessScreen() {
  const person = usePerson().data?.data;
  const accounts = useQuery('/api/me/accounts');
  const modules = useQuery('/api/me/modules');
  const permissions = useQuery('/api/me/permissions');
  const groups = useQuery('/api/permission-groups').data?.data;
  return (
    <>
      <PageHeader title="Your access" icon={IdCard} description="The company you work in, the parts of Paybench open to you, and what your roles let you see and change." />
      <Section title="Your company accounts" id="my-accounts">
        <Loaded data={accounts.data?.data} error={accounts.error} label="Loading your accounts" inline>
          {(list) =>
            list.length === 0 ? (
              <Empty title="No company yet" compact headingLevel={3}>
                You are not in a company yet. <Link href="/signup">Create your company</Link> or ask your company’s admin for an invitation.
              </Empty>
            ) : (
              <ul className="access-list" aria-label="Your company accounts">
                {list.map((account) => (
                  <li key={account.companyId} data-account={account.companyKey}>
                    <strong>{account.companyName}</strong> <span className="muted">({account.companyKey})</span> {account.companyId === person?.companyId && <Badge tone="success">Signed in</Badge>}{' '}
                    {account.isDemo && <Badge tone="info">Demo company</Badge>}
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </Section>
      <Section title="Modules" id="my-modules">
        <Loaded data={modules.data?.data} error={modules.error} label="Loading your modules" inline>
          {(list) => (
            <DataTable
              caption="Modules"
              captionHidden
              cardsOnPhone
              rows={list.filter((entry) => entry.available)}
              rowKey={(entry) => entry.module}
              columns={[
                { key: 'module', header: 'Module', rowHeader: true, cell: (entry) => moduleTitle(entry.module) },
                {
                  key: 'state',
                  header: 'For you',
                  label: 'For you',
                  cell: (entry) => (entry.authorized ? <Badge tone="success">Open to you</Badge> : <Badge tone="neutral">Your roles do not include it</Badge>),
                },
              ]}
            />
          )}
        </Loaded>
      </Section>
      <Section title="What your roles let you do" id="my-permissions">
        <p className="muted">
          From your roles: {person?.companyRolesV2.map((role) => role.name).join(', ') || 'none'}. Someone who can change roles grants more in <Link href="/settings/users">Users</Link>.
        </p>
        <Loaded data={permissions.data?.data} error={permissions.error} label="Loading your permissions" inline>
          {(map) => {
            const entries = Object.entries(map).filter(([, grants]) => grants.length > 0);
            return entries.length === 0 ? (
              <Empty title="No permissions" compact headingLevel={3}>
                Your roles grant nothing yet; your company’s admins can give you a role.
              </Empty>
            ) : (
              <ul className="access-list" aria-label="Your permissions">
                {entries.map(([name, grants]) => (
                  <li key={name} data-permission={name}>
                    {grantWords(groups, name, grants)}
                  </li>
                ))}
              </ul>
            );
          }}
        </Loaded>
      </Section>
    </>
  );
}
