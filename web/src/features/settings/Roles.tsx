import { Copy, Pencil, Plus, ShieldCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { FormProblem } from '../../ui/FormProblem';
import { Sheet } from '../../ui/Modal';
import { PageHeader } from '../../ui/Page';
import { SkeletonCards } from '../../ui/Skeleton';
import { useToasts } from '../../ui/Toasts';
import { can } from './permissions';
import { grantWords, people } from './words';
import './settings.css';

type Role = components['schemas']['Role'];
type PermissionGroup = components['schemas']['PermissionGroup'];
type PermissionMap = components['schemas']['PermissionMap'];

/** What the editor holds per permission: nothing, see or see and change, and for whom. */
type Choice = { authority: 'none' | 'view' | 'edit'; scope: string };

/** The editor's starting point: a role to change, a role to copy, or a blank one. */
type Draft = { role?: Role; copyOf?: Role };

const SCOPE_NAMES: Record<string, string> = { all: 'The whole company', reports: 'Their reports', self: 'Themselves' };

/** A permission's description ("view: …; edit: …") as sentences about what each choice allows. */
function describe(description: string): string[] {
  const [view = '', edit] = description.replace(/^view:\s*/, '').split(/;\s*edit:\s*/);
  const sentence = (text: string) => `${text.replace(/\.$/, '')}.`;
  return [`“Can see” lets them ${sentence(view)}`, ...(edit ? [`“Can see and change” also lets them ${sentence(edit)}`] : [])];
}

function choicesOf(map: PermissionMap, groups: readonly PermissionGroup[]): Record<string, Choice> {
  const choices: Record<string, Choice> = {};
  for (const group of groups) {
    for (const permission of group.permissions) {
      const grant = (map[permission.name] ?? [])[0];
      choices[permission.name] = grant ? { authority: grant.authority, scope: grant.scope } : { authority: 'none', scope: permission.scopes[0] ?? 'all' };
    }
  }
  return choices;
}

function mapOf(choices: Record<string, Choice>): PermissionMap {
  return Object.fromEntries(Object.entries(choices).flatMap(([name, choice]) => (choice.authority === 'none' ? [] : [[name, [{ authority: choice.authority, scope: choice.scope }]]])));
}

/** Creating, copying or changing a role: its name, what it is for, and each permission in words. */
function RoleEditor({ draft, groups, onClose, onSaved }: { draft: Draft; groups: readonly PermissionGroup[]; onClose: () => void; onSaved: () => Promise<unknown> }) {
  const { add } = useToasts();
  const source = draft.role ?? draft.copyOf;
  const [choices, setChoices] = useState<Record<string, Choice>>(() => choicesOf(source?.permissions ?? {}, groups));
  const { run, busy, problem } = useMutation({ failure: 'problem', fieldNames: { name: 'Name', description: 'Description', permissions: 'Permissions' } });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const body = {
      ...(draft.role ? { id: draft.role.id, version: draft.role.version } : {}),
      name,
      description: String(form.get('description') ?? '').trim(),
      permissions: mapOf(choices),
    };
    const result = await run(() => api.POST('/api/roles', { body }));
    if (!result.ok) return;
    add('success', draft.role ? `Saved ${name}.` : `Created the role ${name}.`);
    await onSaved();
    onClose();
  }
  const title = draft.role ? `Change ${draft.role.name}` : draft.copyOf ? `Copy ${draft.copyOf.name}` : 'New role';
  return (
    <Sheet
      title={title}
      onClose={onClose}
      footer={
        <button type="submit" form="role-editor" className="primary" disabled={busy}>
          {draft.role ? 'Save role' : 'Create role'}
        </button>
      }
    >
      <form id="role-editor" className="stack-form" onSubmit={(event) => void submit(event)}>
        <label>
          Name
          <input name="name" required maxLength={100} defaultValue={draft.role?.name ?? (draft.copyOf ? `${draft.copyOf.name} (copy)` : '')} />
        </label>
        <label>
          Description
          <textarea name="description" maxLength={1000} rows={2} defaultValue={source?.description ?? ''} />
        </label>
        {groups.map((group) => (
          <fieldset key={group.id} className="permission-group">
            <legend>{group.name}</legend>
            {group.permissions.map((permission) => {
              const choice = choices[permission.name] ?? { authority: 'none', scope: permission.scopes[0] ?? 'all' };
              const set = (next: Partial<Choice>) => setChoices({ ...choices, [permission.name]: { ...choice, ...next } });
              return (
                <div key={permission.name} className="permission-row">
                  <div>
                    <strong>{permission.label}</strong>
                    {describe(permission.description).map((line) => (
                      <p key={line} className="muted small-text">
                        {line}
                      </p>
                    ))}
                  </div>
                  <label>
                    <span aria-hidden="true">Access</span>
                    <select aria-label={`${permission.label}: access`} value={choice.authority} onChange={(event) => set({ authority: event.target.value as Choice['authority'] })}>
                      <option value="none">No access</option>
                      <option value="view">Can see</option>
                      <option value="edit">Can see and change</option>
                    </select>
                  </label>
                  {permission.scopes.length > 1 && (
                    <label>
                      <span aria-hidden="true">For whom</span>
                      <select aria-label={`${permission.label}: for whom`} value={choice.scope} disabled={choice.authority === 'none'} onChange={(event) => set({ scope: event.target.value })}>
                        {permission.scopes.map((scope) => (
                          <option key={scope} value={scope}>
                            {SCOPE_NAMES[scope] ?? scope}
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                </div>
              );
            })}
          </fieldset>
        ))}
        <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      </form>
    </Sheet>
  );
}

/** Who holds a role, read when asked for. */
function Holders({ role }: { role: Role }) {
  const holders = useQuery('/api/roles/{roleId}/users', { params: { path: { roleId: role.id } } });
  if (holders.error) return <p role="alert">{errorMessage(holders.error)}</p>;
  if (!holders.data) return <p className="muted">Loading…</p>;
  if (holders.data.data.length === 0) return <p className="muted">No one holds this role yet.</p>;
  return (
    <ul className="holders" aria-label={`People with the ${role.name} role`}>
      {holders.data.data.map((user) => (
        <li key={user.id}>
          {`${user.firstName} ${user.lastName}`.trim() || user.email} <span className="muted">{user.email}</span>
        </li>
      ))}
    </ul>
  );
}

/** /settings/roles: what each role may see and change, in words, and who holds it; built-in roles are read-only and can be copied. */
export function RolesScreen() {
  const person = usePerson().data?.data;
  const mayEdit = can(person, 'roles', 'edit') && !person?.viewAs;
  const roles = useQuery('/api/roles');
  const groups = useQuery('/api/permission-groups').data?.data;
  const [draft, setDraft] = useState<Draft | null>(null);
  const [showing, setShowing] = useState<Set<string>>(new Set());
  return (
    <>
      <PageHeader
        title="Roles"
        description="What each role may see and change."
        icon={ShieldCheck}
        actions={
          mayEdit &&
          groups && (
            <button type="button" className="primary" onClick={() => setDraft({})}>
              <Plus size={16} aria-hidden="true" /> New role
            </button>
          )
        }
      />
      {roles.error && <p role="alert">{errorMessage(roles.error)}</p>}
      {!roles.data && !roles.error && <SkeletonCards count={4} label="Loading roles" />}
      {roles.data && (
        <ul className="roles" aria-label="Roles">
          {roles.data.data.map((role) => {
            const grants = Object.entries(role.permissions).filter(([, list]) => list.length > 0);
            const open = showing.has(role.id);
            return (
              <li key={role.id} data-role={role.key}>
                <div className="role-head">
                  <h2>
                    {role.name} <span className="count">{people(role.userCount)}</span>
                  </h2>
                  {role.isBuiltin && <Badge tone="neutral">Built-in, read-only</Badge>}
                </div>
                {role.description && <p>{role.description}</p>}
                {grants.length === 0 ? (
                  <p className="grants">No permissions.</p>
                ) : (
                  <ul className="grants" aria-label={`What the ${role.name} role allows`}>
                    {grants.map(([name, list]) => (
                      <li key={name}>{grantWords(groups, name, list)}</li>
                    ))}
                  </ul>
                )}
                <div className="inline-form">
                  <button
                    type="button"
                    className="small"
                    aria-expanded={open}
                    onClick={() => {
                      const next = new Set(showing);
                      if (open) next.delete(role.id);
                      else next.add(role.id);
                      setShowing(next);
                    }}
                  >
                    {open ? `Hide who has ${role.name}` : `Who has ${role.name}`}
                  </button>
                  {mayEdit && groups && !role.isBuiltin && (
                    <button type="button" className="small" onClick={() => setDraft({ role })}>
                      <Pencil size={14} aria-hidden="true" /> Change {role.name}
                    </button>
                  )}
                  {mayEdit && groups && (
                    <button type="button" className="small" onClick={() => setDraft({ copyOf: role })}>
                      <Copy size={14} aria-hidden="true" /> Duplicate {role.name}
                    </button>
                  )}
                </div>
                {open && <Holders role={role} />}
              </li>
            );
          })}
        </ul>
      )}
      {!mayEdit && roles.data && <p className="muted small-text">Creating and changing roles needs the Roles permission (can see and change).</p>}
      {draft && groups && <RoleEditor draft={draft} groups={groups} onClose={() => setDraft(null)} onSaved={() => roles.mutate()} />}
    </>
  );
}
