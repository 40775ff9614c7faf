import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { DataTable } from '../../ui/DataTable';
import { formatNumber, formatShare } from '../../ui/format';
import { PageHeader, Section } from '../../ui/Page';
import { FailureScreen } from '../../ui/Screens';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useFollowedJob } from '../jobs/useFollowedJob';
import { useToasts } from '../../ui/Toasts';
import { DecisionActions, ReviewList, useDecision } from './ReviewList';
import './internal.css';

type Release = components['schemas']['MarketRelease'];
type Scorecard = components['schemas']['MarketPrivacyScorecard'];
type Attack = Scorecard['attacks'][number];
type Participant = components['schemas']['ReleaseParticipant'];

const when = (value: string): string => new Date(value).toLocaleString();

const SOURCE_TEXT: Record<Release['source']['kind'], string> = {
  demo: 'Generated demo market',
  mixed: 'Demo market and participants',
  participants: 'Participants only',
};

function ReleaseStatus({ release }: { release: Release }) {
  return (
    <span className="internal-actions">
      <Badge tone={release.status === 'published' ? 'success' : 'neutral'}>{release.status === 'published' ? 'Published' : 'Draft'}</Badge>
      {release.serving && <Badge tone="info">Serving</Badge>}
      {release.pinned && <Badge tone="accent">Pinned</Badge>}
    </span>
  );
}

function ScorecardBadge({ scorecard }: { scorecard: Scorecard | null | undefined }) {
  if (!scorecard) return <Badge tone="neutral">Not scored yet</Badge>;
  return scorecard.passed ? <Badge tone="success">Privacy checks passed</Badge> : <Badge tone="danger">Privacy checks failed</Badge>;
}

/** Why a release cannot be published, in words; null when it can. */
function publishBlocked(release: Release): string | null {
  if (release.status === 'published') return 'It is already published.';
  if (release.privacyScorecard && !release.privacyScorecard.passed) return `It fails its privacy scorecard: ${release.privacyScorecard.reason ?? 'an attack recovered a target'}.`;
  return null;
}

/** What one attack found, in words: the control must recover its targets, the protected release none (gating) or as few as it can. */
function verdict(attack: Attack): string {
  if (attack.controlRecovered < attack.targets && attack.attack !== 'counts') return 'Fails: without protection the attack did not recover every target, so it proves nothing';
  if (attack.recovered === 0) return attack.gating ? 'Passes: no target recovered within 5%' : 'Shown: no target recovered within 5%';
  return attack.gating ? `Fails: ${attack.recovered} of ${attack.targets} recovered within 5%` : `Shown, not gating: ${attack.recovered} of ${attack.targets} recovered`;
}

function AttackTable({ scorecard }: { scorecard: Scorecard }) {
  return (
    <DataTable
      caption="Attacks run against the release"
      // Wider than a narrow window: the scrolling region takes keyboard focus.
      regionLabel="Attacks run against the release"
      rows={scorecard.attacks}
      rowKey={(attack) => attack.attack}
      cardsOnPhone
      rowAttributes={(attack) => ({ 'data-attack': attack.attack })}
      columns={[
        { key: 'attack', header: 'Attack', rowHeader: true, className: 'wrap', cell: (attack) => attack.title },
        { key: 'targets', header: 'Targets', numeric: true, cell: (attack) => formatNumber(attack.targets) },
        { key: 'control', header: 'Recovered without protection', numeric: true, cell: (attack) => formatNumber(attack.controlRecovered) },
        { key: 'recovered', header: 'Recovered with protection', numeric: true, cell: (attack) => formatNumber(attack.recovered) },
        { key: 'closest', header: 'Closest estimate', numeric: true, cell: (attack) => (attack.closest === null ? 'No estimate' : `${formatShare(attack.closest)} off`) },
        { key: 'verdict', header: 'Result', className: 'wrap', cell: (attack) => verdict(attack) },
      ]}
    />
  );
}

