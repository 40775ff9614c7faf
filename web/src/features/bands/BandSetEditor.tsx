import { Layers } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, useQuery } from '../../api/client';
import { invalidate, useVersionedSave } from '../../api/queries';
import { DataTable } from '../../ui/DataTable';
import { NARROW, useMediaQuery } from '../../ui/hooks';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { SkeletonTable, SkeletonText } from '../../ui/Skeleton';
import { Empty, ErrorState, Loaded } from '../../ui/States';
import { SectionTabs } from '../../ui/Tabs';
import { useToasts } from '../../ui/Toasts';
import { BandCards, BandGrid, type Editing } from './BandGrid';
import { DeleteDraft, useDuplicate } from './BandSets';
import { useFollowedJob } from '../jobs/useFollowedJob';
import { BuildForm } from './BuildForm';
import { Changes } from './Changes';
import { Evaluation } from './Evaluation';
import { GradeBands } from './Grades';
import { Smoothing } from './Smoothing';
import { BandSetApprovalPanel } from '../settings/workflows/BandSetApproval';
import {
  type BandSetDetail,
  BandsFrame,
  type CompanyJob,
  type PayZone,
  Problem,
  type Schemas,
  StatusBadge,
  formatDate,
  formatNumber,
  groupJobs,
  philosophyText,
  refreshBands,
  useBandsAccess,
  useMarketNames,
} from './common';

/**
 * Exports the set as CSV or XLSX: a background job, followed until its file is ready, then a link
 * to the download (as the other exports do).
 */
