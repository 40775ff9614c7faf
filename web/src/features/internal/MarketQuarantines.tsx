import { type FormEvent } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { FormProblem } from '../../ui/FormProblem';
import { PageHeader } from '../../ui/Page';
import { FailureScreen } from '../../ui/Screens';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useToasts } from '../../ui/Toasts';
import { ReviewList } from './ReviewList';
import './internal.css';

type Quarantine = components['schemas']['MarketQuarantine'];
type Check = Quarantine['findings'][number]['check'];

const CHECK_TEXT: Record<Check, string> = {
  ladder: 'Evenly spaced ladder of pay',
  duplicated_amounts: 'Duplicated amounts',
  copied_amounts: 'Amounts copied from another participant',
  far_outside_range: 'Pay far outside every other participant’s range',
  headcount_jump: 'Sudden head-count jump',
};

/** Where a hold stands: released or kept (and by whom), taken into a build, or waiting for a decision. */
function Status({ hold }: { hold: Quarantine }) {
  if (hold.outcome === 'released') return <Badge tone="info">Released into this build</Badge>;
  if (hold.appliedReleaseVersion) return <Badge tone="success">Taken into {hold.appliedReleaseVersion}</Badge>;
  if (hold.decision?.action === 'release') return <Badge tone="info">Released for the next build</Badge>;
  if (hold.decision?.action === 'keep') return <Badge tone="neutral">Kept held back</Badge>;
  return <Badge tone="warning">Awaiting review</Badge>;
}

function Decide({ hold, onDecided }: { hold: Quarantine; onDecided: () => Promise<unknown> }) {
  const { add } = useToasts();
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const action = submitter?.value === 'keep' ? 'keep' : 'release';
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
    const result = await run(() => api.POST('/api/internal/market/quarantines/{quarantineId}/decision', { params: { path: { quarantineId: hold.id } }, body: { action, reason } }));
    if (!result.ok) return;
    add('success', action === 'release' ? `${hold.company.name}’s contribution goes into the next build.` : `${hold.company.name}’s contribution stays held back.`);
    await onDecided();
  }
  return (
    <form className="quarantine-decision" onSubmit={(event) => void submit(event)} aria-label={`Decide on ${hold.company.name}’s contribution`}>
      <FormProblem message={problem?.message ?? null} />
      <label>
        Reason (recorded)
        <textarea name="reason" required maxLength={2000} rows={2} />
      </label>
      <div className="actions">
        <button type="submit" name="action" value="release" className="primary" disabled={busy}>
          Release into the next build
        </button>
        <button type="submit" name="action" value="keep" className="ghost" disabled={busy}>
          Keep held back
        </button>
      </div>
    </form>
  );
}

/** One held-back contribution: whose, which build, what the checks found, and the decision. */
function Hold({ hold, latest, onDecided }: { hold: Quarantine; latest: boolean; onDecided: () => Promise<unknown> }) {
  const decidable = hold.outcome === 'quarantined' && !hold.appliedReleaseVersion && latest;
  return (
    <article className="card quarantine" aria-labelledby={`hold-${hold.id}`}>
      <header>
        <h2 id={`hold-${hold.id}`}>{hold.company.name}</h2>
        <Status hold={hold} />
      </header>
      <p className="muted">
        Release {hold.releaseVersion}, {new Date(hold.heldAt).toLocaleString()} · {hold.records.toLocaleString()} records
        {hold.previousRecords !== null ? ` (${hold.previousRecords.toLocaleString()} in its previous contribution)` : ' (first contribution)'}
      </p>
      <ul className="findings" aria-label="What the checks found">
        {hold.findings.map((finding, k) => (
          <li key={k} data-check={finding.check}>
            <strong>{CHECK_TEXT[finding.check]}</strong>: {finding.message}
            {finding.otherCompany && ` — ${finding.otherCompany.name}`}
          </li>
        ))}
      </ul>
      {hold.decision && (
        <p>
          {hold.decision.action === 'release' ? 'Released' : 'Kept'} by {hold.decision.decidedBy ?? 'a former admin'} on {new Date(hold.decision.decidedAt).toLocaleString()}: “{hold.decision.reason}”
        </p>
      )}
      {decidable && <Decide hold={hold} onDecided={onDecided} />}
    </article>
  );
}

/** Internal admins: contributions the plausibility checks held back from a release, and the decision on each. */
export function MarketQuarantinesScreen() {
  const person = usePerson().data?.data;
  const holds = useQuery('/api/internal/market/quarantines', person?.isInternalAdmin ? {} : null);
  if (!person) return <FullSizeSpinner loading />;
  if (!person.isInternalAdmin) {
    return <FailureScreen title="Permission denied" description="You do not have access to this content. Please contact your company admin for support." />;
  }
  const list = holds.data?.data ?? [];
  // Only a company's latest hold is decided: a later build screened it again.
  const latest = new Set<string>();
  const seen = new Set<string>();
  for (const hold of list) {
    if (seen.has(hold.company.id)) continue;
    seen.add(hold.company.id);
    latest.add(hold.id);
  }
  return (
    <>
      <PageHeader
        title="Held-back market contributions"
        description="Contributions the plausibility checks held back from a release build, with what they found. Release one into the next build, or keep it held back; the reason is recorded. The company is told only that its contribution was held back for review."
      />
      <ReviewList answer={holds} loading="Loading held-back contributions…" empty="No contribution has been held back.">
        {(rows) => (
          <div className="quarantine-list">
            {rows.map((hold) => (
              <Hold key={hold.id} hold={hold} latest={latest.has(hold.id)} onDecided={() => holds.mutate()} />
            ))}
          </div>
        )}
      </ReviewList>
    </>
  );
}
