import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { DataTable } from '../../ui/DataTable';
import { FormProblem } from '../../ui/FormProblem';
import { useToasts } from '../../ui/Toasts';

type SharedSlice = components['schemas']['SharedSlice'];
type Collaborator = components['schemas']['SliceCollaborator'];

const STATUS: Record<Collaborator['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };
const DEFAULT_DAYS = 14;
const MAX_DAYS = 90;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

/**
 * Someone outside the company invited to read this one slice: they are e-mailed a link of their own,
 * read-only, until it expires or is revoked. The company's editors see who was invited, how often
 * each opened it, and revoke them.
 */
export function SliceCollaborators({ slice }: { slice: SharedSlice }) {
  const collaborators = useQuery('/api/benchmarking/shares/{sliceId}/collaborators', { params: { path: { sliceId: slice.id } } });
  const { add } = useToasts();
  const [open, setOpen] = useState(false);
  const invitation = useMutation({ failure: 'problem', fieldNames: { email: 'E-mail', expiresInDays: 'Days' } });
  // Revoking has no busy state of its own: the row changes once the list is asked again.
  const revocation = useMutation();

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const days = Number(form.get('days') ?? DEFAULT_DAYS);
    const result = await invitation.run(() => api.POST('/api/benchmarking/shares/{sliceId}/collaborators', { params: { path: { sliceId: slice.id } }, body: { email, expiresInDays: days } }));
    if (!result.ok) return;
    setOpen(false);
    await collaborators.mutate();
    const invited = result.data.data;
    add('success', `${invited.email} was e-mailed a link to this slice, open until ${new Date(invited.expiresAt).toLocaleDateString()}.`);
  }

  async function revoke(collaborator: Collaborator) {
    const result = await revocation.run(() => api.POST('/api/benchmarking/shares/{sliceId}/collaborators/{collaboratorId}/revoke', { params: { path: { sliceId: slice.id, collaboratorId: collaborator.id } } }));
    if (!result.ok) return;
    await collaborators.mutate();
    add('success', `${collaborator.email} can no longer open this slice.`);
  }

  const rows = collaborators.data?.data ?? [];
  return (
    <section className="card slice-collaborators" aria-labelledby="collaborators-heading">
      <div className="section-head">
        <h2 id="collaborators-heading">Collaborators</h2>
        {slice.status === 'active' && !open && (
          <button type="button" className="primary" onClick={() => setOpen(true)}>
            Invite a collaborator
          </button>
        )}
      </div>
      <p className="muted small-text">People outside your company you invite can read this slice, and nothing else, through their own link; no account needed.</p>
      {open && (
        <form className="settings-form" onSubmit={(event) => void invite(event)} aria-label="Invite a collaborator">
          <FormProblem message={invitation.problem?.message ?? null} fields={invitation.problem?.fields} />
          <label>
            E-mail
            <input name="email" type="email" required maxLength={320} autoComplete="off" />
          </label>
          <label>
            Link works for (days, at most {MAX_DAYS})
            <input name="days" type="number" min={1} max={MAX_DAYS} defaultValue={DEFAULT_DAYS} required />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={invitation.busy}>
              Send the invitation
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {collaborators.error && <p role="alert">{errorMessage(collaborators.error)}</p>}
      {collaborators.data && rows.length === 0 && <p className="muted">Nobody outside the company has been invited to this slice.</p>}
      {rows.length > 0 && (
        <DataTable
          caption="Collaborators of this slice"
          captionHidden
          cardsOnPhone
          rows={rows}
          rowKey={(row) => row.id}
          columns={[
            { key: 'email', header: 'E-mail', rowHeader: true, cell: (row) => row.email },
            { key: 'status', header: 'Status', cell: (row) => STATUS[row.status] },
            { key: 'invited', header: 'Invited', cell: (row) => `${new Date(row.invitedAt).toLocaleDateString()} by ${row.invitedBy}` },
            { key: 'expires', header: 'Open until', cell: (row) => new Date(row.expiresAt).toLocaleDateString() },
            { key: 'opens', header: 'Opened', cell: (row) => (row.opens === 0 ? 'Not yet' : `${row.opens} ${row.opens === 1 ? 'time' : 'times'}, last ${when(row.lastOpenedAt)}`) },
            {
              key: 'actions',
              header: <span className="visually-hidden">Actions</span>,
              cell: (row) =>
                row.status === 'active' && (
                  <button type="button" className="small" onClick={() => void revoke(row)}>
                    Revoke {row.email}
                  </button>
                ),
            },
          ]}
        />
      )}
    </section>
  );
}
