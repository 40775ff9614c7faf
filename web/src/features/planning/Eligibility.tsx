import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { useDebounced } from '../../ui/hooks';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { SkeletonStats, SkeletonTable } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, ErrorState } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { NextStep, type SectionProps } from './Cycle';
import { type MeritCycle, Problem, type Schemas, formatNumber, refreshPlanning } from './common';
import { useCycleSave } from './Setup';

type Condition = Schemas['EligibilityCondition'];
type Kind = Condition['kind'];
type Status = Schemas['EligibilityStatus'];

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

const STATUS_LABELS: Record<Status, string> = { eligible: 'Eligible', ineligible: 'Ineligible', excluded: 'Excluded' };
const STATUS_TONES = { eligible: 'success', ineligible: 'neutral', excluded: 'warning' } as const;
const PAGE = 200;

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

function EligibilityPreview({ cycle }: { cycle: MeritCycle }) {
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
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    const { error } = await api.PUT('/api/v2/meritCycles/{meritCycleId}/eligibility/exclusions/{employeeId}', {
      params: { path: { meritCycleId: cycle.id, employeeId: entry.employeeId } },
      body: excluded ? { excluded: false } : { excluded: true, ...(reason.trim() ? { reason: reason.trim() } : {}) },
    });
    setBusy(false);
    if (error) return setProblem(errorMessage(error));
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
      <Problem message={problem} />
    </Modal>
  );
}