function ExportBands({ bandSet }: { bandSet: BandSetDetail }) {
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
function PublishDialog({ bandSet, live, onClose }: { bandSet: BandSetDetail; live: Schemas['BandSet'] | undefined; onClose: () => void }) {
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
function WithdrawDialog({ bandSet, onClose }: { bandSet: BandSetDetail; onClose: () => void }) {
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

/** States in the history's words (the stored names are the workflow's). */
const STATE_WORDS: Record<string, string> = { pendingApproval: 'pending approval', cycle: 'merit cycle' };
const ACTIONS: Record<string, string> = {
  publish: 'Published',
  publishToCycle: 'Published to a merit cycle',
  archive: 'Archived',
  submit: 'Submitted for approval',
  recordApproval: 'Approved',
  approve: 'Approved and published',
  approveToCycle: 'Approved and published to a merit cycle',
  reject: 'Sent back to draft',
  withdraw: 'Withdrawn to draft',
};

/** Every change of the set's state, oldest first. */
function History({ bandSetId }: { bandSetId: string }) {
  const history = useQuery('/api/bands/band-sets/{bandSetId}/history', { params: { path: { bandSetId } } });
  return (
    <Loaded data={history.data?.data} error={history.error} retry={() => void history.mutate()} skeleton={<SkeletonTable rows={2} columns={5} label="Loading the history" />}>
      {(entries) =>
        entries.length === 0 ? (
          <Empty title="No changes of state yet" compact>
            Publishing the draft writes the first entry; archiving it when another goes live writes the next.
          </Empty>
        ) : (
          <DataTable
            caption="History of the band set"
            captionHidden
            cardsOnPhone
            rows={entries}
            rowKey={(entry) => entry.id}
            columns={[
              { key: 'action', header: 'Change', rowHeader: true, cell: (entry) => `${ACTIONS[entry.action] ?? entry.action}: ${STATE_WORDS[entry.from] ?? entry.from} → ${STATE_WORDS[entry.to] ?? entry.to}` },
              { key: 'when', header: 'When', cell: (entry) => new Date(entry.at).toLocaleString() },
              { key: 'who', header: 'By', cell: (entry) => entry.actor.name ?? 'Someone' },
              { key: 'version', header: 'Version', numeric: true, cell: (entry) => entry.subjectVersion ?? '—' },
              { key: 'comment', header: 'Comment', cell: (entry) => entry.comment ?? '—' },
            ]}
          />
        )
      }
    </Loaded>
  );
}

interface EditorProps {
  bandSet: BandSetDetail;
  jobs: CompanyJob[];
  zones: PayZone[];
}

function Editor({ bandSet, jobs, zones }: EditorProps) {
  const access = useBandsAccess();
  const names = useMarketNames();
  const narrow = useMediaQuery(NARROW);
  const [, navigate] = useLocation();
  const [tab, setTab] = useState('bands');
  const [publishing, setPublishing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const duplicate = useDuplicate();
  const sets = useQuery('/api/bands/band-sets');
  const live = sets.data?.data.find((set) => set.status === 'live');
  const groups = groupJobs(jobs);
  const draft = bandSet.status === 'draft';
  // Bands and grade bands of the person's zones; building, smoothing, publishing and deleting span every zone.
  const changeable = access.editBands && draft;
  const wholeSet = access.edit && draft;
  // Held here, so typed figures survive the grid giving way to cards and back (a resize across 640 px).
  const [editing, setEditing] = useState<Editing | null>(null);
  const bandedJobs = new Set(bandSet.bands.map((band) => band.companyJobId));
  const shownGroups = draft ? groups : groups.map((group) => ({ ...group, jobs: group.jobs.filter((job) => bandedJobs.has(job.id)) })).filter((group) => group.jobs.length > 0);

  const actions = (
    <>
      {bandSet.bands.length > 0 && <ExportBands bandSet={bandSet} />}
      {access.edit && (
        <button type="button" onClick={() => void duplicate(bandSet)}>
          Duplicate
        </button>
      )}
      {access.edit && bandSet.status === 'pendingApproval' && (
        <button type="button" onClick={() => setWithdrawing(true)}>
          Withdraw to draft
        </button>
      )}
      {wholeSet && (
        <>
          <button type="button" className="primary bands-wide-only" onClick={() => setPublishing(true)} disabled={bandSet.bands.length === 0}>
            Publish
          </button>
          <button type="button" className="ghost bands-wide-only" onClick={() => setDeleting(true)}>
            Delete draft
          </button>
        </>
      )}
    </>
  );

  const bandsPanel =
    jobs.length === 0 ? (
      <Empty title="No company jobs yet" action={<Link href="/bands/jobs" className="button primary">Set up job architecture</Link>} compact>
        Bands are made for company jobs. Create them from your employees’ families and levels first.
      </Empty>
    ) : bandSet.bands.length === 0 ? (
      <Empty title="No bands yet" compact>
        {changeable ? 'Build the draft from market data above: every company job gets a band in every pay zone.' : 'This set has no bands.'}
      </Empty>
    ) : narrow ? (
      <BandCards bandSet={bandSet} groups={shownGroups} zones={zones} trackName={names.name} />
    ) : (
      <BandGrid bandSet={bandSet} groups={shownGroups} zones={zones} editable={changeable} trackName={names.name} editing={editing} setEditing={setEditing} />
    );

  return (
    <BandsFrame
      title={bandSet.name}
      eyebrow={
        <>
          Band set <StatusBadge status={bandSet.status} />
        </>
      }
      description={
        <>
          {bandSet.currency} · effective {formatDate(bandSet.effectiveDate)} · {formatNumber(bandSet.bandCount)} bands
          {bandSet.philosophy ? ` · ${philosophyText(bandSet.philosophy, names.name)}` : ' · not built yet'}
          {bandSet.publishedAt ? ` · published ${formatDate(bandSet.publishedAt.slice(0, 10))}` : ''}
        </>
      }
      actions={actions}
    >
      {changeable && <p className="bands-muted bands-phone-only">Drafts are built, edited and published on a wider screen; here they are read only.</p>}
      <BandSetApprovalPanel bandSetId={bandSet.id} name={bandSet.name} version={bandSet.version} toCycle={bandSet.meritCycleId !== null} />
      {!draft && bandSet.status !== 'pendingApproval' && <p className="bands-muted">{bandSet.status === 'live' ? 'This set is live' : bandSet.status === 'cycle' ? 'This set is the band set of a merit cycle' : 'This set is archived'} and never changes. Duplicate it into a draft to work on it.</p>}
      {/* Hidden on phones by CSS rather than unmounted, so a resize never loses what was typed or previewed. */}
      {wholeSet && (
        <div className="bands-work bands-wide-only">
          <BuildForm bandSet={bandSet} jobs={jobs} locations={names.locations} name={names.name} />
          {bandSet.bands.length > 1 && <Smoothing bandSet={bandSet} jobs={jobs} zones={zones} trackName={names.name} />}
        </div>
      )}
      <SectionTabs
        label="Band set"
        selected={tab}
        onSelect={setTab}
        tabs={[
          {
            id: 'bands',
            label: 'Bands',
            panel: (
              <Section title="Bands" id="bands-heading">
                {bandsPanel}
              </Section>
            ),
          },
          {
            id: 'grades',
            label: 'Grades',
            panel: <GradeBands bandSet={bandSet} zones={zones} editable={changeable} />,
          },
          { id: 'evaluation', label: 'Evaluation', panel: <Evaluation bandSet={bandSet} groups={shownGroups} zones={zones} pay={access.pay} /> },
          {
            id: 'changes',
            label: 'Changes',
            panel: (
              <Section title="Changes" id="changes-heading">
                <Changes bandSet={bandSet} jobs={jobs} zones={zones} />
              </Section>
            ),
          },
          {
            id: 'history',
            label: 'History',
            panel: (
              <Section title="History" id="history-heading">
                <History bandSetId={bandSet.id} />
              </Section>
            ),
          },
        ]}
      />
      {withdrawing && <WithdrawDialog bandSet={bandSet} onClose={() => setWithdrawing(false)} />}
      {publishing && <PublishDialog bandSet={bandSet} live={live} onClose={() => setPublishing(false)} />}
      {deleting && (
        <DeleteDraft
          bandSet={bandSet}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate('/bands')}
        />
      )}
    </BandsFrame>
  );
}

/** /bands/sets/:bandSetId: one band set — its bands, how they measure up, its history, and (for a draft) building and publishing it. */
export function BandSetScreen() {
  const { bandSetId = '' } = useParams<{ bandSetId: string }>();
  const set = useQuery('/api/bands/band-sets/{bandSetId}', { params: { path: { bandSetId } } });
  const jobs = useQuery('/api/bands/jobs');
  const zones = useQuery('/api/bands/pay-zones');
  const error = set.error ?? jobs.error ?? zones.error;
  if (error) {
    return (
      <BandsFrame title="Band set" icon={Layers}>
        <ErrorState error={error} retry={() => void refreshBands()} />
      </BandsFrame>
    );
  }
  if (!set.data || !jobs.data || !zones.data) {
    return (
      <BandsFrame title="Band set" icon={Layers}>
        <SkeletonText lines={2} label="Loading the band set" />
        <SkeletonTable rows={8} columns={7} label="Loading the bands" />
      </BandsFrame>
    );
  }
  // Keyed by the set: duplicating opens another set on this same route, and nothing typed for one belongs to the other.
  return <Editor key={set.data.data.id} bandSet={set.data.data} jobs={jobs.data.data} zones={zones.data.data} />;
}
