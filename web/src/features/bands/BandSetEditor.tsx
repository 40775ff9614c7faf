import { ChevronDown, ChevronUp, Layers } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { useQuery } from '../../api/client';
import { NARROW, useMediaQuery } from '../../ui/hooks';
import { Section } from '../../ui/Page';
import { SkeletonTable, SkeletonText } from '../../ui/Skeleton';
import { Empty, ErrorState } from '../../ui/States';
import { SectionTabs } from '../../ui/Tabs';
import { BandCards, BandGrid, type Editing } from './BandGrid';
import { BandList } from './BandList';
import { useBandFigures } from './bandSheet';
import { DeleteDraft, useDuplicate } from './BandSets';
import { BuildForm } from './BuildForm';
import { Changes } from './Changes';
import { Evaluation } from './Evaluation';
import { GradeBands } from './Grades';
import { Smoothing } from './Smoothing';
import { BandSetApprovalPanel } from '../settings/workflows/BandSetApproval';
import { type BandSetDetail, BandsFrame, type CompanyJob, type PayZone, StatusBadge, formatDate, formatNumber, groupJobs, philosophyText, refreshBands, useBandsAccess, useMarketNames } from './common';
import { ExportBands, PublishDialog, WithdrawDialog } from './BandSetDialogs';
import { History } from './BandSetHistory';

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
  // Building and smoothing sit behind a switch once the set has bands, so the bands fill the screen.
  const [working, setWorking] = useState(bandSet.bands.length === 0);
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
  // One undo history and one save queue for the figures, whichever view (grid or list) they are edited in.
  const figures = useBandFigures({ bandSet, editable: changeable });
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
          <button type="button" className="bands-wide-only" aria-expanded={working} aria-controls="band-set-work" onClick={() => setWorking((open) => !open)}>
            {working ? <ChevronUp size={16} aria-hidden="true" /> : <ChevronDown size={16} aria-hidden="true" />} Build and smooth
          </button>
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
      <BandGrid bandSet={bandSet} groups={shownGroups} zones={zones} editable={changeable} trackName={names.name} editing={editing} setEditing={setEditing} figures={figures} />
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
      {/* Hidden on phones (and while folded away) rather than unmounted, so nothing typed or previewed is lost. */}
      {wholeSet && (
        <div className="bands-work bands-wide-only" id="band-set-work" hidden={!working}>
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
          ...(bandSet.bands.length > 0
            ? [
                {
                  id: 'list',
                  label: 'Band list',
                  panel: <BandList bandSet={bandSet} jobs={jobs} zones={zones} trackName={names.name} figures={figures} />,
                },
              ]
            : []),
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
