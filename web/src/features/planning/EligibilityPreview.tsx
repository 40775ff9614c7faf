import { useState } from 'react';
import { api, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { SkeletonStats, SkeletonTable } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, ErrorState } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { type MeritCycle, Problem, type Schemas, formatNumber, refreshPlanning } from './common';

type Status = Schemas['EligibilityStatus'];

const STATUS_LABELS: Record<Status, string> = { eligible: 'Eligible', ineligible: 'Ineligible', excluded: 'Excluded' };
const STATUS_TONES = { eligible: 'success', ineligible: 'neutral', excluded: 'warning' } as const;
const PAGE = 200;

/** The evaluation of the saved rules, filtered by status, with exclusions by hand. */
export function EligibilityPreview({ cycle }: { cycle: MeritCycle }) {
  const [status, setStatus] = useState<Status | 'all'>('all');
  const [shown, setShown] = useState(PAGE);
  const [excluding, setExcluding] = useState<Schemas['EligibilityEntry'] | null>(null);
  const reply = useQuery('/api/v2/meritCycles/{meritCycleId}/eligibility', { params: { path: { meritCycleId: cycle.id } } });
  const data = reply.data?.data;
  const rows = (data?.employees ?? []).filter((entry) => status === 'all' || entry.status === status);
  const canExclude = cycle.state === 'draft';
  return (
    <Section title="Preview" id="cycle-eligibility-preview">
      {reply.error ? (
        <ErrorState error={reply.error} retry={() => void reply.mutate()} />
      ) : !data ? (
        <>
          <SkeletonStats count={3} label="Evaluating the rules" />
          <SkeletonTable rows={6} columns={4} label="Loading the people" />
        </>
      ) : (
        <>
          <StatGrid label="Eligibility counts">
            <StatCard label="Eligible" value={formatNumber(data.counts.eligible)} hint={`of ${formatNumber(data.counts.employees)} people`} testId="eligible-count" />
            <StatCard label="Ineligible" value={formatNumber(data.counts.ineligible)} testId="ineligible-count" />
            <StatCard label="Excluded by hand" value={formatNumber(data.counts.excluded)} testId="excluded-count" />
          </StatGrid>
          <div className="planning-row" role="group" aria-label="Show">
            <label>
              Show
              <select value={status} onChange={(event) => setStatus(event.target.value as Status | 'all')}>
                <option value="all">Everyone</option>
                {(Object.keys(STATUS_LABELS) as Status[]).map((value) => (
                  <option key={value} value={value}>
                    {STATUS_LABELS[value]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {rows.length === 0 ? (
            <Empty title="Nobody here" compact headingLevel={3}>
              {status === 'all' ? 'The company has no active employees in reach.' : `Nobody is ${STATUS_LABELS[status].toLowerCase()} under these rules.`}
            </Empty>
          ) : (
            <div className="table-scroll table-cards" role="region" aria-label="People and their eligibility" tabIndex={0}>
              <table role="table">
                <caption className="visually-hidden">People and their eligibility, with the reasons</caption>
                <thead role="rowgroup">
                  <tr role="row">
                    <th scope="col" role="columnheader">
                      Name
                    </th>
                    <th scope="col" role="columnheader">
                      Department
                    </th>
                    <th scope="col" role="columnheader">
                      Status
                    </th>
                    <th scope="col" role="columnheader">
                      Why
                    </th>
                    {canExclude && (
                      <th scope="col" role="columnheader">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody role="rowgroup">
                  {rows.slice(0, shown).map((entry) => (
                    <tr key={entry.employeeId} role="row" data-employee-id={entry.employeeId} data-status={entry.status}>
                      <th scope="row" role="rowheader">
                        {entry.name}
                      </th>
                      <td role="cell" data-label="Department">
                        {entry.department ?? '—'}
                      </td>
                      <td role="cell" data-label="Status">
                        <Badge tone={STATUS_TONES[entry.status]}>{STATUS_LABELS[entry.status]}</Badge>
                        {entry.status === 'eligible' && entry.proration.factor < 1 && <span className="planning-muted"> prorated {Math.round(entry.proration.factor * 100)}%</span>}
                      </td>
                      <td role="cell" data-label="Why">
                        {entry.status === 'excluded' ? entry.excludedReason ?? 'Excluded by hand' : entry.reasons.join('; ') || '—'}
                      </td>
                      {canExclude && (
                        <td role="cell" data-label="Actions">
                          <button type="button" className="small ghost" onClick={() => setExcluding(entry)} aria-label={`${entry.status === 'excluded' ? 'Include' : 'Exclude'} ${entry.name}`}>
                            {entry.status === 'excluded' ? 'Include again' : 'Exclude'}
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {rows.length > shown && (
            <button type="button" onClick={() => setShown(shown + PAGE)}>
              Show {formatNumber(Math.min(PAGE, rows.length - shown))} more of {formatNumber(rows.length - shown)}
            </button>
          )}
        </>
      )}
      {excluding && <ExclusionDialog cycle={cycle} entry={excluding} onClose={() => setExcluding(null)} />}
    </Section>
  );
}

/** Excludes a person by hand with a reason, or takes the exclusion back. */
function ExclusionDialog({ cycle, entry, onClose }: { cycle: MeritCycle; entry: Schemas['EligibilityEntry']; onClose: () => void }) {
  const { add } = useToasts();
  const excluded = entry.status === 'excluded';
  const [reason, setReason] = useState('');
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  async function confirm() {
    const result = await run(() =>
      api.PUT('/api/v2/meritCycles/{meritCycleId}/eligibility/exclusions/{employeeId}', {
        params: { path: { meritCycleId: cycle.id, employeeId: entry.employeeId } },
        body: excluded ? { excluded: false } : { excluded: true, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      }),
    );
    if (!result.ok) return;
    await refreshPlanning();
    add('success', excluded ? `${entry.name} is evaluated by the rules again.` : `${entry.name} is excluded.`);
    onClose();
  }
  return (
    <Modal
      title={excluded ? `Include ${entry.name} again?` : `Exclude ${entry.name}?`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="primary" disabled={busy || (!excluded && !reason.trim())} onClick={() => void confirm()}>
            {excluded ? 'Include again' : 'Exclude'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      {excluded ? (
        <p>The rules decide again whether {entry.name} is eligible.</p>
      ) : (
        <label>
          Reason (required)
          <textarea value={reason} rows={3} maxLength={500} onChange={(event) => setReason(event.target.value)} />
        </label>
      )}
      <Problem message={problem?.message ?? null} />
    </Modal>
  );
}
