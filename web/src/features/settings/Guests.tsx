import { DoorOpen } from 'lucide-react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { useQuery } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { DataGrid } from '../../ui/DataGrid';
import { formatDate } from '../../ui/format';
import { PageHeader } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import './settings.css';

type User = components['schemas']['User'];

const fullName = (user: User) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/**
 * /settings/guests: the company's guests — candidates who sign in only to read the offers sent to
 * them. They are not users of the company (no roles, not on the Users list) and a removed one
 * is no longer listed; this is where an admin sees who holds such a sign-in.
 */
export function GuestsScreen() {
  const guests = useQuery('/api/users/guests');
  return (
    <>
      <PageHeader
        title="Guests"
        icon={DoorOpen}
        description="Candidates who sign in to read the offers you sent them. They see their own offer and nothing else of your company."
        actions={<Link href="/offers">Offers</Link>}
      />
      <Loaded data={guests.data?.data} error={guests.error} retry={() => void guests.mutate()} label="Loading your guests" inline>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No guests" icon={DoorOpen} compact>
              A candidate becomes a guest when you send them an offer to read and accept in Paybench.
            </Empty>
          ) : (
            <DataGrid
              id="guests"
              label="Guests"
              rows={list}
              rowKey={(user) => user.id}
              rowName={fullName}
              rowAttributes={(user) => ({ 'data-guest': user.email })}
              columns={[
                { key: 'name', header: 'Name', rowHeader: true, size: 220, value: fullName, title: fullName, cell: fullName },
                { key: 'email', header: 'E-mail', size: 260, value: (user: User) => user.email, title: (user: User) => user.email, cell: (user: User) => user.email },
                {
                  key: 'status',
                  header: 'Sign-in',
                  size: 160,
                  value: (user: User) => (user.emailVerified ? 'Used' : 'Not yet used'),
                  cell: (user: User) => (user.emailVerified ? <Badge tone="success">Used</Badge> : <Badge tone="warning">Not yet used</Badge>),
                },
                {
                  key: 'lastLogin',
                  header: 'Last sign-in',
                  size: 160,
                  value: (user: User) => user.lastLoginAt ?? '',
                  cell: (user: User) => (user.lastLoginAt ? formatDate(user.lastLoginAt) : 'Never'),
                },
              ]}
            />
          )
        }
      </Loaded>
    </>
  );
}
