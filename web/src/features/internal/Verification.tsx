import { useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { useToasts } from '../../ui/Toasts';

type Group = components['schemas']['DomainClaimGroup'];
type Claim = Group['claims'][number];
type Request = components['schemas']['MarketParticipantRequest'];

const when = (value: string | null): string => (value ? new Date(value).toLocaleString() : '');

/** Claimed e-mail domains, disputed first: assign one to a claimant (the others are revoked) or revoke a claim. */
export function DomainClaims() {
  const groups = useQuery('/api/internal/domains');
  const { add } = useToasts();
  const [busy, setBusy] = useState<string | null>(null);
  async function resolve(group: Group, claim: Claim, action: 'assign' | 'revoke') {
    const note = window.prompt(action === 'assign' ? `Why does ${group.domain} belong to ${claim.companyName}?` : `Why revoke ${claim.companyName}'s claim on ${group.domain}?`);
    if (note === null) return;
    setBusy(claim.id);
    const { error } = await api.POST('/api/internal/domains/{companyDomainId}/resolve', { params: { path: { companyDomainId: claim.id } }, body: { action, note } });
    setBusy(null);
    if (error) return add('error', errorMessage(error));
    add('success', action === 'assign' ? `${group.domain} now belongs to ${claim.companyName}.` : `${claim.companyName}'s claim on ${group.domain} is revoked.`);
    await groups.mutate();
  }
  if (groups.error) return <p role="alert">{errorMessage(groups.error)}</p>;
  if (!groups.data) return <p className="muted">Loading domains…</p>;
  const rows = groups.data.data.flatMap((group) => group.claims.map((claim) => ({ group, claim })));
  if (rows.length === 0) return <p className="muted">No company has claimed an e-mail domain yet.</p>;
  return (
    <DataTable
      caption="Claimed e-mail domains (disputed first)"
      regionLabel="Claimed e-mail domains"
      rows={rows}
      rowKey={(row) => row.claim.id}
      columns={[
        { key: 'domain', header: 'Domain', rowHeader: true, cell: (row) => (row.group.disputed ? <>{row.group.domain} <span className="badge danger">disputed</span></> : row.group.domain) },
        { key: 'company', header: 'Claimed by', className: 'wrap', cell: (row) => `${row.claim.companyName}${row.claim.claimedBy ? ` (${row.claim.claimedBy})` : ''}, ${when(row.claim.claimedAt)}` },
        { key: 'status', header: 'State', className: 'wrap', cell: (row) => (row.claim.status === 'proven' ? `Proven (${row.claim.proof ?? ''})` : `Pending${row.claim.lastCheck ? `: ${row.claim.lastCheck}` : ''}`) },
        { key: 'people', header: 'People at it', className: 'wrap', cell: (row) => row.group.people.map((entry) => `${entry.companyName}: ${entry.people}`).join('; ') || 'None' },
        {
          key: 'actions',
          header: 'Settle',
          cell: (row) => (
            <span className="internal-actions">
              {row.claim.status !== 'proven' && (
                <button type="button" disabled={busy !== null} onClick={() => void resolve(row.group, row.claim, 'assign')} aria-label={`Assign ${row.group.domain} to ${row.claim.companyName}`}>
                  Assign
                </button>
              )}
              <button type="button" disabled={busy !== null} onClick={() => void resolve(row.group, row.claim, 'revoke')} aria-label={`Revoke ${row.claim.companyName}'s claim on ${row.group.domain}`}>
                Revoke
              </button>
            </span>
          ),
        },
      ]}
    />
  );
}

/** Companies asking to contribute to the market: what each submitted, to approve (it needs a proven domain) or refuse. */
export function ParticipantQueue() {
  const requests = useQuery('/api/internal/market/participants');
  const { add } = useToasts();
  const [busy, setBusy] = useState<string | null>(null);
  async function decide(row: Request, decision: 'approve' | 'refuse') {
    const note = decision === 'refuse' ? window.prompt(`Why refuse ${row.companyName}? The company sees this.`) : '';
    if (note === null) return;
    setBusy(row.companyId);
    const { error } = await api.POST('/api/internal/market/participants/{companyId}/decision', { params: { path: { companyId: row.companyId } }, body: { decision, ...(note ? { note } : {}) } });
    setBusy(null);
    if (error) return add('error', errorMessage(error));
    add('success', `${row.companyName} is ${decision === 'approve' ? 'a verified market participant' : 'refused'}.`);
    await requests.mutate();
  }
  if (requests.error) return <p role="alert">{errorMessage(requests.error)}</p>;
  if (!requests.data) return <p className="muted">Loading participant requests…</p>;
  if (requests.data.data.length === 0) return <p className="muted">No company has asked to take part in the market yet.</p>;
  return (
    <DataTable
      caption="Market participant requests (waiting first)"
      regionLabel="Market participant requests"
      rows={requests.data.data}
      rowKey={(row) => row.companyId}
      columns={[
        { key: 'company', header: 'Company', rowHeader: true, cell: (row) => row.companyName },
        { key: 'domains', header: 'Proven domains', className: 'wrap', cell: (row) => row.provenDomains.join(', ') || 'None yet' },
        { key: 'headcount', header: 'Head count offered', cell: (row) => row.headcountOffered },
        { key: 'asked', header: 'Asked', className: 'wrap', cell: (row) => (row.seeded ? 'Set up with the demo' : `${row.requestedBy ?? 'someone removed'}, ${when(row.requestedAt)}`) },
        {
          key: 'status',
          header: 'Decision',
          className: 'wrap',
          cell: (row) =>
            row.status === 'pending' ? (
              <span className="internal-actions">
                <button type="button" disabled={busy !== null || row.provenDomains.length === 0} onClick={() => void decide(row, 'approve')} aria-label={`Approve ${row.companyName}`}>
                  Approve
                </button>
                <button type="button" disabled={busy !== null} onClick={() => void decide(row, 'refuse')} aria-label={`Refuse ${row.companyName}`}>
                  Refuse
                </button>
              </span>
            ) : (
              `${row.status === 'approved' ? 'Approved' : 'Refused'}${row.decidedBy ? ` by ${row.decidedBy}` : ''}${row.decidedAt ? ` ${when(row.decidedAt)}` : ''}${row.note ? `: ${row.note}` : ''}`
            ),
        },
      ]}
    />
  );
}
