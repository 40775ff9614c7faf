import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { useDebounced } from '../../ui/hooks';
import { Section } from '../../ui/Page';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { useToasts } from '../../ui/Toasts';
import { NextStep, type SectionProps } from './sections';
import { Problem, type Schemas, formatNumber } from './common';
import { useCycleSave } from './cycleSave';
import { EligibilityPreview } from './EligibilityPreview';

type Condition = Schemas['EligibilityCondition'];
type Kind = Condition['kind'];

/** A rule as the editor holds it: numbers and lists as typed, turned into the contract's shape to save. */
interface RuleDraft {
  kind: Kind;
  rules?: RuleDraft[];
  onLeave?: boolean;
  date?: string;
  months?: string;
  values?: string;
}

const KIND_LABELS: Record<Kind, string> = {
  all: 'All of these (AND)',
  any: 'Any of these (OR)',
  hiredBefore: 'Hired before',
  monthsSinceLastPayChange: 'Months since the last pay change, at least',
  employmentType: 'Employment type is',
  country: 'Country is (ISO codes, e.g. US, GB)',
  department: 'Department is',
  ratingPresent: 'Has a performance rating',
  onLeave: 'Leave on the effective date (or a cutoff)',
};
const EMPLOYMENT_TYPES = [
  ['full_time', 'Full time'],
  ['part_time', 'Part time'],
  ['contractor', 'Contractor'],
  ['intern', 'Intern'],
] as const;
const MAX_DEPTH = 4;

const isGroup = (kind: Kind) => kind === 'all' || kind === 'any';

