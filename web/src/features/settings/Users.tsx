import { useState } from 'react';
import { useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { FullSizeSpinner } from '../../ui/Spinner';
import './settings.css';

export function UsersScreen() {
  const [search, setSearch] = useState('');
  const { data, isLoading } = useQuery('/api/users', { params: { query: search ? { search } : {} } });
  return (
    <>
      <h1>Users</h1>
      <label className="search">
        Search by name or e-mail
        <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </label>
      <FullSizeSpinner loading={isLoading}>
        <DataTable
          rows={data?.data ?? []}
          rowKey={(user) => user.id}
          columns={[
            { key: 'name', header: 'Name', cell: (user) => `${user.firstName} ${user.lastName}` },
            { key: 'email', header: 'E-mail', cell: (user) => user.email },
            { key: 'roles', header: 'Roles', cell: (user) => user.roles.map((role) => role.name).join(', ') },
            { key: 'lastLogin', header: 'Last sign-in', cell: (user) => (user.lastLoginAt ? new Date(user.lastLoginAt).toLocaleDateString() : 'Never') },
          ]}
        />
      </FullSizeSpinner>
    </>
  );
}

export function RolesScreen() {
  const { data, isLoading } = useQuery('/api/roles');
  return (
    <>
      <h1>Roles</h1>
      <FullSizeSpinner loading={isLoading}>
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
      </FullSizeSpinner>
    </>
  );
}