function ScorecardSection({ scorecard }: { scorecard: Scorecard | null | undefined }) {
  return (
    <Section title="Privacy scorecard" id="release-scorecard">
      {!scorecard ? (
        <p className="muted">Built before scorecards: the release is scored when it is published, and not published if it fails.</p>
      ) : (
        <>
          <p role="status" data-testid="scorecard-verdict">
            {scorecard.passed
              ? 'Passed: no gating attack recovered any target within 5%, and every attack recovered its targets with the protection switched off.'
              : `Failed: ${scorecard.reason ?? 'an attack recovered a target'}. The release cannot be published.`}{' '}
            <span className="muted">Computed {when(scorecard.computedAt)}.</span>
          </p>
          <AttackTable scorecard={scorecard} />
          <h3>Utility cost</h3>
          <dl className="release-facts" data-testid="scorecard-utility">
            <dt>Median relative move</dt>
            <dd>{formatShare(scorecard.utility.medianRelativeMove)}</dd>
            <dt>90th percentile relative move</dt>
            <dd>{formatShare(scorecard.utility.p90RelativeMove)}</dd>
            <dt>Cells withheld</dt>
            <dd>
              {formatShare(scorecard.utility.cellsWithheldShare)} of {formatNumber(scorecard.utility.cells)}
            </dd>
            <dt>Figures measured</dt>
            <dd>{formatNumber(scorecard.utility.figures)}</dd>
          </dl>
          <p className="muted small-text">Measured on base pay, every job family × level, in each of the release’s first countries; a move is |published − exact| ÷ exact.</p>
        </>
      )}
    </Section>
  );
}

