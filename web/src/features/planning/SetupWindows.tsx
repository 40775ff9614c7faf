import { type FormEvent, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { Section } from '../../ui/Page';
import { useToasts } from '../../ui/Toasts';
import { Problem, type Schemas, fromLocalInput, toLocalInput } from './common';
import { NextStep, type SectionProps } from './sections';
import { changeable, useCycleSave } from './cycleSave';

// ── planning windows ─────────────────────────────────────────────────────────────────────────

type Stage = 'planning' | 'review';
const STAGE_LABELS: Record<Stage, string> = { planning: 'Planning (managers plan)', review: 'Review (approvers act)' };

export function WindowsSection({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const states = useQuery('/api/v2/meritCycles/{meritCycleId}/planningWindows', { params: { path: { meritCycleId: cycle.id } } });
  const initial = (stage: Stage) => {
    const window = cycle.planningWindows.find((entry) => entry.stage === stage);
    return { on: Boolean(window), opens: toLocalInput(window?.opensAt), closes: toLocalInput(window?.closesAt) };
  };
  const [windows, setWindows] = useState({ planning: initial('planning'), review: initial('review') });
  const [noticeHours, setNoticeHours] = useState(String(cycle.closingNoticeHours));
  const [local, setLocal] = useState<string | null>(null);
  const save = useCycleSave((ifMatch, body: { windows: Schemas['PlanningWindow'][]; closingNoticeHours: number }) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/planningWindows', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLocal(null);
    const body: Schemas['PlanningWindow'][] = [];
    for (const stage of ['planning', 'review'] as const) {
      const window = windows[stage];
      if (!window.on) continue;
      const opensAt = fromLocalInput(window.opens);
      const closesAt = fromLocalInput(window.closes);
      if (!opensAt || !closesAt) return setLocal(`The ${stage} window needs when it opens and when it closes.`);
      body.push({ stage, opensAt, closesAt });
    }
    const closingNoticeHours = Number(noticeHours.trim());
    if (noticeHours.trim() === '' || !Number.isInteger(closingNoticeHours) || closingNoticeHours < 0 || closingNoticeHours > 720) {
      return setLocal('The notice before a window closes needs whole hours from 0 (no notice) to 720.');
    }
    const result = await save.submit(cycle.version, { windows: body, closingNoticeHours });
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The planning windows are saved.');
  }

  /** From now for two weeks: the common case, in one press. */
  function openNow(stage: Stage) {
    const now = new Date();
    const later = new Date(now.getTime() + 14 * 24 * 3600_000);
    setWindows({ ...windows, [stage]: { on: true, opens: toLocalInput(new Date(now.getTime() - 60_000).toISOString()), closes: toLocalInput(later.toISOString()) } });
  }

  const editable = changeable(cycle);
  return (
    <>
      <Section title="Planning windows" id="cycle-windows">
        <p className="planning-muted">Outside its window a stage is read-only. A stage without a window is open while the cycle is active.</p>
        <form className="planning-form" aria-label="Planning windows" onSubmit={(event) => void submit(event)}>
          <fieldset disabled={!editable} className="planning-plain">
            {(['planning', 'review'] as const).map((stage) => {
              const window = windows[stage];
              const state = states.data?.data.find((entry) => entry.stage === stage);
              return (
                <fieldset key={stage} className="planning-window">
                  <legend>{STAGE_LABELS[stage]}</legend>
                  {state && cycle.state === 'active' && <p className="planning-muted">{state.open ? 'Open now.' : 'Closed now.'}</p>}
                  <label className="check">
                    <input type="checkbox" checked={window.on} onChange={(event) => setWindows({ ...windows, [stage]: { ...window, on: event.target.checked } })} /> Set a window
                  </label>
                  {window.on && (
                    <div className="planning-row">
                      <label>
                        Opens
                        <input type="datetime-local" value={window.opens} onChange={(event) => setWindows({ ...windows, [stage]: { ...window, opens: event.target.value } })} />
                      </label>
                      <label>
                        Closes
                        <input type="datetime-local" value={window.closes} onChange={(event) => setWindows({ ...windows, [stage]: { ...window, closes: event.target.value } })} />
                      </label>
                    </div>
                  )}
                  {editable && (
                    <button type="button" className="small" onClick={() => openNow(stage)}>
                      Open from now for two weeks
                    </button>
                  )}
                </fieldset>
              );
            })}
            <label>
              Remind who has not finished, hours before a window closes (0: no reminder)
              <input inputMode="numeric" size={4} value={noticeHours} onChange={(event) => setNoticeHours(event.target.value)} aria-describedby="cycle-notice-hint" />
            </label>
            <p className="planning-muted" id="cycle-notice-hint">
              Planners who have not submitted, and reviewers whose turn it is, are told once by e-mail and in the app, as each chose in their notification settings.
            </p>
          </fieldset>
          <Problem message={local} />
          {save.problem}
          {editable && (
            <div className="actions">
              <button type="submit" className="primary" disabled={save.busy}>
                Save windows
              </button>
            </div>
          )}
        </form>
      </Section>
      <NextStep cycle={cycle} after="windows" />
    </>
  );
}
