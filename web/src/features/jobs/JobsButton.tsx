import { Suspense, lazy, useState } from 'react';
import { useQuery } from '../../api/client';
import { retryImport } from '../../app/retryImport';
import { useSession } from '../../auth/Session';
import './jobs.css';

const JobsPanel = lazy(() => retryImport(() => import('./JobsList')));

/** Opens the background-jobs list (when the job manager flag is on); the list loads on first open. */
export function JobsButton() {
  const { user } = useSession();
  const flags = useQuery('/api/me/release-flags', user ? {} : null);
  const [open, setOpen] = useState(false);
  const enabled = flags.data?.data.some((flag) => flag.flag === 'release_job_manager_page' && flag.enabled) ?? false;
  if (!enabled) return null;
  return (
    <>
      <button type="button" className="nav-button" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
        Background jobs
      </button>
      {open && (
        <Suspense fallback={null}>
          <JobsPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
