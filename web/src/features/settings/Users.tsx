import { Inbox, SearchX, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { DataGrid } from '../../ui/DataGrid';
import { PageHeader } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { can } from './permissions';
import { people } from './words';
import './settings.css';
import { type User, fullName } from './usersModel';
import { AccessRequests } from './AccessRequests';
import { AddUser, ManageUser } from './UserDialogs';

/** /settings/users: everyone in the company with their roles; admins add, change, invite and remove people, one or several at once. */
export function UsersScreen() {
  const person = usePerson().data?.data;
  const mayEditUsers = can(person, 'users', 'edit') && !person?.viewAs;
  const mayEditRoles = can(person, 'roles', 'edit') && !person?.viewAs;
  const mayViewRoles = can(person, 'roles', 'view');
  const { add } = useToasts();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [status, setStatus] = useState<'active' | 'removed'>('active');
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<User | null>(null);
  const [bulkRole, setBulkRole] = useState('');
  const [confirmBulkRemove, setConfirmBulkRemove] = useState(false);
  const users = useQuery('/api/users', { params: { query: { status, ...(search ? { search } : {}), ...(role ? { role } : {}), limit: 200 } } });
  const filters = useQuery('/api/users/filter-values');
  const rolesQuery = useQuery('/api/roles', mayViewRoles ? {} : null);
  const roles = rolesQuery.data?.data ?? [];
  const list = users.data?.data;
  const refresh = () => Promise.all([users.mutate(), filters.mutate(), rolesQuery.mutate()]);
  const selectable = (mayEditUsers || mayEditRoles) && status === 'active';

  async function bulk(action: 'role' | 'remove' | 'invite' | 'revoke', chosen: readonly User[], clear: () => void) {
    const failures: string[] = [];
    // Revoking: a person whose invitation was already used, revoked or expired is left out, not a failure.
    let without = 0;
    for (const user of chosen) {
      const path = { params: { path: { userId: user.id } } };
      const { error } =
        action === 'role'
          ? await api.PUT('/api/users/{userId}/roles', { ...path, body: { roleIds: [bulkRole] } })
          : action === 'invite'
            ? await api.POST('/api/users/{userId}/invitation', path)
            : action === 'revoke'
              ? await api.DELETE('/api/users/{userId}/invitation', path)
              : await api.DELETE('/api/users/{userId}', path);
      if (action === 'revoke' && (error as { code?: unknown } | undefined)?.code === 'no_open_invitation') without += 1;
      else if (error) failures.push(`${fullName(user)}: ${errorMessage(error)}`);
    }
    const done = chosen.length - failures.length - without;
    const words = { role: `Set the role of ${people(done)}.`, invite: `Sent a new invitation to ${people(done)}.`, revoke: `Revoked the invitation of ${people(done)}.`, remove: `Removed ${people(done)}.` };
    if (done) add('success', words[action]);
    if (without) add('info', `${people(without)} had no open invitation to revoke.`);
    for (const failure of failures) add('error', failure);
    clear();
    setConfirmBulkRemove(false);
    await refresh();
  }

  /** What can be done with the selected people: a role for all, a new invitation or its revocation for those who never signed in, removal. */
  const bulkBar = (chosen: User[], clear: () => void) => {
    const neverSignedIn = chosen.filter((user) => !user.lastLoginAt);
    return (
      <div className="bulk-bar" role="region" aria-label="Selected users">
        {mayEditRoles && (
          <>
            <label>
              Role for the selected
              <select aria-label="Role for the selected" value={bulkRole} onChange={(event) => setBulkRole(event.target.value)}>
                <option value="">Choose a role</option>
                {roles.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.name}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" disabled={!bulkRole} onClick={() => void bulk('role', chosen, clear)}>
              Set role
            </button>
          </>
        )}
        {mayEditUsers && neverSignedIn.length > 0 && (
          <button type="button" onClick={() => void bulk('invite', neverSignedIn, clear)}>
            Resend invitation to {people(neverSignedIn.length)}
          </button>
        )}
        {mayEditUsers && neverSignedIn.length > 0 && (
          <button type="button" onClick={() => void bulk('revoke', neverSignedIn, clear)}>
            Revoke invitation of {people(neverSignedIn.length)}
          </button>
        )}
        {mayEditUsers &&
          (confirmBulkRemove ? (
            <>
              <button type="button" className="danger" onClick={() => void bulk('remove', chosen, clear)}>
                Yes, remove {people(chosen.length)}
              </button>
              <button type="button" onClick={() => setConfirmBulkRemove(false)}>
                Keep them
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirmBulkRemove(true)} disabled={chosen.some((user) => user.id === person?.id)}>
              Remove the selected
            </button>
          ))}
      </div>
    );
  };

  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone in your company who uses Paybench, and their roles."
        actions={
          mayEditUsers && (
            <button type="button" className="primary" onClick={() => setAdding(true)}>
              <UserPlus size={16} aria-hidden="true" /> Add a person
            </button>
          )
        }
      />
      {mayEditRoles && rolesQuery.data && <AccessRequests roles={roles} onDecided={refresh} />}
      <div className="user-filters" role="search" aria-label="Find users">
        <label className="search">
          Search by name or e-mail
          <input type="search" aria-label="Search by name or e-mail" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <label>
          Role
          <select aria-label="Role" value={role} onChange={(event) => setRole(event.target.value)}>
            <option value="">Every role</option>
            {filters.data?.data.roles.map((entry) => (
              <option key={entry.key} value={entry.key}>
                {entry.name} ({entry.count})
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select aria-label="Status" value={status} onChange={(event) => setStatus(event.target.value === 'removed' ? 'removed' : 'active')}>
            {filters.data?.data.statuses.map((entry) => (
              <option key={entry.status} value={entry.status}>
                {entry.status === 'active' ? 'Active' : 'Removed'} ({entry.count})
              </option>
            )) ?? (
              <>
                <option value="active">Active</option>
                <option value="removed">Removed</option>
              </>
            )}
          </select>
        </label>
      </div>
      {users.error ? (
        <p role="alert">{errorMessage(users.error)}</p>
      ) : !list ? (
        <SkeletonTable rows={5} columns={4} label="Loading users" />
      ) : list.length === 0 ? (
        <Empty
          title="No one matches"
          icon={search || role ? SearchX : Inbox}
          action={
            <button
              type="button"
              onClick={() => {
                setSearch('');
                setRole('');
                setStatus('active');
              }}
            >
              Clear the filters
            </button>
          }
        >
          Try another name, e-mail address, role or status.
        </Empty>
      ) : (
        <DataGrid
          id="users"
          rows={list}
          rowKey={(user) => user.id}
          rowName={fullName}
          label="Users"
          rowAttributes={(user) => ({ 'data-user': user.email })}
          bulkActions={selectable ? bulkBar : undefined}
          columns={[
            {
              key: 'name',
              header: 'Name',
              rowHeader: true,
              size: 220,
              value: fullName,
              title: fullName,
              cell: (user: User) => (
                <button type="button" className="link-button" onClick={() => setOpen(user)}>
                  {fullName(user)}
                </button>
              ),
            },
            { key: 'email', header: 'E-mail', size: 260, value: (user: User) => user.email, title: (user: User) => user.email, cell: (user: User) => user.email },
            {
              key: 'roles',
              header: 'Roles',
              size: 240,
              value: (user: User) => user.roles.map((entry) => entry.name).join(', '),
              title: (user: User) => user.roles.map((entry) => entry.name).join(', ') || undefined,
              cell: (user: User) => user.roles.map((entry) => entry.name).join(', ') || 'No role',
            },
            {
              key: 'lastLogin',
              header: 'Last sign-in',
              size: 160,
              value: (user: User) => user.lastLoginAt ?? '',
              cell: (user: User) => (user.lastLoginAt ? new Date(user.lastLoginAt).toLocaleDateString('en-US', { dateStyle: 'medium' }) : <Badge tone="neutral">Never signed in</Badge>),
            },
          ]}
        />
      )}
      {adding && <AddUser roles={roles} mayNameRoles={mayEditRoles} onClose={() => setAdding(false)} onAdded={refresh} />}
      {open && (
        <ManageUser
          key={open.id}
          user={open}
          roles={roles}
          mayEditUsers={mayEditUsers}
          mayEditRoles={mayEditRoles}
          self={open.id === person?.id}
          onClose={() => setOpen(null)}
          onChanged={refresh}
        />
      )}
    </>
  );
}
