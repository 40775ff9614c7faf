import { useState } from 'react';
import { useQuery } from '../../api/client';
import { FullSizeSpinner } from '../../ui/Spinner';

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
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Roles</th>
                <th scope="col">Last sign-in</th>
              </tr>
            </thead>
            <tbody>
              {data?.data.map((user) => (
                <tr key={user.id}>
                  <td>
                    {user.firstName} {user.lastName}
                  </td>
                  <td>{user.email}</td>
                  <td>{user.roles.map((role) => role.name).join(', ')}</td>
                  <td>{user.lastLoginAt ? new Date(user.lastLoginAt).toLocaleDateString() : 'Never'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