function draftOf(condition: Condition): RuleDraft {
  return {
    kind: condition.kind,
    ...(condition.rules ? { rules: condition.rules.map(draftOf) } : {}),
    ...(condition.date ? { date: condition.date } : {}),
    ...(condition.months !== undefined ? { months: String(condition.months) } : {}),
    ...(condition.values ? { values: condition.values.join(', ') } : {}),
    ...(condition.onLeave !== undefined ? { onLeave: condition.onLeave } : {}),
  };
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** The contract's condition, or why the draft is not one yet (an unfinished rule is not saved). */
function conditionOf(draft: RuleDraft): Condition | string {
  switch (draft.kind) {
    case 'all':
    case 'any': {
      const rules: Condition[] = [];
      for (const rule of draft.rules ?? []) {
        const condition = conditionOf(rule);
        if (typeof condition === 'string') return condition;
        rules.push(condition);
      }
      return { kind: draft.kind, rules };
    }
    case 'hiredBefore':
      return draft.date ? { kind: draft.kind, date: draft.date } : 'A “hired before” rule needs a date.';
    case 'monthsSinceLastPayChange': {
      const months = Number(draft.months);
      return draft.months && Number.isInteger(months) && months >= 0 ? { kind: draft.kind, months } : 'A “months since the last pay change” rule needs a whole number of months.';
    }
    case 'employmentType':
    case 'department':
    case 'country': {
      const values = list(draft.values).map((value) => (draft.kind === 'country' ? value.toUpperCase() : value));
      return values.length ? { kind: draft.kind, values } : `A “${KIND_LABELS[draft.kind].toLowerCase()}” rule needs at least one value.`;
    }
    case 'ratingPresent':
      return { kind: draft.kind };
    case 'onLeave':
      return { kind: draft.kind, onLeave: draft.onLeave ?? false, ...(draft.date ? { date: draft.date } : {}) };
  }
}

function RuleEditor({ rule, name, onChange, onRemove, depth, disabled }: { rule: RuleDraft; name: string; onChange: (rule: RuleDraft) => void; onRemove?: () => void; depth: number; disabled: boolean }) {
  const kinds = (Object.keys(KIND_LABELS) as Kind[]).filter((kind) => !isGroup(kind) || depth < MAX_DEPTH - 1);
  const chosen = list(rule.values);
  const id = useId();
  return (
    <div className={isGroup(rule.kind) ? 'planning-rule group' : 'planning-rule'}>
      <div className="planning-rule-head">
        {depth === 0 && <label htmlFor={id}>{name}</label>}
        <select
          id={id}
          aria-label={depth === 0 ? undefined : name}
          value={rule.kind}
          disabled={disabled}
          onChange={(event) => onChange({ kind: event.target.value as Kind, ...(isGroup(event.target.value as Kind) ? { rules: rule.rules ?? [] } : {}) })}
        >
          {kinds
            .filter((kind) => depth > 0 || isGroup(kind))
            .map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
        </select>
        {rule.kind === 'hiredBefore' && <input type="date" aria-label={`${name}: hired before`} value={rule.date ?? ''} disabled={disabled} onChange={(event) => onChange({ ...rule, date: event.target.value })} />}
        {rule.kind === 'onLeave' && (
          <>
            <select aria-label={`${name}: on leave or not`} value={rule.onLeave ? 'on' : 'off'} disabled={disabled} onChange={(event) => onChange({ ...rule, onLeave: event.target.value === 'on' })}>
              <option value="off">is not on leave</option>
              <option value="on">is on leave</option>
            </select>
            <input type="date" aria-label={`${name}: on this day (empty: the effective date)`} value={rule.date ?? ''} disabled={disabled} onChange={(event) => onChange({ ...rule, date: event.target.value || undefined })} />
          </>
        )}
        {rule.kind === 'monthsSinceLastPayChange' && (
          <input type="number" aria-label={`${name}: months since the last pay change`} min={0} max={240} value={rule.months ?? ''} disabled={disabled} onChange={(event) => onChange({ ...rule, months: event.target.value })} size={4} />
        )}
        {rule.kind === 'employmentType' && (
          <fieldset className="planning-inline-checks">
            <legend className="visually-hidden">{`${name}: employment types`}</legend>
            {EMPLOYMENT_TYPES.map(([value, label]) => (
              <label key={value} className="check">
                <input
                  type="checkbox"
                  disabled={disabled}
                  checked={chosen.includes(value)}
                  onChange={() => onChange({ ...rule, values: (chosen.includes(value) ? chosen.filter((entry) => entry !== value) : [...chosen, value]).join(', ') })}
                />
                {label}
              </label>
            ))}
          </fieldset>
        )}
        {(rule.kind === 'country' || rule.kind === 'department') && (
          <input
            aria-label={`${name}: ${rule.kind === 'country' ? 'country codes' : 'departments'}, separated by commas`}
            value={rule.values ?? ''}
            disabled={disabled}
            list={rule.kind === 'department' ? 'planning-departments' : undefined}
            placeholder={rule.kind === 'country' ? 'US, GB' : 'Engineering, Sales'}
            onChange={(event) => onChange({ ...rule, values: event.target.value })}
          />
        )}
        {onRemove && !disabled && (
          <button type="button" className="ghost icon-button" aria-label={`Remove ${name}`} onClick={onRemove}>
            <Trash2 size={18} aria-hidden="true" />
          </button>
        )}
      </div>
      {isGroup(rule.kind) && (
        <div className="planning-rule-children">
          {(rule.rules ?? []).map((child, index) => (
            <RuleEditor
              key={index}
              rule={child}
              name={depth === 0 ? `Rule ${index + 1}` : `${name}.${index + 1}`}
              depth={depth + 1}
              disabled={disabled}
              onChange={(next) => onChange({ ...rule, rules: (rule.rules ?? []).map((item, at) => (at === index ? next : item)) })}
              onRemove={() => onChange({ ...rule, rules: (rule.rules ?? []).filter((_, at) => at !== index) })}
            />
          ))}
          {!disabled && (
            <div className="planning-rule-add">
              <button type="button" className="small" onClick={() => onChange({ ...rule, rules: [...(rule.rules ?? []), { kind: 'hiredBefore' }] })}>
                <Plus size={16} aria-hidden="true" /> Add a rule
              </button>
              {depth < MAX_DEPTH - 2 && (
                <button type="button" className="small ghost" onClick={() => onChange({ ...rule, rules: [...(rule.rules ?? []), { kind: rule.kind === 'all' ? 'any' : 'all', rules: [] }] })}>
                  <Plus size={16} aria-hidden="true" /> Add a group
                </button>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * Who is in the cycle: the rules, saved only on "Save eligibility rules" and, while they are being
 * edited, what they would do — counts and the first people left out, with why — evaluated by the
 * server without saving; below, the evaluation of the saved rules, with exclusions by hand.
 */
export function EligibilitySection({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const draft = cycle.state === 'draft';
  const [rules, setRules] = useState<RuleDraft>(() => draftOf(cycle.eligibility));
  const condition = useMemo(() => conditionOf(rules), [rules]);
  const typed = typeof condition === 'string' ? null : JSON.stringify(condition);
  const wanted = useDebounced(typed, 300);
  const save = useCycleSave((ifMatch, body: Condition) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/eligibility/rules', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const saved = JSON.stringify(cycle.eligibility);
  const unsaved = draft && typed !== null && typed !== saved;
  const live = useLivePreview(cycle.id, draft && wanted !== null && wanted !== saved ? wanted : null);

  async function submit() {
    if (typeof condition === 'string') return;
    const result = await save.submit(cycle.version, condition);
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The eligibility rules are saved.');
  }

  return (
    <>
      <Section title="Eligibility rules" id="cycle-eligibility">
        <datalist id="planning-departments">
          <Departments cycleId={cycle.id} />
        </datalist>
        <RuleEditor rule={rules} name="Eligible when" depth={0} disabled={!draft} onChange={(next) => setRules(next)} />
        <p className="planning-muted" role="status">
          {!draft ? 'The rules were fixed when planning started.' : typeof condition === 'string' ? condition : unsaved ? 'Not saved yet: the counts below say what these rules would do.' : 'Saved.'}
        </p>
        {unsaved && live.answer && (
          <div aria-live="polite">
            <StatGrid label="What these rules would do (not saved)">
              <StatCard label="Would be eligible" value={formatNumber(live.answer.counts.eligible)} hint={`of ${formatNumber(live.answer.counts.employees)} people`} testId="live-eligible-count" />
              <StatCard label="Would be ineligible" value={formatNumber(live.answer.counts.ineligible)} testId="live-ineligible-count" />
              <StatCard label="Excluded by hand" value={formatNumber(live.answer.counts.excluded)} testId="live-excluded-count" />
            </StatGrid>
            {live.answer.employees.some((entry) => entry.status !== 'eligible') && (
              <ul className="planning-live-reasons" aria-label="The first people these rules leave out">
                {live.answer.employees
                  .filter((entry) => entry.status !== 'eligible')
                  .map((entry) => (
                    <li key={entry.employeeId} data-employee-id={entry.employeeId}>
                      <strong>{entry.name}</strong>: {entry.status === 'excluded' ? (entry.excludedReason ?? 'Excluded by hand') : entry.reasons.join('; ')}
                    </li>
                  ))}
              </ul>
            )}
          </div>
        )}
        {unsaved && live.problem && <Problem message={live.problem} />}
        {save.problem}
        {draft && (
          <div className="actions">
            <button type="button" className="primary" disabled={!unsaved || save.busy} onClick={() => void submit()}>
              Save eligibility rules
            </button>
            {unsaved && (
              <button type="button" onClick={() => setRules(draftOf(cycle.eligibility))}>
                Undo changes
              </button>
            )}
          </div>
        )}
      </Section>
      <EligibilityPreview cycle={cycle} />
      <NextStep cycle={cycle} after="eligibility" />
    </>
  );
}

const LIVE_ROWS = 5;

/** The server's evaluation of unsaved rules (`null`: none asked); the last answer stays while the next is on its way. */
function useLivePreview(cycleId: string, rules: string | null): { answer: Schemas['EligibilityList'] | null; problem: string | null } {
  const [state, setState] = useState<{ answer: Schemas['EligibilityList'] | null; problem: string | null }>({ answer: null, problem: null });
  useEffect(() => {
    if (rules === null) return;
    let current = true;
    void api
      .POST('/api/v2/meritCycles/{meritCycleId}/eligibility/preview', { params: { path: { meritCycleId: cycleId }, query: { limit: LIVE_ROWS } }, body: JSON.parse(rules) as Condition })
      .then(({ data, error }) => {
        // Only the answer to the rules on screen counts; an earlier one arriving late is dropped.
        if (!current) return;
        setState(error || !data ? { answer: null, problem: errorMessage(error) } : { answer: data.data, problem: null });
      });
    return () => {
      current = false;
    };
  }, [cycleId, rules]);
  return state;
}

/** The departments of the people in the cycle, as suggestions for department rules. */
function Departments({ cycleId }: { cycleId: string }) {
  const reply = useQuery('/api/v2/meritCycles/{meritCycleId}/eligibility', { params: { path: { meritCycleId: cycleId } } });
  const names = [...new Set((reply.data?.data.employees ?? []).map((entry) => entry.department).filter((name): name is string => Boolean(name)))].sort();
  return (
    <>
      {names.map((name) => (
        <option key={name} value={name} />
      ))}
    </>
  );
}
