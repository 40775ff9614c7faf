import { SearchX, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { errorMessage, useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/Page';
import { SkeletonCards, SkeletonTable } from '../../ui/Skeleton';
import { Empty } from '../../ui/States';
import './settings.css';

export function UsersScreen() {
  const [search, setSearch] = useState('');
  const { data, error } = useQuery('/api/users', { params: { query: search ? { search } : {} } });
  const users = data?.data;
  return (
    <>
      <PageHeader title="Users" description="Everyone in your company who uses Paybench, and their roles." />
      <label className="search">
        Search by name or e-mail
        <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </label>
      {error ? (
        <p role="alert">{errorMessage(error)}</p>
      ) : !users ? (
        <SkeletonTable rows={5} columns={4} label="Loading users" />
      ) : users.length === 0 ? (
        <Empty
          title="No one matches"
          icon={SearchX}
          action={
            <button type="button" onClick={() => setSearch('')}>
              Clear the search
            </button>
          }
        >
          Try another name or e-mail address.
        </Empty>
      ) : (
        <DataTable
          rows={users}
          rowKey={(user) => user.id}
          label="Users"
          cardsOnPhone
          columns={[
            { key: 'name', header: 'Name', rowHeader: true, cell: (user) => `${user.firstName} ${user.lastName}` },
            { key: 'email', header: 'E-mail', cell: (user) => user.email },
            { key: 'roles', header: 'Roles', cell: (user) => user.roles.map((role) => role.name).join(', ') },
            { key: 'lastLogin', header: 'Last sign-in', cell: (user) => (user.lastLoginAt ? new Date(user.lastLoginAt).toLocaleDateString() : 'Never') },
          ]}
        />
      )}
    </>
  );
}

export function RolesScreen() {
  const { data, error } = useQuery('/api/roles');
  return (
    <>
      <PageHeader title="Roles" description="What each role may see and change." icon={ShieldCheck} />
      {error && <p role="alert">{errorMessage(error)}</p>}
      {!data && !error && <SkeletonCards count={4} label="Loading roles" />}
      {data && (
        <ul className="roles">
          {data?.data.map((role) => (
            <li key={role.id}>
              <h2>
                {role.name} <span className="count">{role.userCount} people</span>
              </h2>
              <p>{role.description}</p>
              <p className="grants">
                {Object.entries(role.permissions)
                  .map(([name, grants]) => `${name}: ${grants.map((g) => `${g.authority}${g.scope === 'all' ? '' : ` (${g.scope})`}`).join(', ')}`)
                  .join(' · ')}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
