import { ListChecks } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { useQuery } from '../../api/client';
import type { NavWidgetProps } from '../../app/webModule';
import { retryImport } from '../../app/retryImport';
import { useSession } from '../../auth/Session';
import { Tooltip } from '../../ui/Tooltip';
import './jobs.css';

const JobsPanel = lazy(() => retryImport(() => import('./JobsList')));

/** Opens the background-jobs list (when the job manager flag is on); the list loads on first open. Compact: the icon, its name a tooltip. */
export function JobsButton({ compact }: NavWidgetProps) {
  const { user } = useSession();
  const flags = useQuery('/api/me/release-flags', user ? {} : null);
  const [open, setOpen] = useState(false);
  const enabled = flags.data?.data.some((flag) => flag.flag === 'release_job_manager_page' && flag.enabled) ?? false;
  if (!enabled) return null;
  const button = (
    <button type="button" className="nav-link" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
      <ListChecks size={20} aria-hidden="true" />
      <span className={compact ? 'visually-hidden' : 'nav-label'}>Background jobs</span>
    </button>
  );
  return (
    <>
      {compact ? (
        <Tooltip content="Background jobs" side="bottom">
          {button}
        </Tooltip>
      ) : (
        button
      )}
      {open && (
        <Suspense fallback={null}>
          <JobsPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
