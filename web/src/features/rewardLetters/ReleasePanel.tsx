import { BellRing, CalendarClock, Send, X } from 'lucide-react';
import { useId, useState } from 'react';
import { api } from '../../api/client';
import { useMutation, useVersionedSave } from '../../api/queries';
import { useToasts } from '../../ui/Toasts';
import { formatNumber } from '../../ui/format';
import { type LettersOfCycle, type Schemas, formatWhen } from './common';

type Audience = Schemas['RewardLetterReleaseAudience'];

/** A `datetime-local` value (the planner's own clock) as a UTC instant; empty means now. */
const instantOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);

const AUDIENCE_LABELS: Record<Audience, string> = { all: 'Everyone', branch: 'One branch', managers: 'Managers first' };

function releaseText(release: Schemas['RewardLetterRelease']): string {
  const who = release.audience === 'branch' ? `${release.managerName ?? 'a manager'}’s branch` : release.audience === 'all' ? 'everyone' : 'managers';
  return `To ${who} on ${formatWhen(release.releaseAt)}`;
}

const STATUS_TEXT: Record<Schemas['RewardLetterRelease']['status'], string> = { scheduled: 'Planned', done: 'Done', cancelled: 'Called off', failed: 'Could not run' };

/**
 * Releasing the letters (whole-company planners): to everyone, to one manager's branch, or to managers
 * first; now or planned for a moment; planned releases listed with a way to call them off.
 */
