import { Download, Eye, Mail } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { TRY_AGAIN, api, errorMessage, statusOf, useQuery } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { PageHeader, Section } from '../../ui/Page';
import { SkeletonText } from '../../ui/Skeleton';
import { Empty, ErrorState } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { formatDate, formatMoney, formatNumber } from '../../ui/format';
import { useFollowedJob } from '../jobs/useFollowedJob';
import { can } from '../settings/permissions';
import { type LetterSummary, type LettersOfCycle, type Schemas, STATE_LABELS, changeText, formatWhen } from './common';
import { ReleasePanel, Reminders } from './ReleasePanel';

/** Every letter of the cycle as one ZIP of PDFs: a job, followed until its file is ready. */
function BulkExport({ cycleId }: { cycleId: string }) {
  const { job, running, start } = useFollowedJob();
  return (
    <div className="actions">
      <button type="button" onClick={() => void start(() => api.POST('/api/v2/meritCycles/{meritCycleId}/rewardLetters/exports', { params: { path: { meritCycleId: cycleId } } }))} disabled={running}>
        <Download size={18} aria-hidden="true" /> {running && job ? `Drawing the letters… ${job.progress}%` : 'Download every letter (ZIP of PDFs)'}
      </button>
      <span role="status">{job?.status === 'succeeded' && job.downloadId && <Link href={`/downloads/${job.downloadId}`}>Open the download</Link>}</span>
    </div>
  );
}

