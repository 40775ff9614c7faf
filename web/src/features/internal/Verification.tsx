import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { DecisionActions, ReviewList, useDecision } from './ReviewList';

type Group = components['schemas']['DomainClaimGroup'];
type Claim = Group['claims'][number];
type Request = components['schemas']['MarketParticipantRequest'];

const when = (value: string | null): string => (value ? new Date(value).toLocaleString() : '');

/** Claimed e-mail domains, disputed first: assign one to a claimant (the others are revoked) or revoke a claim. */
export function DomainClaims() {
  const groups = useQuery('/api/internal/domains');
  const { busy, decide } = useDecision(() => groups.mutate());
  async function resolve(group: Group, claim: Claim, action: 'assign' | 'revoke') {
    const note = window.prompt(action === 'assign' ? `Why does ${group.domain} belong to ${claim.companyName}?` : `Why revoke ${claim.companyName}'s claim on ${group.domain}?`);
    if (note === null) return;
    await decide(
      claim.id,
      () => api.POST('/api/internal/domains/{companyDomainId}/resolve', { params: { path: { companyDomainId: claim.id } }, body: { action, note } }),
      action === 'assign' ? `${group.domain} now belongs to ${claim.companyName}.` : `${claim.companyName}'s claim on ${group.domain} is revoked.`,
    );
  }
  // One row per claim: a disputed domain has several.
  const claims = groups.data ? { data: groups.data.data.flatMap((group) => group.claims.map((claim) => ({ group, claim }))) } : undefined;
  return (
    <ReviewList answer={{ data: claims, error: groups.error }} loading="Loading domains…" empty="No company has claimed an e-mail domain yet.">
      {(rows) => (
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
                <DecisionActions>
                  {row.claim.status !== 'proven' && (
                    <button type="button" disabled={busy !== null} onClick={() => void resolve(row.group, row.claim, 'assign')} aria-label={`Assign ${row.group.domain} to ${row.claim.companyName}`}>
                      Assign
                    </button>
                  )}
                  <button type="button" disabled={busy !== null} onClick={() => void resolve(row.group, row.claim, 'revoke')} aria-label={`Revoke ${row.claim.companyName}'s claim on ${row.group.domain}`}>
                    Revoke
                  </button>
                </DecisionActions>
              ),
            },
          ]}
        />
      )}
    </ReviewList>
  );
}

/** Companies asking to contribute to the market: what each submitted, to approve (it needs a proven domain) or refuse. */
export function ParticipantQueue() {
  const requests = useQuery('/api/internal/market/participants');
  const { busy, decide: send } = useDecision(() => requests.mutate());
  async function decide(row: Request, decision: 'approve' | 'refuse') {
    const note = decision === 'refuse' ? window.prompt(`Why refuse ${row.companyName}? The company sees this.`) : '';
    if (note === null) return;
    await send(
      row.companyId,
      () => api.POST('/api/internal/market/participants/{companyId}/decision', { params: { path: { companyId: row.companyId } }, body: { decision, ...(note ? { note } : {}) } }),
      `${row.companyName} is ${decision === 'approve' ? 'a verified market participant' : 'refused'}.`,
    );
  }
  return (
    <ReviewList answer={requests} loading="Loading participant requests…" empty="No company has asked to take part in the market yet.">
      {(rows) => (
        <DataTable
          caption="Market participant requests (waiting first)"
          regionLabel="Market participant requests"
          rows={rows}
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
                  <DecisionActions>
                    <button type="button" disabled={busy !== null || row.provenDomains.length === 0} onClick={() => void decide(row, 'approve')} aria-label={`Approve ${row.companyName}`}>
                      Approve
                    </button>
                    <button type="button" disabled={busy !== null} onClick={() => void decide(row, 'refuse')} aria-label={`Refuse ${row.companyName}`}>
                      Refuse
                    </button>
                  </DecisionActions>
                ) : (
                  `${row.status === 'approved' ? 'Approved' : 'Refused'}${row.decidedBy ? ` by ${row.decidedBy}` : ''}${row.decidedAt ? ` ${when(row.decidedAt)}` : ''}${row.note ? `: ${row.note}` : ''}`
                ),
            },
          ]}
        />
      )}
    </ReviewList>
  );
}
