import { ListChecks } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { useCompanyFlag } from '../../api/company';
import { usePerson } from '../../app/Guard';
import type { NavWidgetProps } from '../../app/webModule';
import { retryImport } from '../../app/retryImport';
import { useSession } from '../../auth/Session';
import { Tooltip } from '../../ui/Tooltip';
import './jobs.css';

const JobsPanel = lazy(() => retryImport(() => import('./JobsList')));

/** Opens the background-jobs list (when the job manager flag is on); the list loads on first open. Compact: the icon, its name a tooltip. */
export function JobsButton({ compact }: NavWidgetProps) {
  const { user } = useSession();
  const person = usePerson().data?.data;
  const [open, setOpen] = useState(false);
  const enabled = useCompanyFlag('release_job_manager_page', Boolean(user && person?.companyId && !person.isCandidate));
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