/** The cycle's template with the message, a preview for one employee, and saving (which issues every letter again). */
function TemplateEditor({ cycleId, letters, onSaved }: { cycleId: string; letters: LettersOfCycle; onSaved: () => void }) {
  const { add } = useToasts();
  const template = useQuery('/api/v2/meritCycles/{meritCycleId}/rewardLetters/template', { params: { path: { meritCycleId: cycleId } } });
  const [draft, setDraft] = useState<{ title: string; body: string; message: string } | null>(null);
  const [previewFor, setPreviewFor] = useState(letters.letters[0]?.employeeId ?? '');
  const [preview, setPreview] = useState<Schemas['RewardLetterDocument'] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const stored = template.data?.data;
  useEffect(() => {
    if (stored && !draft) setDraft({ title: stored.title, body: stored.body, message: stored.message });
  }, [stored, draft]);
  const { save, busy } = useVersionedSave((ifMatch: string, body: Schemas['RewardLetterTemplateInput']) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/rewardLetters/template', { params: { path: { meritCycleId: cycleId }, header: { 'If-Match': ifMatch } }, body }),
  );
  if (template.error) return <p role="alert">{errorMessage(template.error)}</p>;
  if (!stored || !draft) return <SkeletonText lines={4} label="Loading the template" />;
  async function showPreview() {
    if (!draft) return;
    const { data, error } = await api.POST('/api/v2/meritCycles/{meritCycleId}/rewardLetters/preview', { params: { path: { meritCycleId: cycleId } }, body: { employeeId: previewFor, ...draft } });
    if (error || !data) {
      setPreview(null);
      return setProblem(errorMessage(error, TRY_AGAIN));
    }
    setProblem(null);
    setPreview(data.data);
  }
  async function submit() {
    if (!draft || !stored) return;
    const result = await save(stored.version, draft);
    if (!result.ok) return setProblem(result.message);
    setProblem(null);
    await template.mutate();
    add('success', `Saved: ${formatNumber(letters.letterCount)} letters issued again from the new template.`);
    onSaved();
  }
  const editable = stored.editable;
  return (
    <Section title="Template" id="rl-template">
      {!editable && <p className="rl-muted">The letters are released, so they and their template no longer change.</p>}
      <div className="rl-template">
        <label>
          Title
          <input value={draft.title} readOnly={!editable} onChange={(event) => setDraft({ ...draft, title: event.target.value })} />
        </label>
        <label>
          Letter
          <textarea rows={14} value={draft.body} readOnly={!editable} onChange={(event) => setDraft({ ...draft, body: event.target.value })} />
        </label>
        <label>
          Message (<code>{'{{message}}'}</code>)
          <textarea rows={3} value={draft.message} readOnly={!editable} onChange={(event) => setDraft({ ...draft, message: event.target.value })} />
        </label>
        <details>
          <summary>Variables</summary>
          <dl className="rl-variables">
            {stored.variables.map((variable) => (
              <div key={variable.name}>
                <dt>
                  <code>{variable.kind === 'rows' ? `{{table ${variable.name}}}` : `{{${variable.name}}}`}</code>
                </dt>
                <dd>{variable.description}</dd>
              </div>
            ))}
          </dl>
        </details>
      </div>
      {problem && <p role="alert">{problem}</p>}
      <div className="actions">
        <label>
          Preview for{' '}
          <select value={previewFor} onChange={(event) => setPreviewFor(event.target.value)}>
            {letters.letters.map((letter) => (
              <option key={letter.employeeId} value={letter.employeeId}>
                {letter.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void showPreview()} disabled={!previewFor}>
          <Eye size={18} aria-hidden="true" /> Preview
        </button>
        {editable && (
          <button type="button" className="primary" onClick={() => void submit()} disabled={busy}>
            Save and issue the letters again
          </button>
        )}
      </div>
      {preview && (
        <div className="rl-preview" aria-label="Preview">
          {/* Written by the documents module from escaped text only. */}
          <div className="rl-document" role="region" aria-label={`Preview: ${preview.title}`} tabIndex={0} dangerouslySetInnerHTML={{ __html: preview.html }} />
        </div>
      )}
    </Section>
  );
}

type LetterFilter = 'all' | 'on' | 'off';

const FILTER_LABELS: Record<LetterFilter, string> = { all: 'Every letter', on: 'Switched on', off: 'Switched off' };

/**
 * One letter switched on or off before release, at the letter's version: on, it is written from the
 * template now; off, it is not written, released, reminded or exported.
 */
function LetterSwitch({ cycleId, letter, locked, onSwitched }: { cycleId: string; letter: LetterSummary; locked: boolean; onSwitched: () => void }) {
  const { save, busy } = useVersionedSave((ifMatch: string, enabled: boolean) =>
    api.PATCH('/api/v2/meritCycles/{meritCycleId}/rewardLetters/employees/{employeeId}', { params: { path: { meritCycleId: cycleId, employeeId: letter.employeeId }, header: { 'If-Match': ifMatch } }, body: { enabled } }),
  );
  const released = locked || letter.releasedAt !== null;
  return (
    <label className="rl-switch" title={released ? 'Released: it no longer changes.' : undefined}>
      <input
        type="checkbox"
        role="switch"
        checked={letter.enabled}
        disabled={busy || released}
        aria-label={`Letter for ${letter.name}`}
        onChange={async (event) => {
          const result = await save(letter.version, event.target.checked);
          if (result.ok) onSwitched();
        }}
      />
      <span>{letter.enabled ? 'On' : 'Off'}</span>
      {!letter.changesPay && <span className="rl-muted"> · no pay change</span>}
    </label>
  );
}

/** `/rewardletters/cycles/<cycle>`: the letters of a closed cycle for planners (managers see their reports' once released to them). */
export function CycleLettersScreen() {
  const { meritCycleId = '' } = useParams<{ meritCycleId: string }>();
  const person = usePerson().data?.data;
  const editsAll = can(person, 'compensationPlanning', 'edit', 'all');
  const { data, error, mutate } = useQuery('/api/v2/meritCycles/{meritCycleId}/rewardLetters', { params: { path: { meritCycleId } } });
  const letters = data?.data;
  const [filter, setFilter] = useState<LetterFilter>('all');
  if (error && !letters) {
    if (statusOf(error) === 404) {
      return (
        <>
          <PageHeader title="Reward letters" icon={Mail} />
          <Empty title="No letters for this cycle yet" icon={Mail} action={<Link href={`/compensationplanning/cycles/${meritCycleId}`}>Open the cycle</Link>}>
            {errorMessage(error)}
          </Empty>
        </>
      );
    }
    return <ErrorState error={error} retry={() => void mutate()} />;
  }
  if (!letters) return <SkeletonText lines={6} label="Loading the letters" />;
  const shownLetters = letters.letters.filter((letter) => filter === 'all' || letter.enabled === (filter === 'on'));
  return (
    <>
      <PageHeader
        title={`Reward letters: ${letters.cycleName}`}
        eyebrow={<Link href="/rewardletters">Reward letters</Link>}
        icon={Mail}
        description={`Effective ${formatDate(letters.effectiveDate)}. ${formatNumber(letters.letterCount)} letters, ${formatNumber(letters.releasedCount)} released, ${formatNumber(letters.viewedCount)} read, ${formatNumber(letters.confirmedCount)} confirmed${letters.disabledCount ? `; ${formatNumber(letters.disabledCount)} switched off` : ''}.`}
      />
      <Section title="Release" id="rl-release" actions={<Badge tone={letters.state === 'released' ? 'success' : letters.state === 'managers' ? 'info' : 'neutral'}>{STATE_LABELS[letters.state]}</Badge>}>
        <p className="rl-muted">
          {letters.releasedAt
            ? `Employees read their letters since ${formatWhen(letters.releasedAt)}.`
            : letters.releasedToManagersAt
              ? `Managers read their reports’ letters since ${formatWhen(letters.releasedToManagersAt)}; employees see nothing yet.`
              : letters.releasedCount
                ? `${formatNumber(letters.releasedCount)} of ${formatNumber(letters.letterCount)} employees read their letters; the others see nothing yet.`
                : 'Nobody but planners sees these letters yet. Release them to everyone, to one manager’s branch, or to managers first — now or on a date.'}
        </p>
        {editsAll && <ReleasePanel cycleId={meritCycleId} letters={letters} onChange={(next) => void mutate({ data: next }, { revalidate: false })} />}
        {editsAll && <Reminders cycleId={meritCycleId} letters={letters} />}
        {can(person, 'compensationPlanning', 'view', 'all') && letters.letterCount > 0 && <BulkExport cycleId={meritCycleId} />}
      </Section>
      {editsAll && <TemplateEditor cycleId={meritCycleId} letters={letters} onSaved={() => void mutate()} />}
      <Section
        title="Letters"
        id="rl-letters"
        actions={
          editsAll && letters.letters.length > 0 ? (
            <label className="rl-filter">
              Show{' '}
              <select value={filter} onChange={(event) => setFilter(event.target.value as LetterFilter)}>
                {(Object.keys(FILTER_LABELS) as LetterFilter[]).map((key) => (
                  <option key={key} value={key}>
                    {FILTER_LABELS[key]}
                  </option>
                ))}
              </select>
            </label>
          ) : undefined
        }
      >
        {editsAll && letters.letters.length > 0 && (
          <p className="rl-muted">
            By default a letter goes only to people whose pay the cycle changed. Switch a letter on or off before it is released: a letter switched off is not written, released, reminded or exported.
          </p>
        )}
        {shownLetters.length ? (
          <div className="rl-table-wrap">
            <table className="rl-table">
              <thead>
                <tr>
                  <th scope="col">Employee</th>
                  {editsAll && <th scope="col">Letter</th>}
                  <th scope="col">Manager</th>
                  <th scope="col">Base before</th>
                  <th scope="col">New base</th>
                  <th scope="col">Change</th>
                  <th scope="col">Released</th>
                  <th scope="col">Read</th>
                  <th scope="col">Confirmed</th>
                  <th scope="col">Reminded</th>
                </tr>
              </thead>
              <tbody>
                {shownLetters.map((letter) => (
                  <tr key={letter.employeeId} data-employee-id={letter.employeeId} className={letter.enabled ? undefined : 'rl-off'}>
                    <th scope="row">
                      {letter.name}
                      <span className="rl-muted"> · {letter.jobTitle}</span>
                    </th>
                    {editsAll && (
                      <td>
                        <LetterSwitch cycleId={meritCycleId} letter={letter} locked={letters.state === 'released'} onSwitched={() => void mutate()} />
                      </td>
                    )}
                    <td>{letter.managerName ?? '—'}</td>
                    <td className="rl-number">{formatMoney(letter.oldBase)}</td>
                    <td className="rl-number">{formatMoney(letter.newBase)}</td>
                    <td className="rl-number">{changeText(letter.changePercent)}</td>
                    <td>{letter.releasedAt ? formatWhen(letter.releasedAt) : 'Not yet'}</td>
                    <td>{letter.viewedAt ? formatWhen(letter.viewedAt) : 'Not yet'}</td>
                    <td>{letter.confirmedAt ? formatWhen(letter.confirmedAt) : 'Not yet'}</td>
                    <td>{letter.reminders ? `${formatWhen(letter.remindedAt ?? '')}${letter.reminders > 1 ? ` (${formatNumber(letter.reminders)}×)` : ''}` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : letters.letters.length ? (
          <p className="rl-muted">No letter is {filter === 'on' ? 'switched on' : 'switched off'}.</p>
        ) : (
          <p className="rl-muted">No letters in your reach {letters.state === 'draft' ? 'until the letters are released to managers' : ''}.</p>
        )}
      </Section>
    </>
  );
}
