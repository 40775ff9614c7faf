import { ListChecks } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'wouter';
import { usePerson } from '../../app/Guard';
import { errorMessage } from '../../api/client';
import { Badge, type Tone } from '../../ui/Badge';
import { CloseButton } from '../../ui/Modal';
import { SkeletonText } from '../../ui/Skeleton';
import { Empty } from '../../ui/States';
import { type BackgroundJob, jobTitle, useBackgroundJobs } from './useBackgroundJobs';
import './jobs.css';

const STATUS_TEXT: Record<BackgroundJob['status'], string> = {
  queued: 'Waiting to start',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const STATUS_TONE: Record<BackgroundJob['status'], Tone> = {
  queued: 'neutral',
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};

function JobRow({ job, highlight }: { job: BackgroundJob; highlight: boolean }) {
  const title = jobTitle(job.type);
  return (
    <li className={highlight ? 'job highlight' : 'job'} data-job-id={job.id} data-status={job.status}>
      <div className="job-head">
        <strong>{title}</strong>
        <Badge tone={STATUS_TONE[job.status]} className={`job-status status-${job.status}`}>
          {STATUS_TEXT[job.status]}
        </Badge>
      </div>
      {(job.status === 'running' || job.status === 'queued') && (
        <progress max={100} value={job.progress} aria-label={`${title}: ${job.progress}%`}>
          {job.progress}%
        </progress>
      )}
      {job.message && job.status === 'failed' && <p className="job-message">{job.message}</p>}
      <div className="job-foot">
        <time dateTime={job.createdAt}>{new Date(job.createdAt).toLocaleString()}</time>
        {job.status === 'succeeded' && job.downloadId && (
          <Link href={`/downloads/${job.downloadId}`} className="button small">
            Download
          </Link>
        )}
      </div>
    </li>
  );
}

/** The person's background jobs of the last 7 days, live through the socket. */
export function JobsList({ highlightJobId, limit, emptyAction }: { highlightJobId?: string; limit?: number; emptyAction?: ReactNode }) {
  const person = usePerson().data?.data;
  const viewingAs = Boolean(person?.viewAs);
  const { data, error, isLoading } = useBackgroundJobs(Boolean(person) && !viewingAs);
  if (viewingAs) return <p className="muted">Background jobs are not shown while viewing as someone else.</p>;
  if (error) return <p role="alert">{errorMessage(error)}</p>;
  if (isLoading || !data) return <SkeletonText lines={3} label="Loading your background jobs" />;
  if (data.length === 0)
    return (
      <Empty title="No background jobs in the last 7 days" icon={ListChecks} compact headingLevel={3} action={emptyAction}>
        Exports, imports and downloads you start run in the background and wait for you here.
      </Empty>
    );
  const jobs = limit ? data.slice(0, limit) : data;
  return (
    <ul className="jobs" aria-label="Background jobs">
      {jobs.map((job) => (
        <JobRow key={job.id} job={job} highlight={job.id === highlightJobId} />
      ))}
    </ul>
  );
}

/**
 * The jobs list behind a button in the frame (a popover at the popover layer). It is drawn at the
 * end of the page: inside the side menu or the top bar (both sticky, so each its own stacking
 * context) the page's own cards would paint over it, hiding its Download buttons.
 */
export default function JobsPanel({ onClose }: { onClose: () => void }) {
  const panel = useRef<HTMLElement>(null);
  // Drawn at the end of the page, so the keyboard is taken there when it opens.
  useEffect(() => panel.current?.focus(), []);
  return createPortal(
    <section className="jobs-panel" ref={panel} tabIndex={-1} aria-labelledby="jobs-panel-title" onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <header>
        <h2 id="jobs-panel-title">Background jobs</h2>
        <CloseButton onClose={onClose} label="Close background jobs" />
      </header>
      <JobsList limit={20} />
    </section>,
    document.body,
  );
}