function ParticipantList({ title, rows, empty }: { title: string; rows: Participant[]; empty: string }) {
  return (
    <div>
      <h3>{title}</h3>
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="release-participants" aria-label={title}>
          {rows.map((row) => (
            <li key={row.companyId}>{row.companyName}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The build report: which verified participants the release took, and who is new or gone since the release built before it. */
function BuildReport({ releaseId }: { releaseId: string }) {
  const report = useQuery('/api/internal/market/releases/{releaseId}/participants', { params: { path: { releaseId } } });
  return (
    <Section title="Participants" id="release-participants">
      {report.error && <p role="alert">{errorMessage(report.error)}</p>}
      {!report.data && !report.error && <p className="muted">Loading the build report…</p>}
      {report.data && (
        <>
          <p data-testid="participant-summary">
            {report.data.data.participants.length === 0 ? 'No customer participant' : `${report.data.data.participants.length} customer participant${report.data.data.participants.length === 1 ? '' : 's'}`}
            {report.data.data.previousReleaseId
              ? `; ${report.data.data.added.length} new and ${report.data.data.removed.length} removed since the release built before it.`
              : '; the first release built, so nobody is new or removed.'}
          </p>
          <div className="release-participant-lists">
            <ParticipantList title="New participants" rows={report.data.data.added} empty="None new." />
            <ParticipantList title="Removed participants" rows={report.data.data.removed} empty="None removed." />
            <ParticipantList title="All participants" rows={report.data.data.participants} empty="None." />
          </div>
        </>
      )}
    </Section>
  );
}

function PublishAction({ release, onPublished }: { release: Release; onPublished: () => Promise<unknown> }) {
  const { busy, decide } = useDecision(onPublished);
  const blocked = publishBlocked(release);
  if (release.status === 'published') return null;
  return (
    <div className="release-publish">
      <DecisionActions>
        <button
          type="button"
          className="primary"
          disabled={blocked !== null || busy !== null}
          aria-busy={busy !== null}
          aria-describedby={blocked ? 'publish-blocked' : undefined}
          onClick={() => void decide(release.id, () => api.POST('/api/internal/market/releases/{releaseId}/publish', { params: { path: { releaseId: release.id } } }), `Release ${release.version} is published.`)}
        >
          Publish release {release.version}
        </button>
      </DecisionActions>
      {blocked && (
        <p id="publish-blocked" className="muted" role="note">
          Publishing is not possible. {blocked}
        </p>
      )}
    </div>
  );
}

/** Pinning serves a published release on every node instead of the newest one (rolling back a release). */
function PinAction({ release, onPinned }: { release: Release; onPinned: () => Promise<unknown> }) {
  const { busy, decide } = useDecision(onPinned);
  if (release.status !== 'published' || release.pinned) return null;
  return (
    <DecisionActions>
      <button
        type="button"
        disabled={busy !== null}
        aria-busy={busy !== null}
        onClick={() => void decide(release.id, () => api.POST('/api/internal/market/releases/{releaseId}/pin', { params: { path: { releaseId: release.id } } }), `Release ${release.version} is pinned: it is served until another is pinned or published.`)}
      >
        Pin release {release.version}
      </button>
    </DecisionActions>
  );
}

/** Building a release from the demo market's parameters (and the participants' records) as a background job. */
function BuildRelease({ onBuilt }: { onBuilt: () => Promise<unknown> }) {
  const { add } = useToasts();
  const [seed, setSeed] = useState('42');
  const [records, setRecords] = useState('20000');
  const { running, job, start } = useFollowedJob(() => {
    add('success', 'The release is built as a draft. Open it to read its privacy scorecard before publishing.');
    void onBuilt();
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    void start(() => api.POST('/api/internal/market/releases', { body: { seed: Number(seed), records: Number(records) } }));
  }
  return (
    <Section title="Build a release" id="release-build">
      <form className="release-build" onSubmit={submit}>
        <label>
          Seed
          <input type="number" inputMode="numeric" min={1} max={2147483647} required value={seed} onChange={(e) => setSeed(e.target.value)} />
        </label>
        <label>
          Generated records
          <input type="number" inputMode="numeric" min={0} max={2000000} required value={records} onChange={(e) => setRecords(e.target.value)} aria-describedby="release-records-help" />
        </label>
        <p id="release-records-help" className="muted small-text">At least 1,000, or 0 for the participants’ records alone. The same parameters always build the same release.</p>
        <button type="submit" className="primary" disabled={running} aria-busy={running}>
          {running ? `Building… ${job?.progress ?? 0}%` : 'Build release'}
        </button>
      </form>
    </Section>
  );
}

function useInternalAdmin(): 'loading' | 'denied' | 'allowed' {
  const person = usePerson().data?.data;
  if (!person) return 'loading';
  return person.isInternalAdmin ? 'allowed' : 'denied';
}

const DENIED = <FailureScreen title="Permission denied" description="You do not have access to this content. Please contact your company admin for support." />;

/** /internal/market-releases: every release, newest first, with its privacy verdict. */
export function MarketReleasesScreen() {
  const access = useInternalAdmin();
  const releases = useQuery('/api/internal/market/releases', access === 'allowed' ? {} : null);
  if (access === 'loading') return <FullSizeSpinner loading />;
  if (access === 'denied') return DENIED;
  return (
    <>
      <PageHeader title="Market releases" description="Building a release, each release’s privacy scorecard, its build report, publishing and pinning. A release whose scorecard fails cannot be published." />
      <BuildRelease onBuilt={() => releases.mutate()} />
      <ReviewList answer={releases} loading="Loading releases…" empty="No release has been built yet.">
        {(rows) => (
          <DataTable
            caption="Market data releases (newest first)"
            regionLabel="Market data releases"
            rows={rows}
            rowKey={(release) => release.id}
            cardsOnPhone
            columns={[
              { key: 'version', header: 'Release', rowHeader: true, cell: (release) => <Link href={`/internal/market-releases/${release.id}`}>{release.version}</Link> },
              { key: 'status', header: 'Status', cell: (release) => <ReleaseStatus release={release} /> },
              { key: 'privacy', header: 'Privacy', cell: (release) => <ScorecardBadge scorecard={release.privacyScorecard} /> },
              { key: 'source', header: 'Source', className: 'wrap', cell: (release) => SOURCE_TEXT[release.source.kind] },
              { key: 'records', header: 'Records', numeric: true, cell: (release) => formatNumber(release.recordCount) },
              { key: 'built', header: 'Built', className: 'wrap', cell: (release) => when(release.builtAt) },
            ]}
          />
        )}
      </ReviewList>
    </>
  );
}

/** /internal/market-releases/:releaseId: one release's scorecard, build report and publishing. */
export function MarketReleaseScreen() {
  const { releaseId = '' } = useParams<{ releaseId: string }>();
  const access = useInternalAdmin();
  const releases = useQuery('/api/internal/market/releases', access === 'allowed' ? {} : null);
  if (access === 'loading') return <FullSizeSpinner loading />;
  if (access === 'denied') return DENIED;
  if (releases.error) return <p role="alert">{errorMessage(releases.error)}</p>;
  if (!releases.data) return <FullSizeSpinner loading />;
  const release = releases.data.data.find((row) => row.id === releaseId);
  if (!release) return <FailureScreen title="Not found" description="There is no market release with this id." />;
  return (
    <>
      <PageHeader
        eyebrow={<Link href="/internal/market-releases">Market releases</Link>}
        title={`Release ${release.version}`}
        description={`${SOURCE_TEXT[release.source.kind]}: ${formatNumber(release.recordCount)} records of ${formatNumber(release.companyCount)} companies, ${formatNumber(release.source.contributedRecords)} of them from ${formatNumber(release.source.contributedCompanies)} participants. Built ${when(release.builtAt)}${release.publishedAt ? `, published ${when(release.publishedAt)}` : ''}.`}
        actions={<ReleaseStatus release={release} />}
      />
      <PublishAction release={release} onPublished={() => releases.mutate()} />
      <PinAction release={release} onPinned={() => releases.mutate()} />
      <ScorecardSection scorecard={release.privacyScorecard} />
      <BuildReport releaseId={release.id} />
    </>
  );
}
