import { Inbox, SearchX, UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { DataTable } from '../../ui/DataTable';
import { FormProblem } from '../../ui/FormProblem';
import { Sheet } from '../../ui/Modal';
import { PageHeader, Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { moduleTitle } from './ModuleAccess';
import { can } from './permissions';
import { authorityWords, grantWords, people, permissionName } from './words';
import './settings.css';

type User = components['schemas']['User'];
type Role = components['schemas']['Role'];
type AccessRequest = components['schemas']['AccessRequest'];
type PermissionGroup = components['schemas']['PermissionGroup'];

const fullName = (user: { firstName: string; lastName: string; email: string }) => `${user.firstName} ${user.lastName}`.trim() || user.email;

const INVITATION_WORDS: Record<components['schemas']['UserInvitation']['status'], string> = {
  none: 'Not invited yet',
  pending: 'Invitation sent',
  expired: 'Invitation expired',
  revoked: 'Invitation revoked',
  accepted: 'Signed up',
};

/** Who asks, in words: the admin weighs a candidate's request differently from a manager's. */
const REQUESTER_WORDS: Record<AccessRequest['requesterKind'], string> = {
  candidate: 'Candidate',
  manager: 'Manager',
  employee: 'Employee',
  user: 'User without an employee record',
};

/** What a request asks for, in words. */
export function askedWords(request: AccessRequest, groups: readonly PermissionGroup[] | undefined): string {
  if (request.module) return moduleTitle(request.module);
  return request.permissions.map((asked) => `${permissionName(groups, asked.name)} (${authorityWords(asked.authority)})`).join(', ');
}

/** Pending access requests, for those who can grant roles: approve with a role, or decline. */
function AccessRequests({ roles, onDecided }: { roles: readonly Role[]; onDecided: () => Promise<unknown> }) {
  const requests = useQuery('/api/access-requests', { params: { query: { status: 'pending' } } });
  const groups = useQuery('/api/permission-groups').data?.data;
  const { add } = useToasts();
  const [picked, setPicked] = useState<Record<string, string>>({});
  const pending = requests.data?.data ?? [];
  async function decide(request: AccessRequest, approve: boolean) {
    const roleId = picked[request.id] ?? request.proposedRole?.id;
    // Approving always names the role: the server grants nothing it was not told.
    if (approve && !roleId) return add('error', 'Choose the role to give first.');
    const { data, error } =
      approve && roleId
        ? await api.POST('/api/access-requests/{accessRequestId}/approve', { params: { path: { accessRequestId: request.id } }, body: { roleId } })
        : await api.POST('/api/access-requests/{accessRequestId}/decline', { params: { path: { accessRequestId: request.id } }, body: {} });
    if (error) return add('error', errorMessage(error));
    add('success', approve ? `${fullName(request.requester)} now has the ${data.data.grantedRole?.name ?? ''} role.` : `Declined ${fullName(request.requester)}’s request.`);
    await requests.mutate();
    await onDecided();
  }
  if (requests.error) return <p role="alert">{errorMessage(requests.error)}</p>;
  if (!requests.data || pending.length === 0) return null;
  return (
    <Section title={`Access requests (${pending.length})`} id="access-requests">
      <ul className="access-requests" aria-label="Access requests">
        {pending.map((request) => {
          const suggestion = request.proposedRole;
          const name = fullName(request.requester);
          const chosen = roles.find((role) => role.id === (picked[request.id] ?? suggestion?.id));
          const candidate = request.requesterKind === 'candidate';
          return (
            <li key={request.id} className="card">
              <p>
                <strong>{name}</strong> asks for <strong>{askedWords(request, groups)}</strong> · {new Date(request.createdAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}
              </p>
              <p>
                <Badge tone={candidate ? 'warning' : 'neutral'}>{REQUESTER_WORDS[request.requesterKind]}</Badge> <span className="muted">{request.requester.email}</span>
              </p>
              <p className="muted">“{request.reason}”</p>
              {candidate ? (
                <p>A candidate sees their offer only and can hold no company role: decline the request.</p>
              ) : (
                <>
                  <div className="inline-form">
                    <label>
                      Role to give {name}
                      <select aria-label={`Role to give ${name}`} value={chosen?.id ?? ''} onChange={(event) => setPicked({ ...picked, [request.id]: event.target.value })}>
                        <option value="">Choose a role</option>
                        {roles.map((role) => (
                          <option key={role.id} value={role.id}>
                            {role.name}
                            {role.id === suggestion?.id ? ' (covers the request)' : ''}
                          </option>
                        ))}
                      </select>
                    </label>
                  </div>
                  {chosen && <RoleGrants role={chosen} groups={groups} />}
                </>
              )}
              <div className="inline-form">
                {!candidate && (
                  <button type="button" className="primary" onClick={() => void decide(request, true)} disabled={!chosen}>
                    Approve {name}
                  </button>
                )}
                <button type="button" onClick={() => void decide(request, false)}>
                  Decline {name}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

/** Everything a role would grant, so the admin sees what approving gives beyond what was asked. */
function RoleGrants({ role, groups }: { role: Role; groups: readonly PermissionGroup[] | undefined }) {
  const entries = Object.entries(role.permissions).filter(([, grants]) => grants.length > 0);
  return (
    <details className="role-grants" open>
      <summary>
        {role.name} would grant {entries.length} {entries.length === 1 ? 'permission' : 'permissions'}
      </summary>
      <ul aria-label={`What ${role.name} grants`}>
        {entries.map(([permission, grants]) => (
          <li key={permission}>{grantWords(groups, permission, grants)}</li>
        ))}
      </ul>
    </details>
  );
}

/** Adding a person: their name, e-mail, roles (with `roles` edit) and whether to send them an invitation. */
function AddUser({ roles, mayNameRoles, onClose, onAdded }: { roles: readonly Role[]; mayNameRoles: boolean; onClose: () => void; onAdded: () => Promise<unknown> }) {
  const { add } = useToasts();
  const { run, busy, problem } = useMutation({ failure: 'problem', fieldNames: { email: 'E-mail', firstName: 'First name', lastName: 'Last name', roleKeys: 'Roles' } });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const roleKeys = form.getAll('roleKeys').map(String);
    const invite = form.get('invite') === 'on';
    const body = {
      email: String(form.get('email') ?? '').trim(),
      firstName: String(form.get('firstName') ?? '').trim(),
      lastName: String(form.get('lastName') ?? '').trim(),
      invite,
      isCandidate: false,
      ...(mayNameRoles && roleKeys.length ? { roleKeys } : {}),
    };
    const result = await run(() => api.POST('/api/users', { body }));
    if (!result.ok) return;
    const added = result.data.data;
    add('success', invite ? `Added ${fullName(added)}; an invitation is on its way to ${added.email}.` : `Added ${fullName(added)}.`);
    await onAdded();
    onClose();
  }
  return (
    <Sheet
      title="Add a person"
      onClose={onClose}
      footer={
        <button type="submit" form="add-user" className="primary" disabled={busy}>
          Add person
        </button>
      }
    >
      <form id="add-user" className="stack-form" onSubmit={(event) => void submit(event)}>
        <label>
          First name
          <input name="firstName" required maxLength={100} autoComplete="off" />
        </label>
        <label>
          Last name
          <input name="lastName" required maxLength={100} autoComplete="off" />
        </label>
        <label>
          E-mail
          <input name="email" type="email" required maxLength={320} autoComplete="off" />
        </label>
        {mayNameRoles ? (
          <fieldset>
            <legend>Roles</legend>
            {roles.map((role) => (
              <label key={role.id} className="checkbox">
                <input type="checkbox" name="roleKeys" value={role.key} defaultChecked={role.key === 'employee'} /> {role.name}
              </label>
            ))}
          </fieldset>
        ) : (
          <p className="muted">They get the Employee role. Choosing other roles needs the Roles permission (can see and change).</p>
        )}
        <label className="checkbox">
          <input type="checkbox" name="invite" defaultChecked /> Send an invitation
        </label>
        <p className="muted small-text">The invitation is a link to choose a password, valid for 7 days.</p>
        <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      </form>
    </Sheet>
  );
}

/** One person: their roles, their invitation, and removing them. */
function ManageUser({ user, roles, mayEditUsers, mayEditRoles, self, onClose, onChanged }: { user: User; roles: readonly Role[]; mayEditUsers: boolean; mayEditRoles: boolean; self: boolean; onClose: () => void; onChanged: () => Promise<unknown> }) {
  const { add } = useToasts();
  const invitation = useQuery('/api/users/{userId}/invitation', { params: { path: { userId: user.id } } });
  const [chosen, setChosen] = useState<Set<string>>(new Set(user.roles.map((role) => role.id)));
  // The sheet's buttons have no busy state of their own; a failure shows at the sheet's foot.
  const { run, problem } = useMutation({ failure: 'problem' });
  const [confirming, setConfirming] = useState(false);
  const name = fullName(user);
  const path = { params: { path: { userId: user.id } } };
  async function saveRoles() {
    const result = await run(() => api.PUT('/api/users/{userId}/roles', { ...path, body: { roleIds: [...chosen] } }));
    if (!result.ok) return;
    add('success', `Saved ${name}’s roles.`);
    await onChanged();
  }
  async function invitationAction(resend: boolean) {
    const result = await run(() => (resend ? api.POST('/api/users/{userId}/invitation', path) : api.DELETE('/api/users/{userId}/invitation', path)));
    if (!result.ok) return;
    add('success', resend ? `A new invitation is on its way to ${user.email}.` : `${name}’s invitation no longer works.`);
    await invitation.mutate();
  }
  async function remove() {
    const result = await run(() => api.DELETE('/api/users/{userId}', path));
    if (!result.ok) return;
    add('success', `Removed ${name}.`);
    await onChanged();
    onClose();
  }
  const state = invitation.data?.data;
  const removed = user.status === 'removed';
  return (
    <Sheet title={name} onClose={onClose}>
      <p className="muted">{user.email}</p>
      <section aria-labelledby="user-roles-heading">
        <h3 id="user-roles-heading">Roles</h3>
        {mayEditRoles && !removed ? (
          <fieldset>
            <legend className="visually-hidden">Roles of {name}</legend>
            {roles.map((role) => (
              <label key={role.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.has(role.id)}
                  onChange={(event) => {
                    const next = new Set(chosen);
                    if (event.target.checked) next.add(role.id);
                    else next.delete(role.id);
                    setChosen(next);
                  }}
                />{' '}
                {role.name}
              </label>
            ))}
            <button type="button" className="primary" onClick={() => void saveRoles()}>
              Save roles
            </button>
          </fieldset>
        ) : (
          <>
            <p>{user.roles.map((role) => role.name).join(', ') || 'No role'}</p>
            {!mayEditRoles && <p className="muted small-text">Changing roles needs the Roles permission (can see and change).</p>}
          </>
        )}
      </section>
      <section aria-labelledby="user-invitation-heading">
        <h3 id="user-invitation-heading">Invitation</h3>
        {invitation.error ? (
          <p role="alert">{errorMessage(invitation.error)}</p>
        ) : state ? (
          <>
            <p data-testid="invitation-state">
              {INVITATION_WORDS[state.status]}
              {state.status === 'pending' && state.expiresAt ? `, valid until ${new Date(state.expiresAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}` : ''}
            </p>
            {mayEditUsers && !removed && state.status !== 'accepted' && (
              <div className="inline-form">
                <button type="button" onClick={() => void invitationAction(true)}>
                  {state.status === 'none' ? 'Send an invitation' : 'Resend the invitation'}
                </button>
                {state.status === 'pending' && (
                  <button type="button" onClick={() => void invitationAction(false)}>
                    Revoke the invitation
                  </button>
                )}
              </div>
            )}
          </>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
      {mayEditUsers && !removed && !self && (
        <section aria-labelledby="user-remove-heading">
          <h3 id="user-remove-heading">Remove from the company</h3>
          <p className="muted small-text">They can no longer sign in; their tokens stop working at once.</p>
          {confirming ? (
            <div className="inline-form">
              <button type="button" className="danger" onClick={() => void remove()}>
                Yes, remove {name}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep them
              </button>
            </div>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Remove {name}
            </button>
          )}
        </section>
      )}
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
    </Sheet>
  );
}

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
  const [selected, setSelected] = useState<Set<string>>(new Set());
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
  const chosen = (list ?? []).filter((user) => selected.has(user.id));

  async function bulk(action: 'role' | 'remove') {
    const failures: string[] = [];
    for (const user of chosen) {
      const { error } =
        action === 'role'
          ? await api.PUT('/api/users/{userId}/roles', { params: { path: { userId: user.id } }, body: { roleIds: [bulkRole] } })
          : await api.DELETE('/api/users/{userId}', { params: { path: { userId: user.id } } });
      if (error) failures.push(`${fullName(user)}: ${errorMessage(error)}`);
    }
    const done = chosen.length - failures.length;
    if (done) add('success', action === 'role' ? `Set the role of ${people(done)}.` : `Removed ${people(done)}.`);
    for (const failure of failures) add('error', failure);
    setSelected(new Set());
    setConfirmBulkRemove(false);
    await refresh();
  }

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
      {selectable && chosen.length > 0 && (
        <div className="bulk-bar" role="region" aria-label="Selected users">
          <span>{people(chosen.length)} selected</span>
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
              <button type="button" disabled={!bulkRole} onClick={() => void bulk('role')}>
                Set role
              </button>
            </>
          )}
          {mayEditUsers &&
            (confirmBulkRemove ? (
              <>
                <button type="button" className="danger" onClick={() => void bulk('remove')}>
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
      )}
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
        <DataTable
          rows={list}
          rowKey={(user) => user.id}
          label="Users"
          cardsOnPhone
          rowAttributes={(user) => ({ 'data-user': user.email })}
          columns={[
            ...(selectable
              ? [
                  {
                    key: 'select',
                    header: <span className="visually-hidden">Select</span>,
                    cell: (user: User) => (
                      <input
                        type="checkbox"
                        aria-label={`Select ${fullName(user)}`}
                        checked={selected.has(user.id)}
                        onChange={(event) => {
                          const next = new Set(selected);
                          if (event.target.checked) next.add(user.id);
                          else next.delete(user.id);
                          setSelected(next);
                        }}
                      />
                    ),
                  },
                ]
              : []),
            {
              key: 'name',
              header: 'Name',
              rowHeader: true,
              cell: (user: User) => (
                <button type="button" className="link-button" onClick={() => setOpen(user)}>
                  {fullName(user)}
                </button>
              ),
            },
            { key: 'email', header: 'E-mail', cell: (user: User) => user.email },
            { key: 'roles', header: 'Roles', cell: (user: User) => user.roles.map((entry) => entry.name).join(', ') || 'No role' },
            {
              key: 'lastLogin',
              header: 'Last sign-in',
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
