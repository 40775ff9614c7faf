import { useEffect, useState } from 'react';
import type { components } from '../../../../../openapi.d.ts';
import { api, useQuery } from '../../../api/client';
import { invalidate, useVersionedSave } from '../../../api/queries';
import { usePerson } from '../../../app/Guard';
import { FormProblem } from '../../../ui/FormProblem';
import { useToasts } from '../../../ui/Toasts';

type BandSetApproval = components['schemas']['BandSetApproval'];

const DECISIONS: Record<'approved' | 'rejected', string> = { approved: 'Approved', rejected: 'Sent back' };

function Decide({ approval, name }: { approval: BandSetApproval; name: string }) {
  const { add } = useToasts();
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const approve = useVersionedSave((ifMatch: string, body: { comment?: string }) =>
    api.POST('/api/band-set-approvals/{bandSetId}/approve', { params: { path: { bandSetId: approval.bandSetId }, header: { 'If-Match': ifMatch } }, body }),
  );
  const reject = useVersionedSave((ifMatch: string, body: { comment: string }) =>
    api.POST('/api/band-set-approvals/{bandSetId}/reject', { params: { path: { bandSetId: approval.bandSetId }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function decide(decision: 'approve' | 'reject') {
    const text = comment.trim();
    if (decision === 'reject' && !text) return setProblem('Say why the set goes back to draft.');
    const result = decision === 'approve' ? await approve.save(approval.version, text ? { comment: text } : {}) : await reject.save(approval.version, { comment: text });
    if (!result.ok) return setProblem(result.message);
    setProblem(null);
    await invalidate((path) => path.startsWith('/api/bands/') || path.startsWith('/api/band-set-approvals/'));
    const after = result.data.data;
    add('success', decision === 'reject' ? `“${name}” went back to draft.` : after.status === 'live' ? `“${name}” is live.` : after.status === 'cycle' ? `“${name}” is the band set of its merit cycle.` : `You approved “${name}”; it waits for the next approver.`);
  }
  return (
    <div className="settings-form">
      <label>
        Comment (required to send it back)
        <textarea value={comment} maxLength={4000} rows={2} onChange={(event) => setComment(event.target.value)} />
      </label>
      <FormProblem message={problem} />
      <div className="actions">
        <button type="button" className="primary" disabled={approve.busy || reject.busy} onClick={() => void decide('approve')}>
          Approve
        </button>
        <button type="button" disabled={approve.busy || reject.busy} onClick={() => void decide('reject')}>
          Send back to draft
        </button>
      </div>
    </div>
  );
}

/** Who a band set waits for before it goes live (workflow settings), and the approve / send-back actions for the one awaited. */
export function BandSetApprovalPanel({ bandSetId, name, version, toCycle = false }: { bandSetId: string; name: string; version: number; toCycle?: boolean }) {
  const me = usePerson().data?.data;
  const approval = useQuery('/api/band-set-approvals/{bandSetId}', { params: { path: { bandSetId } } });
  const { mutate } = approval;
  // The set changed (published, decided on): read who it waits for again.
  useEffect(() => {
    void mutate();
  }, [version, mutate]);
  const data = approval.data?.data;
  if (!data || data.status !== 'pendingApproval') return null;
  const next = data.approvers.find((approver) => data.awaiting.includes(approver.userId));
  const mine = me !== undefined && data.awaiting.includes(me.id);
  return (
    <section className="card" aria-labelledby="band-approval-heading">
      <h2 id="band-approval-heading">Waiting for approval</h2>
      <p>
        Submitted by {data.submittedBy?.name ?? 'someone'}; it {toCycle ? 'becomes the band set of its merit cycle' : 'goes live'} once every approver has approved, in order. Waiting for{' '}
        <strong>{next ? next.name : 'nobody'}</strong>.
      </p>
      <ol>
        {data.approvers.map((approver) => (
          <li key={approver.userId}>
            {approver.name} — {approver.decision ? DECISIONS[approver.decision] : data.awaiting.includes(approver.userId) ? 'to decide now' : 'waiting'}
          </li>
        ))}
      </ol>
      {mine && <Decide approval={data} name={name} />}
    </section>
  );
}
