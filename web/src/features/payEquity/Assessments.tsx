import { useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { invalidate, useMutation, useVersionedSave } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { formatNumber } from '../../ui/format';
import { useToasts } from '../../ui/Toasts';
import { type Adjusted, type Assessment, percent } from './payEquityModel';

// Joint pay assessments, and sending the cost to close to a merit cycle.

export function AssessmentItem({ assessment, canEdit }: { assessment: Assessment; canEdit: boolean }) {
  const [justification, setJustification] = useState(assessment.justification ?? '');
  const [plan, setPlan] = useState(assessment.remediationPlan ?? '');
  const { save, busy } = useVersionedSave((ifMatch: string, body: { status?: Assessment['status']; justification?: string | null; remediationPlan?: string | null }) =>
    api.PATCH('/api/pay-equity/assessments/{assessmentId}', { params: { path: { assessmentId: assessment.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function record(status: Assessment['status']) {
    const result = await save(assessment.version, status === 'justified' ? { status, justification } : { status, remediationPlan: plan });
    if (result.ok) await Promise.all([invalidate('/api/pay-equity/assessments'), invalidate('/api/pay-equity/report')]);
  }
  return (
    <article className="pe-assessment" data-testid="assessment">
      <h3>
        {assessment.categoryName} — {percent(assessment.gap)} ({assessment.legalEntity ?? 'all legal entities'}, {assessment.year}) <Badge tone={assessment.status === 'open' ? 'warning' : 'success'}>{assessment.status}</Badge>
      </h3>
      <p className="pe-muted">
        Flagged {assessment.flaggedOn}; due {assessment.dueDate} (six months).
      </p>
      <label>
        Objective, gender-neutral justification
        <textarea value={justification} disabled={!canEdit} onChange={(event) => setJustification(event.target.value)} />
      </label>
      <label>
        Remediation plan
        <textarea value={plan} disabled={!canEdit} onChange={(event) => setPlan(event.target.value)} />
      </label>
      {canEdit && (
        <div>
          <button type="button" disabled={busy || !justification.trim()} onClick={() => void record('justified')}>
            Record justification
          </button>{' '}
          <button type="button" disabled={busy || !plan.trim()} onClick={() => void record('remediation')}>
            Record remediation plan
          </button>
        </div>
      )}
    </article>
  );
}

export type Sent = components['schemas']['PayEquityAdjustmentsSent'];

/** Sends the cost to close to a merit cycle that is running (launched, not closed) as pay equity adjustments. */
export function SendToCycle({ year, adjusted }: { year: number; adjusted: Adjusted }) {
  const legalEntity = adjusted.legalEntity ?? undefined;
  const cycles = useQuery('/api/v2/meritCycles');
  const { run, busy } = useMutation();
  const { add } = useToasts();
  const [cycleId, setCycleId] = useState('');
  const [result, setResult] = useState<Sent | null>(null);
  const open = (cycles.data?.data ?? []).filter((cycle) => cycle.state === 'active' || cycle.state === 'draft');
  const chosen = open.find((cycle) => cycle.id === cycleId) ?? open[0];
  async function send() {
    if (!chosen) return;
    const answer = await run(() => api.POST('/api/pay-equity/adjusted-gap/merit-cycles/{meritCycleId}', { params: { path: { meritCycleId: chosen.id }, header: { 'If-Match': `"${chosen.version}"` } }, body: { year, controls: adjusted.controls.join(','), ...(legalEntity ? { legalEntity } : {}) } }), { invalidates: '/api/v2/meritCycles' });
    if (answer.ok) {
      setResult(answer.data.data);
      add('success', `Sent ${formatNumber(answer.data.data.sent.length)} pay equity adjustments to ${chosen.name}.`);
    }
  }
  if (cycles.error) return <p className="pe-muted">Compensation planning is not available, so raises cannot be sent to a merit cycle.</p>;
  if (!open.length) return <p className="pe-muted">No merit cycle is being set up or running: create one in compensation planning to send these raises to it.</p>;
  return (
    <div className="pe-send" data-testid="send-to-cycle">
      <p className="pe-muted">
        Plans each of the {formatNumber(adjusted.costToClose.people)} raises as a pay equity adjustment on the person’s row; sending again replaces them.
      </p>
      <div className="pe-toolbar">
        <label>
          Merit cycle
          <select value={chosen?.id ?? ''} onChange={(event) => setCycleId(event.target.value)}>
            {open.map((cycle) => (
              <option key={cycle.id} value={cycle.id}>
                {cycle.state === 'draft' ? `${cycle.name} (being set up: planned at launch)` : cycle.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="primary" disabled={busy} onClick={() => void send()}>
          Send raises to the cycle
        </button>
      </div>
      {result && (
        <div role="status">
          <p data-testid="sent-summary">
            {formatNumber(result.sent.length)} sent{result.removed ? `, ${formatNumber(result.removed)} earlier adjustments removed` : ''}, {formatNumber(result.notSent.length)} not sent.
          </p>
          {result.notSent.length > 0 && (
            <ul className="pe-not-sent">
              {result.notSent.map((entry) => (
                <li key={entry.employeeId}>
                  {entry.name || entry.employeeId}: {entry.reason}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
