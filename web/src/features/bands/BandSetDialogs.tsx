import { useState } from 'react';
import { Link } from 'wouter';
import { api, useQuery } from '../../api/client';
import { invalidate, useVersionedSave } from '../../api/queries';
import { Modal } from '../../ui/Modal';
import { useToasts } from '../../ui/Toasts';
import { useFollowedJob } from '../jobs/useFollowedJob';
import { type BandSetDetail, Problem, type Schemas, formatNumber, refreshBands, useBandsAccess } from './common';

/**
 * Exports the set as CSV or XLSX: a background job, followed until its file is ready, then a link
 * to the download (as the other exports do).
 */
export function ExportBands({ bandSet }: { bandSet: BandSetDetail }) {
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const { job, running, start } = useFollowedJob();
  return (
    <span className="bands-export">
      <label>
        <span className="visually-hidden">Export format</span>
        <select value={format} onChange={(event) => setFormat(event.target.value === 'xlsx' ? 'xlsx' : 'csv')} disabled={running}>
          <option value="csv">CSV</option>
          <option value="xlsx">XLSX</option>
        </select>
      </label>
      <button type="button" onClick={() => void start(() => api.POST('/api/bands/band-sets/{bandSetId}/exports', { params: { path: { bandSetId: bandSet.id } }, body: { format } }))} disabled={running}>
        {running && job ? `Exporting… ${job.progress}%` : 'Export'}
      </button>
      <span role="status" className="bands-export-status">
        {job?.status === 'succeeded' && job.downloadId && <Link href={`/downloads/${job.downloadId}`}>Open the download</Link>}
      </span>
    </span>
  );
}

/** Publishing at the version read, with an optional comment; a stale version keeps the comment and says so. */
export function PublishDialog({ bandSet, live, onClose }: { bandSet: BandSetDetail; live: Schemas['BandSet'] | undefined; onClose: () => void }) {
  const { add } = useToasts();
  const access = useBandsAccess();
  const [comment, setComment] = useState('');
  // '' publishes to live; a merit cycle's id publishes to that cycle instead.
  const [target, setTarget] = useState('');
  const [problem, setProblem] = useState<{ message: string; conflict: boolean } | null>(null);
  const cycles = useQuery('/api/v2/meritCycles', access.cycles ? {} : null);
  // Only a cycle that has not launched takes a band set: launching fixes its bands.
  const open = (cycles.data?.data ?? []).filter((cycle) => cycle.state === 'draft');
  const cycle = open.find((candidate) => candidate.id === target);
  const { save, busy } = useVersionedSave((ifMatch, body: { comment?: string; meritCycleId?: string }) =>
    api.POST('/api/bands/band-sets/{bandSetId}/publish', { params: { path: { bandSetId: bandSet.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function publish() {
    const result = await save(bandSet.version, { ...(comment.trim() ? { comment: comment.trim() } : {}), ...(cycle ? { meritCycleId: cycle.id } : {}) });
    if (!result.ok) return setProblem({ message: result.message, conflict: result.conflict });
    await refreshBands();
    const status = result.data.data.status;
    add('success', status === 'pendingApproval' ? `“${bandSet.name}” waits for approval before ${cycle ? `it becomes the band set of “${cycle.name}”` : 'it goes live'}.` : status === 'cycle' ? `“${bandSet.name}” is the band set of “${cycle?.name ?? 'the merit cycle'}”.` : `“${bandSet.name}” is live.`);
    onClose();
  }
  return (
    <Modal
      title={`Publish “${bandSet.name}”`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="primary" disabled={busy} onClick={() => void publish()}>
            Publish
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      {open.length > 0 && (
        <label>
          Publish to
          <select value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value="">Live: the company’s bands</option>
            {open.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                Merit cycle: {candidate.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {cycle ? (
        <p>
          Its {formatNumber(bandSet.bandCount)} bands become the bands of “{cycle.name}”: the cycle measures compa-ratio and range penetration against them when it launches. The live bands stay as they are. A published set never changes again.
        </p>
      ) : (
        <p>
          Its {formatNumber(bandSet.bandCount)} bands become the company’s live bands
          {live && live.id !== bandSet.id ? `; “${live.name}”, live until now, is archived in the same change` : ''}. A published set never changes again.
        </p>
      )}
      <label>
        Comment (optional)
        <textarea value={comment} maxLength={4000} rows={3} onChange={(event) => setComment(event.target.value)} />
      </label>
      {problem && (
        <>
          <Problem message={problem.message} />
          {problem.conflict && (
            <button type="button" className="small" onClick={() => void refreshBands().then(() => setProblem(null))}>
              Reload the band set
            </button>
          )}
        </>
      )}
    </Modal>
  );
}

/** Taking a submission back to draft at the version read, saying why if the author likes; the approvers stop waiting. */
export function WithdrawDialog({ bandSet, onClose }: { bandSet: BandSetDetail; onClose: () => void }) {
  const { add } = useToasts();
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave((ifMatch, body: { comment?: string }) =>
    api.POST('/api/bands/band-sets/{bandSetId}/withdraw', { params: { path: { bandSetId: bandSet.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function withdraw() {
    const result = await save(bandSet.version, comment.trim() ? { comment: comment.trim() } : {});
    if (!result.ok) return setProblem(result.message);
    await invalidate((path) => path.startsWith('/api/bands/') || path.startsWith('/api/band-set-approvals/'));
    add('success', `“${bandSet.name}” is a draft again; its approvers no longer wait for it.`);
    onClose();
  }
  return (
    <Modal
      title={`Withdraw “${bandSet.name}”?`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="primary" disabled={busy} onClick={() => void withdraw()}>
            Withdraw to draft
          </button>
          <button type="button" onClick={onClose}>
            Keep it waiting
          </button>
        </>
      }
    >
      <p>The set goes back to draft, so it can be changed and published again; the history records who withdrew it and why.</p>
      <label>
        Comment (optional)
        <textarea value={comment} maxLength={4000} rows={3} onChange={(event) => setComment(event.target.value)} />
      </label>
      <Problem message={problem} />
    </Modal>
  );
}