export function ReleasePanel({ cycleId, letters, onChange }: { cycleId: string; letters: LettersOfCycle; onChange: (letters: LettersOfCycle) => void }) {
  const { add } = useToasts();
  const ids = useId();
  const canManagers = letters.availableActions.includes('releaseToManagers');
  const canEveryone = letters.availableActions.includes('releaseToEmployees');
  const open = letters.branches.filter((branch) => branch.released < branch.letters);
  const [audience, setAudience] = useState<Audience>(canEveryone ? 'all' : 'branch');
  const [branch, setBranch] = useState(open[0]?.managerEmployeeId ?? '');
  const [when, setWhen] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave((ifMatch: string, body: Schemas['RewardLetterReleaseInput']) =>
    api.POST('/api/v2/meritCycles/{meritCycleId}/rewardLetters/releases', { params: { path: { meritCycleId: cycleId }, header: { 'If-Match': ifMatch } }, body }),
  );
  const cancel = useVersionedSave((ifMatch: string, releaseId: string) =>
    api.DELETE('/api/v2/meritCycles/{meritCycleId}/rewardLetters/releases/{releaseId}', { params: { path: { meritCycleId: cycleId, releaseId }, header: { 'If-Match': ifMatch } } }),
  );
  const options: Audience[] = [...(canEveryone ? (['all'] as const) : []), ...(open.length ? (['branch'] as const) : []), ...(canManagers ? (['managers'] as const) : [])];
  const chosen = options.includes(audience) ? audience : options[0];

  async function submit() {
    if (!chosen) return;
    const releaseAt = instantOf(when);
    const body: Schemas['RewardLetterReleaseInput'] = { audience: chosen, ...(chosen === 'branch' ? { managerEmployeeId: branch || open[0]?.managerEmployeeId } : {}), ...(releaseAt ? { releaseAt } : {}) };
    const result = await save(letters.version, body);
    if (!result.ok) return setProblem(result.message);
    setProblem(null);
    setWhen('');
    onChange(result.data.data);
    const target = chosen === 'branch' ? `${letters.branches.find((item) => item.managerEmployeeId === body.managerEmployeeId)?.name ?? 'the'}’s branch` : chosen === 'all' ? 'everyone' : 'managers';
    add('success', releaseAt ? `Release to ${target} planned for ${formatWhen(releaseAt)}.` : `Released to ${target}.`);
  }

  async function callOff(releaseId: string) {
    const result = await cancel.save(letters.version, releaseId);
    if (!result.ok) return setProblem(result.message);
    onChange(result.data.data);
    add('success', 'The planned release is called off.');
  }

  return (
    <div className="rl-release">
      {options.length > 0 && chosen && (
        <fieldset className="rl-release-form">
          <legend>Release to</legend>
          <div className="rl-choices" role="radiogroup" aria-label="Release to">
            {options.map((option) => (
              <label key={option}>
                <input type="radio" name={`${ids}-audience`} value={option} checked={chosen === option} onChange={() => setAudience(option)} /> {AUDIENCE_LABELS[option]}
              </label>
            ))}
          </div>
          {chosen === 'branch' && (
            <label>
              Branch of
              <select value={branch || open[0]?.managerEmployeeId} onChange={(event) => setBranch(event.target.value)}>
                {open.map((item) => (
                  <option key={item.managerEmployeeId} value={item.managerEmployeeId}>
                    {item.name} ({formatNumber(item.letters - item.released)} of {formatNumber(item.letters)} letters to release)
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            On a date (leave empty for now)
            <input type="datetime-local" value={when} onChange={(event) => setWhen(event.target.value)} />
          </label>
          <div className="actions">
            <button type="button" className="primary" disabled={busy} onClick={() => void submit()}>
              {when ? <CalendarClock size={18} aria-hidden="true" /> : <Send size={18} aria-hidden="true" />} {when ? 'Plan the release' : 'Release now'}
            </button>
          </div>
        </fieldset>
      )}
      {problem && <p role="alert">{problem}</p>}
      {letters.releases.length > 0 && (
        <ul className="rl-releases" aria-label="Planned releases">
          {letters.releases.map((release) => (
            <li key={release.id}>
              <span>{releaseText(release)}</span> <span className="rl-muted">{STATUS_TEXT[release.status]}{release.outcome ? `: ${release.outcome}` : ''}</span>
              {release.status === 'scheduled' && (
                <button type="button" disabled={cancel.busy} onClick={() => void callOff(release.id)} aria-label={`Call off: ${releaseText(release)}`}>
                  <X size={16} aria-hidden="true" /> Call off
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** E-mails everyone with a released letter they have not confirmed: now, or at a chosen moment. */
export function Reminders({ cycleId, letters }: { cycleId: string; letters: LettersOfCycle }) {
  const { add } = useToasts();
  const [when, setWhen] = useState('');
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  const unconfirmed = letters.letters.filter((letter) => letter.releasedAt && !letter.confirmedAt).length;
  if (!letters.releasedCount) return null;
  async function send() {
    const sendAt = instantOf(when);
    const result = await run(() => api.POST('/api/v2/meritCycles/{meritCycleId}/rewardLetters/reminders', { params: { path: { meritCycleId: cycleId } }, body: sendAt ? { sendAt } : {} }));
    if (!result.ok) return;
    setWhen('');
    const { unconfirmed: count, withoutEmail } = result.data.data;
    const missing = withoutEmail ? ` ${formatNumber(withoutEmail)} without a sign-in cannot be e-mailed.` : '';
    add('success', `${sendAt ? `Reminders planned for ${formatWhen(sendAt)}` : 'Reminders on their way'}: ${formatNumber(count)} ${count === 1 ? 'person has' : 'people have'} not confirmed.${missing}`);
  }
  return (
    <div className="rl-reminders">
      <p className="rl-muted">
        {unconfirmed ? `${formatNumber(unconfirmed)} of ${formatNumber(letters.releasedCount)} released letters are not confirmed yet.` : 'Every released letter is confirmed.'}
      </p>
      {unconfirmed > 0 && (
        <div className="actions">
          <label>
            Send on (leave empty for now)
            <input type="datetime-local" value={when} onChange={(event) => setWhen(event.target.value)} />
          </label>
          <button type="button" disabled={busy} onClick={() => void send()}>
            <BellRing size={18} aria-hidden="true" /> {when ? 'Plan reminders' : `Remind the ${formatNumber(unconfirmed)} who have not confirmed`}
          </button>
        </div>
      )}
      {problem && <p role="alert">{problem.message}</p>}
    </div>
  );
}
