import { Download } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { api, useQuery } from '../../api/client';
import { Section } from '../../ui/Page';
import { SkeletonText } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Loaded } from '../../ui/States';
import { useFollowedJob } from '../jobs/useFollowedJob';
import { type SectionProps } from './sections';
import { TransitionDialog } from './Transition';
import { type MeritCycle, WORKSHEET_STATES, allows, formatDate, formatNumber, formatTimestamp, usePlanningAccess } from './common';

/**
 * The payroll / HRIS file of the cycle: a background job, followed until its file is ready, then a
 * link to the download (as the other exports do).
 */
function PayrollExport({ cycle }: { cycle: MeritCycle }) {
  const { job, running, start } = useFollowedJob();
  return (
    <Section title="Payroll file" id="cycle-export">
      <p className="planning-muted">
        One line per eligible person: current and new base, merit, promotion, lump sum and equity refresh in their currency, the new base in {cycle.currency}, and the effective date
        {cycle.state === 'closed' ? '.' : '. Before the cycle closes, it shows the plan as it stands.'}
      </p>
      <div className="actions">
        <button type="button" className={cycle.state === 'closed' ? 'primary' : undefined} onClick={() => void start(() => api.POST('/api/v2/meritCycles/{meritCycleId}/exports', { params: { path: { meritCycleId: cycle.id } } }))} disabled={running}>
          <Download size={18} aria-hidden="true" /> {running && job ? `Exporting… ${job.progress}%` : 'Export the payroll file (CSV)'}
        </button>
        <span role="status">{job?.status === 'succeeded' && job.downloadId && <Link href={`/downloads/${job.downloadId}`}>Open the download</Link>}</span>
      </div>
    </Section>
  );
}

/** Closing: whether every worksheet is approved, the close itself (confirmed), then the payroll file. */
export function CloseSection({ cycle, onSaved }: SectionProps) {
  const access = usePlanningAccess();
  const [closing, setClosing] = useState(false);
  const worksheets = useQuery('/api/v2/meritCycles/{meritCycleId}/worksheets', { params: { path: { meritCycleId: cycle.id } } });
  return (
    <>
      {cycle.state === 'closed' ? (
        <StatGrid label="The closed cycle">
          <StatCard label="Closed" value={formatTimestamp(cycle.closedAt)} />
          <StatCard label="Pay records written" value={formatNumber(cycle.payRecordsWritten)} hint={`base salaries effective ${formatDate(cycle.effectiveDate)}`} testId="pay-records-written" />
        </StatGrid>
      ) : (
        <Section title="Close the cycle" id="cycle-close">
          <Loaded data={worksheets.data?.data} error={worksheets.error} inline skeleton={<SkeletonText lines={2} label="Loading the worksheets" />}>
            {(list) => {
              const counted = list.filter((worksheet) => worksheet.state !== 'pulled_up' && worksheet.counts.eligible > 0);
              const approved = counted.filter((worksheet) => worksheet.state === 'approved').length;
              const waiting = counted.filter((worksheet) => worksheet.state !== 'approved');
              return (
                <>
                  <p>
                    {formatNumber(approved)} of {formatNumber(counted.length)} worksheets with people to plan are approved.
                    {waiting.length > 0 && ` Still open: ${waiting.slice(0, 6).map((worksheet) => `${worksheet.planner?.name ?? 'the top-level worksheet'} (${WORKSHEET_STATES[worksheet.state].label.toLowerCase()})`).join(', ')}${waiting.length > 6 ? ', …' : ''}.`}
                  </p>
                  <p className="planning-muted">Closing writes each changed base salary into people data, effective {formatDate(cycle.effectiveDate)}, all at once.</p>
                  {allows(cycle, 'close') && (
                    <div className="actions planning-close-blocked">
                      <button type="button" className="primary" disabled={waiting.length > 0} aria-describedby={waiting.length > 0 ? 'close-blocked' : undefined} onClick={() => setClosing(true)}>
                        Close the cycle
                      </button>
                      {waiting.length > 0 && (
                        <span id="close-blocked">
                          {formatNumber(waiting.length)} {waiting.length === 1 ? 'is' : 'are'} not approved.{' '}
                          <Link href={`/compensationplanning/cycles/${cycle.id}/worksheets?open=1`}>See {waiting.length === 1 ? 'it' : 'them'}</Link>
                        </span>
                      )}
                    </div>
                  )}
                </>
              );
            }}
          </Loaded>
        </Section>
      )}
      {access.editAll && cycle.state !== 'draft' && cycle.state !== 'cancelled' && <PayrollExport cycle={cycle} />}
      {closing && <TransitionDialog cycle={cycle} action="close" onSaved={onSaved} onClose={() => setClosing(false)} />}
    </>
  );
}
