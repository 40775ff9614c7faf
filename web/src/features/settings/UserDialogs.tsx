import { type FormEvent, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';
import { Sheet } from '../../ui/Modal';
import { useToasts } from '../../ui/Toasts';
import { type User, type Role, fullName, INVITATION_WORDS } from './usersModel';

// Adding a person, and managing one: roles, manager, invitation and removal.

/** Adding a person: their name, e-mail, roles (with `roles` edit) and whether to send them an invitation. */
export function AddUser({ roles, mayNameRoles, onClose, onAdded }: { roles: readonly Role[]; mayNameRoles: boolean; onClose: () => void; onAdded: () => Promise<unknown> }) {
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
export function ManageUser({ user, roles, mayEditUsers, mayEditRoles, self, onClose, onChanged }: { user: User; roles: readonly Role[]; mayEditUsers: boolean; mayEditRoles: boolean; self: boolean; onClose: () => void; onChanged: () => Promise<unknown> }) {
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
