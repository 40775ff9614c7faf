import { CheckCircle2, Inbox } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { SkeletonCards } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { Section } from '../../ui/Page';
import { type MeritCycle, PlanningFrame, type Worksheet, WorksheetStateBadge, allows, formatMoney, formatNumber, refreshPlanning, worksheetName } from './common';
import { useMeritCycleUpdates } from './liveUpdates';
import { WorksheetActions } from './WorksheetActions';

/** One worksheet waiting on the caller: a card (phones too) with its figures and the moves. */
function ApprovalCard({ cycle, worksheet }: { cycle: MeritCycle; worksheet: Worksheet }) {
  const step = worksheet.reviewStep;
  return (
    <li className="planning-approval" data-worksheet-id={worksheet.id}>
      <h3>
        <Link href={`/compensationplanning/cycles/${cycle.id}/worksheets/${worksheet.id}`}>{worksheetName(worksheet)}’s worksheet</Link>
      </h3>
      <p className="planning-muted">
        <WorksheetStateBadge state={worksheet.state} /> {cycle.name}
        {step && worksheet.reviewers.length > 1 ? ` · reviewer ${step} of ${worksheet.reviewers.length}` : ''}
      </p>
      <dl>
        <dt>People</dt>
        <dd>{formatNumber(worksheet.counts.eligible)} eligible</dd>
        <dt>Planned</dt>
        <dd>
          {formatMoney(worksheet.budget.used)} of {formatMoney(worksheet.budget.allocated)}
          {worksheet.budget.overBudget ? ' (over budget)' : ''}
        </dd>
        <dt>Outside the guideline</dt>
        <dd>{formatNumber(worksheet.counts.flaggedErrors)} errors</dd>
      </dl>
      <div className="actions">
        <WorksheetActions worksheet={worksheet} only={['approve', 'sendBack', 'reopen']} />
      </div>
    </li>
  );
}

/** Worksheets of one active cycle that wait on the caller (to approve or send back), then the approved ones they may reopen. */
function CycleInbox({ cycle, onCount }: { cycle: MeritCycle; onCount: (count: number) => void }) {
  const worksheets = useQuery('/api/v2/meritCycles/{meritCycleId}/worksheets', { params: { path: { meritCycleId: cycle.id } } });
  const list = worksheets.data?.data;
  const count = list ? list.filter((worksheet) => allows(worksheet, 'approve') || allows(worksheet, 'sendBack') || allows(worksheet, 'reopen')).length : undefined;
  useEffect(() => {
    if (count !== undefined) onCount(count);
  }, [count]);
  // A worksheet submitted or moved to the caller arrives as an event: the list is read again.
  useMeritCycleUpdates(cycle.id, (update) => {
    if (update.reason !== 'edited') void refreshPlanning();
  });
  return (
    <Loaded data={worksheets.data?.data} error={worksheets.error} inline skeleton={<SkeletonCards count={2} label={`Loading ${cycle.name}`} />}>
      {(list) => {
        const waiting = list.filter((worksheet) => allows(worksheet, 'approve') || allows(worksheet, 'sendBack'));
        const reopenable = list.filter((worksheet) => allows(worksheet, 'reopen'));
        if (!waiting.length && !reopenable.length) return null;
        return (
          <Section title={cycle.name} id={`inbox-${cycle.id}`}>
            {waiting.length > 0 ? (
              <ul className="planning-approvals" aria-label={`Waiting for you in ${cycle.name}`}>
                {waiting.map((worksheet) => (
                  <ApprovalCard key={worksheet.id} cycle={cycle} worksheet={worksheet} />
                ))}
              </ul>
            ) : (
              <p className="planning-muted">Nothing waits for you in this cycle.</p>
            )}
            {reopenable.length > 0 && (
              <details>
                <summary>Approved worksheets ({formatNumber(reopenable.length)})</summary>
                <ul className="planning-approvals" aria-label={`Approved in ${cycle.name}`}>
                  {reopenable.map((worksheet) => (
                    <ApprovalCard key={worksheet.id} cycle={cycle} worksheet={worksheet} />
                  ))}
                </ul>
              </details>
            )}
          </Section>
        );
      }}
    </Loaded>
  );
}

/** /compensationplanning/approvals: worksheets awaiting the caller in every active cycle; approving works on a phone. */
export function ApprovalsScreen() {
  const cycles = useQuery('/api/v2/meritCycles');
  const [counts, setCounts] = useState<Record<string, number>>({});
  return (
    <PlanningFrame title="Approvals" icon={Inbox} description="Worksheets submitted to you: approve them, or send them back with what to change.">
      <Loaded data={cycles.data?.data} error={cycles.error} retry={() => void cycles.mutate()} skeleton={<SkeletonCards count={3} label="Loading your approvals" />}>
        {(list) => {
          const active = list.filter((cycle) => cycle.state === 'active');
          if (!active.length) {
            return (
              <Empty title="Nothing to approve" icon={CheckCircle2} action={<Link href="/compensationplanning">See the merit cycles</Link>}>
                Worksheets come here when their planners submit them to you, while a cycle is being planned.
              </Empty>
            );
          }
          const known = active.every((cycle) => counts[cycle.id] !== undefined);
          const none = known && active.every((cycle) => counts[cycle.id] === 0);
          return (
            <div className="planning-inbox">
              {active.map((cycle) => (
                <CycleInbox key={cycle.id} cycle={cycle} onCount={(count) => setCounts((current) => (current[cycle.id] === count ? current : { ...current, [cycle.id]: count }))} />
              ))}
              {none ? (
                <Empty title="Nothing waits for you" icon={CheckCircle2} action={<Link href="/compensationplanning">See the merit cycles</Link>}>
                  Worksheets come here when their planners submit them to you.
                </Empty>
              ) : (
                <p className="planning-muted planning-inbox-end">Worksheets submitted to you appear here as they arrive.</p>
              )}
            </div>
          );
        }}
      </Loaded>
    </PlanningFrame>
  );
}
