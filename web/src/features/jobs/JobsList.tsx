import { Link } from 'wouter';
import { usePerson } from '../../app/Guard';
import { errorMessage } from '../../api/client';
import { type BackgroundJob, JOB_TITLES, useBackgroundJobs } from './useBackgroundJobs';
import './jobs.css';

const STATUS_TEXT: Record<BackgroundJob['status'], string> = {
  queued: 'Waiting to start',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function JobRow({ job, highlight }: { job: BackgroundJob; highlight: boolean }) {
  const title = JOB_TITLES[job.type] ?? job.type;
  return (
    <li className={highlight ? 'job highlight' : 'job'} data-job-id={job.id} data-status={job.status}>
      <div className="job-head">
        <strong>{title}</strong>
        <span className={`job-status status-${job.status}`}>{STATUS_TEXT[job.status]}</span>
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
export function JobsList({ highlightJobId, limit }: { highlightJobId?: string; limit?: number }) {
  const person = usePerson().data?.data;
  const viewingAs = Boolean(person?.viewAs);
  const { data, error, isLoading } = useBackgroundJobs(Boolean(person) && !viewingAs);
  if (viewingAs) return <p className="muted">Background jobs are not shown while viewing as someone else.</p>;
  if (error) return <p role="alert">{errorMessage(error)}</p>;
  if (isLoading || !data) return <p className="muted">Loading your background jobs…</p>;
  if (data.length === 0) return <p className="muted">No background jobs in the last 7 days.</p>;
  const jobs = limit ? data.slice(0, limit) : data;
  return (
    <ul className="jobs" aria-label="Background jobs">
      {jobs.map((job) => (
        <JobRow key={job.id} job={job} highlight={job.id === highlightJobId} />
      ))}
    </ul>
  );
}

/** The jobs list behind a button in the frame (a popover at the popover layer). */
export default function JobsPanel({ onClose }: { onClose: () => void }) {
  return (
    <section className="jobs-panel" aria-labelledby="jobs-panel-title" onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <header>
        <h2 id="jobs-panel-title">Background jobs</h2>
        <button type="button" className="small" onClick={onClose} aria-label="Close background jobs">
          ×
        </button>
      </header>
      <JobsList limit={20} />
    </section>
  );
}
