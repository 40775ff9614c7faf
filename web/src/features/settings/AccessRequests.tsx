import { useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Section } from '../../ui/Page';
import { useToasts } from '../../ui/Toasts';
import { moduleTitle } from './ModuleAccess';
import { authorityWords, grantWords, permissionName } from './words';
import { type Role, type AccessRequest, type PermissionGroup, fullName } from './usersModel';

// People asking for access: what they asked for, who they are, and the role that would give it.

/** Who asks, in words: the admin weighs a candidate's request differently from a manager's. */
export const REQUESTER_WORDS: Record<AccessRequest['requesterKind'], string> = {
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

/**
 * The role a request's choice starts at: the proposed one, unless that is the Admin role (when no
 * other grants what was asked). Giving everything, role administration included, is then a choice
 * the admin makes themselves, never the one a single click approves.
 */
export const preselected = (request: AccessRequest): string | undefined => (request.proposedRole?.key === 'admin' ? undefined : request.proposedRole?.id);

/** Pending access requests, for those who can grant roles: approve with a role, or decline. */
export function AccessRequests({ roles, onDecided }: { roles: readonly Role[]; onDecided: () => Promise<unknown> }) {
  const requests = useQuery('/api/access-requests', { params: { query: { status: 'pending' } } });
  const groups = useQuery('/api/permission-groups').data?.data;
  const { add } = useToasts();
  const [picked, setPicked] = useState<Record<string, string>>({});
  const pending = requests.data?.data ?? [];
  async function decide(request: AccessRequest, approve: boolean) {
    const roleId = picked[request.id] ?? preselected(request);
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
          const chosen = roles.find((role) => role.id === (picked[request.id] ?? preselected(request)));
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
                  {suggestion?.key === 'admin' && (
                    <p className="muted">Only the {suggestion.name} role grants this. It gives everything in Paybench, giving roles included: choose it only on purpose.</p>
                  )}
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
export function RoleGrants({ role, groups }: { role: Role; groups: readonly PermissionGroup[] | undefined }) {
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
