import { ArrowDown, ArrowUp, Plus, Trash2, Upload } from 'lucide-react';
import { type FormEvent, type ReactNode, useMemo, useRef, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { type SaveResult, useVersionedSave } from '../../api/queries';
import { EmployeeSearch } from '../../ui/EmployeeSearch';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { CurrencyOptions } from '../../ui/CurrencyOptions';
import { NextStep, type SectionProps } from './Cycle';
import { AXIS_LABELS, MeritMatrix, type RangeText, columnLabels } from './MeritMatrix';
import { VariablesEditor, variablesOf, variablesText } from './VariablesEditor';
import { useBandSets } from './Cycles';
import {
  COMPONENT_LABELS,
  type GuidelineRange,
  type MeritCycle,
  Problem,
  type Schemas,
  amountToInput,
  bpToInput,
  fieldProblems,
  formatBp,
  formatMoney,
  formatTimestamp,
  fromLocalInput,
  parseAmount,
  parsePercent,
  refreshPlanning,
  toLocalInput,
} from './common';

// ── saving a part of the cycle at the version read ───────────────────────────────────────────

type Reply<Data> = Promise<{ data?: Data; error?: unknown; response: Response }>;

/**
 * One part of the cycle's setup saved with If-Match: a stale version is refused with the server's
 * message and the form keeps what the person typed; a 400 lists the fields it names.
 */
export function useCycleSave<Body, Data>(write: (ifMatch: string, body: Body) => Reply<Data>) {
  const lastError = useRef<unknown>(undefined);
  const [problem, setProblem] = useState<{ message: string; fields: string[]; conflict: boolean } | null>(null);
  const { save, busy } = useVersionedSave(async (ifMatch: string, body: Body) => {
    const reply = await write(ifMatch, body);
    lastError.current = reply.error;
    return reply;
  });
  async function submit(version: number, body: Body): Promise<SaveResult<Data>> {
    const result = await save(version, body);
    setProblem(result.ok ? null : { message: result.message, fields: fieldProblems(lastError.current), conflict: result.conflict });
    return result;
  }
  const shown: ReactNode = problem ? (
    <>
      <Problem message={problem.message} fields={problem.fields} />
      {problem.conflict && (
        <button type="button" className="small" onClick={() => void refreshPlanning().then(() => setProblem(null))}>
          Load their version (your entries stay in the form)
        </button>
      )}
    </>
  ) : null;
  return { submit, busy, problem: shown, setProblem };
}

const draftOnly = (cycle: MeritCycle) => cycle.state === 'draft';
const changeable = (cycle: MeritCycle) => cycle.state === 'draft' || cycle.state === 'active';

function ReadOnlyNote({ cycle, what }: { cycle: MeritCycle; what: string }) {
  if (draftOnly(cycle)) return null;
  return <p className="planning-note">{`${what} were fixed when planning started.`}</p>;
}

// ── settings ─────────────────────────────────────────────────────────────────────────────────

const ALL_COMPONENTS = Object.keys(COMPONENT_LABELS) as Schemas['MeritCycleComponent'][];

export function SettingsSection({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const bandSets = useBandSets();
  const [form, setForm] = useState({
    name: cycle.name,
    effectiveDate: cycle.effectiveDate,
    periodStart: cycle.periodStart,
    periodEnd: cycle.periodEnd,
    currency: cycle.currency,
    components: cycle.components,
    bandSetId: cycle.bandSetId ?? '',
    plannerMode: cycle.plannerMode,
  });
  const settings = useCycleSave((ifMatch, body: Schemas['MeritCycleSettingsPatch']) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/settings', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const draft = draftOnly(cycle);

  async function save(event: FormEvent) {
    event.preventDefault();
    const patch: Schemas['MeritCycleSettingsPatch'] = {};
    if (form.name.trim() !== cycle.name) patch.name = form.name.trim();
    if (draft) {
      if (form.effectiveDate !== cycle.effectiveDate) patch.effectiveDate = form.effectiveDate;
      if (form.periodStart !== cycle.periodStart) patch.periodStart = form.periodStart;
      if (form.periodEnd !== cycle.periodEnd) patch.periodEnd = form.periodEnd;
      if (form.currency !== cycle.currency) patch.currency = form.currency;
      if (form.components.join() !== cycle.components.join()) patch.components = form.components;
      if ((form.bandSetId || null) !== cycle.bandSetId) patch.bandSetId = form.bandSetId || null;
      if (form.plannerMode !== cycle.plannerMode) patch.plannerMode = form.plannerMode;
    }
    if (!Object.keys(patch).length) return add('info', 'Nothing has changed.');
    const result = await settings.submit(cycle.version, patch);
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The settings are saved.');
  }

  const toggle = (component: Schemas['MeritCycleComponent']) =>
    setForm((current) => ({
      ...current,
      components: current.components.includes(component) ? current.components.filter((entry) => entry !== component) : ALL_COMPONENTS.filter((entry) => entry === component || current.components.includes(entry)),
    }));

  return (
    <>
      <Section title="Settings" id="cycle-settings">
        <ReadOnlyNote cycle={cycle} what="Dates, currency, components and the band set" />
        <form className="settings-form" aria-label="Cycle settings" onSubmit={(event) => void save(event)}>
          <fieldset disabled={!changeable(cycle)}>
            <label>
              Name
              <input value={form.name} required maxLength={200} onChange={(event) => setForm({ ...form, name: event.target.value })} />
            </label>
          </fieldset>
          <fieldset disabled={!draft}>
            <div className="planning-row">
              <label>
                Performance period from
                <input type="date" required value={form.periodStart} onChange={(event) => setForm({ ...form, periodStart: event.target.value })} />
              </label>
              <label>
                to
                <input type="date" required value={form.periodEnd} onChange={(event) => setForm({ ...form, periodEnd: event.target.value })} />
              </label>
            </div>
            <label>
              Effective date
              <input type="date" required value={form.effectiveDate} onChange={(event) => setForm({ ...form, effectiveDate: event.target.value })} />
            </label>
            <label>
              Cycle currency (budgets and the dashboard; each person is planned in their own)
              <select value={form.currency} onChange={(event) => setForm({ ...form, currency: event.target.value })}>
                <CurrencyOptions current={form.currency} />
              </select>
            </label>
            <fieldset className="check-group">
              <legend>Components</legend>
              {ALL_COMPONENTS.map((component) => (
                <label key={component} className="check">
                  <input type="checkbox" checked={form.components.includes(component)} onChange={() => toggle(component)} />
                  {COMPONENT_LABELS[component]}
                </label>
              ))}
            </fieldset>
            <label>
              Band set (compa-ratio and range penetration)
              <select value={form.bandSetId} onChange={(event) => setForm({ ...form, bandSetId: event.target.value })}>
                <option value="">No band set</option>
                {form.bandSetId && !bandSets.data?.data.some((set) => set.id === form.bandSetId) && <option value={form.bandSetId}>The chosen band set</option>}
                {(bandSets.data?.data ?? []).map((set) => (
                  <option key={set.id} value={set.id}>
                    {set.name} ({set.status})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Managers plan
              <select value={form.plannerMode} onChange={(event) => setForm({ ...form, plannerMode: event.target.value === 'allBelow' ? 'allBelow' : 'ownReports' })}>
                <option value="ownReports">Their own reports</option>
                <option value="allBelow">Everyone below them</option>
              </select>
            </label>
          </fieldset>
          {settings.problem}
          {changeable(cycle) && (
            <div className="actions">
              <button type="submit" className="primary" disabled={settings.busy || form.components.length === 0}>
                Save settings
              </button>
            </div>
          )}
        </form>
      </Section>
      <RatingScale cycle={cycle} onSaved={onSaved} />
      <ColumnsByRole cycle={cycle} onSaved={onSaved} />
      <NextStep cycle={cycle} after="settings" />
    </>
  );
}

/** The performance ratings the cycle reads (lowest first): the merit matrix has a row for each. */
function RatingScale({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const [scale, setScale] = useState(cycle.performance.scale);
  const save = useCycleSave((ifMatch, body: Schemas['PerformanceCycleConfig']) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/performanceCycleConfig', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const draft = draftOnly(cycle);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await save.submit(cycle.version, { ratingField: cycle.performance.ratingField, scale: scale.map((entry) => ({ value: entry.value.trim(), label: entry.label.trim() })) });
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The rating scale is saved.');
  }
  const move = (index: number, by: number) =>
    setScale((current) => {
      const next = [...current];
      const [entry] = next.splice(index, 1);
      if (entry) next.splice(index + by, 0, entry);
      return next;
    });
  return (
    <Section title="Performance ratings" id="cycle-ratings">
      <p className="planning-muted">Read from each person’s performance rating, lowest first. A rating outside the scale counts as none.</p>
      <form aria-label="Performance ratings" onSubmit={(event) => void submit(event)}>
        <fieldset disabled={!draft} className="planning-plain">
          <ol className="planning-scale">
            {scale.map((entry, index) => (
              <li key={index}>
                <label>
                  Value
                  <input value={entry.value} required maxLength={64} onChange={(event) => setScale(scale.map((item, at) => (at === index ? { ...item, value: event.target.value } : item)))} />
                </label>
                <label>
                  Label
                  <input value={entry.label} required maxLength={100} onChange={(event) => setScale(scale.map((item, at) => (at === index ? { ...item, label: event.target.value } : item)))} />
                </label>
                <span className="planning-moves">
                  <button type="button" className="ghost icon-button" aria-label={`Move ${entry.label || 'rating'} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                    <ArrowUp size={18} aria-hidden="true" />
                  </button>
                  <button type="button" className="ghost icon-button" aria-label={`Move ${entry.label || 'rating'} down`} disabled={index === scale.length - 1} onClick={() => move(index, 1)}>
                    <ArrowDown size={18} aria-hidden="true" />
                  </button>
                  <button type="button" className="ghost icon-button" aria-label={`Remove ${entry.label || 'rating'}`} disabled={scale.length === 1} onClick={() => setScale(scale.filter((_, at) => at !== index))}>
                    <Trash2 size={18} aria-hidden="true" />
                  </button>
                </span>
              </li>
            ))}
          </ol>
          {draft && (
            <div className="actions">
              <button type="button" onClick={() => setScale([...scale, { value: '', label: '' }])} disabled={scale.length >= 20}>
                <Plus size={18} aria-hidden="true" /> Add a rating
              </button>
              <button type="submit" className="primary" disabled={save.busy}>
                Save ratings
              </button>
            </div>
          )}
        </fieldset>
        {save.problem}
      </form>
    </Section>
  );
}

type WorksheetColumn = keyof Schemas['WorksheetColumnModes'];
const COLUMN_LABELS: Record<WorksheetColumn, string> = {
  currentPay: 'Current pay',
  bandPosition: 'Band position',
  rating: 'Rating',
  recommendation: 'Recommendation',
  merit: 'Merit',
  promotion: 'Promotion',
  lumpSum: 'Lump sum',
  equityRefresh: 'Equity refresh',
  newPay: 'New pay',
  newCompaRatio: 'New compa-ratio',
  comment: 'Comment',
};
const COLUMN_KEYS = Object.keys(COLUMN_LABELS) as WorksheetColumn[];

/** Which worksheet columns each role sees (view), changes (edit) or does not see (none); unnamed ones keep the default. */
function ColumnsByRole({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const roles = useQuery('/api/roles');
  const columns = useQuery('/api/v2/meritCycles/{meritCycleId}/columns', { params: { path: { meritCycleId: cycle.id } } });
  const [config, setConfig] = useState(cycle.columns.roles);
  const [roleKey, setRoleKey] = useState('');
  const save = useCycleSave((ifMatch, body: Schemas['WorksheetColumnsConfig']) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/columns', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const defaults = columns.data?.data.defaults ?? {};
  const roleList = roles.data?.data ?? [];
  const chosen = roleKey || config[0]?.roleKey || roleList[0]?.key || '';
  const modes = config.find((entry) => entry.roleKey === chosen)?.columns ?? {};
  function setMode(column: WorksheetColumn, mode: string) {
    setConfig((current) => {
      const entry = current.find((item) => item.roleKey === chosen) ?? { roleKey: chosen, columns: {} };
      const next = { ...entry.columns };
      if (mode === '') delete next[column];
      else next[column] = mode as Schemas['DisplayMode'];
      const others = current.filter((item) => item.roleKey !== chosen);
      return Object.keys(next).length ? [...others, { roleKey: chosen, columns: next }] : others;
    });
  }
  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await save.submit(cycle.version, { roles: config });
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The worksheet columns are saved.');
  }
  const editable = changeable(cycle);
  return (
    <Section title="Worksheet columns by role" id="cycle-columns">
      <form aria-label="Worksheet columns by role" onSubmit={(event) => void submit(event)}>
        <fieldset disabled={!editable} className="planning-plain">
          <label className="planning-narrow">
            Role
            <select value={chosen} onChange={(event) => setRoleKey(event.target.value)}>
              {roleList.map((role) => (
                <option key={role.key} value={role.key}>
                  {role.name}
                  {config.some((entry) => entry.roleKey === role.key) ? ' (customised)' : ''}
                </option>
              ))}
            </select>
          </label>
          <div className="planning-columns">
            {COLUMN_KEYS.map((column) => (
              <label key={column}>
                {COLUMN_LABELS[column]}
                <select value={modes[column] ?? ''} onChange={(event) => setMode(column, event.target.value)}>
                  <option value="">Default ({defaults[column] ?? 'view'})</option>
                  <option value="edit">Edit</option>
                  <option value="view">View</option>
                  <option value="none">Hidden</option>
                </select>
              </label>
            ))}
          </div>
          {editable && (
            <div className="actions">
              <button type="submit" className="primary" disabled={save.busy || !chosen}>
                Save columns
              </button>
            </div>
          )}
        </fieldset>
        {save.problem}
      </form>
    </Section>
  );
}

// ── recommendation logic ─────────────────────────────────────────────────────────────────────

const rangeText = (range: GuidelineRange | null | undefined): RangeText => ({ min: bpToInput(range?.minBp), target: bpToInput(range?.targetBp), max: bpToInput(range?.maxBp) });
function rangeOf(text: RangeText): GuidelineRange | null {
  const minBp = parsePercent(text.min);
  const targetBp = parsePercent(text.target);
  const maxBp = parsePercent(text.max);
  return minBp === null || targetBp === null || maxBp === null ? null : { minBp, targetBp, maxBp };
}

function RangeInputs({ value, onChange, label, compact = false }: { value: RangeText; onChange: (value: RangeText) => void; label: string; compact?: boolean }) {
  const parts: [keyof RangeText, string][] = [
    ['min', 'Min'],
    ['target', 'Target'],
    ['max', 'Max'],
  ];
  return (
    <span className={compact ? 'planning-range compact' : 'planning-range'}>
      {parts.map(([key, word]) => (
        <label key={key}>
          <span className={compact ? 'visually-hidden' : undefined}>{compact ? `${label}: ${word.toLowerCase()} %` : `${word} %`}</span>
          <input inputMode="decimal" value={value[key]} aria-label={compact ? undefined : `${label}: ${word.toLowerCase()} %`} onChange={(event) => onChange({ ...value, [key]: event.target.value })} size={4} />
        </label>
      ))}
    </span>
  );
}

const DEFAULT_THRESHOLDS = { compaRatio: [0.9, 1, 1.1], rangePenetration: [0.25, 0.5, 0.75] } as const;

export function RecommendationSection({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const logic = cycle.recommendation;
  const scale = cycle.performance.scale;
  const [kind, setKind] = useState(logic.kind);
  const [flat, setFlat] = useState(rangeText(logic.flat ?? { minBp: 0, targetBp: 300, maxBp: 600 }));
  const [axis, setAxis] = useState(logic.matrix?.axis ?? 'compaRatio');
  const [thresholds, setThresholds] = useState((logic.matrix?.thresholds ?? DEFAULT_THRESHOLDS.compaRatio).map(String));
  const [cells, setCells] = useState<Record<string, RangeText>>(() =>
    Object.fromEntries((logic.matrix?.cells ?? []).map((cell) => [`${cell.rating}|${cell.column}`, rangeText(cell)])),
  );
  const [several, setSeveral] = useState(() => variablesText(logic.variables));
  const [useFallback, setUseFallback] = useState(Boolean(logic.fallback));
  const [fallback, setFallback] = useState(rangeText(logic.fallback ?? { minBp: 0, targetBp: 200, maxBp: 400 }));
  const [mode, setMode] = useState(logic.guidelines.mode);
  const [commentRequired, setCommentRequired] = useState(logic.guidelines.commentRequired);
  const [local, setLocal] = useState<string | null>(null);
  const save = useCycleSave((ifMatch, body: Schemas['RecommendationLogic']) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/recommendationLogic', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const draft = draftOnly(cycle);

  const labels = columnLabels(thresholds.map((value) => value || '?'));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLocal(null);
    const guidelines = { mode, commentRequired };
    const fallbackRange = useFallback ? rangeOf(fallback) : null;
    if (useFallback && !fallbackRange) return setLocal('The fallback needs a min, target and max percentage.');
    let body: Schemas['RecommendationLogic'];
    if (kind === 'flat') {
      const range = rangeOf(flat);
      if (!range) return setLocal('The flat guideline needs a min, target and max percentage.');
      body = { kind, flat: range, guidelines, fallback: fallbackRange };
    } else if (kind === 'variables') {
      const read = variablesOf(several, scale);
      if ('problem' in read) return setLocal(read.problem);
      body = { kind, variables: read.variables, guidelines, fallback: fallbackRange };
    } else {
      const bounds = thresholds.map((value) => Number(value.replace(',', '.')));
      if (bounds.some((value) => !Number.isFinite(value) || thresholds.some((text) => text.trim() === ''))) return setLocal('The matrix needs three thresholds.');
      const matrixCells: NonNullable<Schemas['RecommendationLogic']['matrix']>['cells'] = [];
      for (const rating of scale) {
        for (const column of [1, 2, 3, 4]) {
          const text = cells[`${rating.value}|${column}`];
          if (!text || (!text.min && !text.target && !text.max)) continue;
          const range = rangeOf(text);
          if (!range) return setLocal(`“${rating.label}” at ${AXIS_LABELS[axis].toLowerCase()} ${labels[column - 1]} needs a min, target and max percentage.`);
          matrixCells.push({ rating: rating.value, column, ...range });
        }
      }
      body = { kind, matrix: { axis, thresholds: bounds, cells: matrixCells }, guidelines, fallback: fallbackRange };
    }
    const result = await save.submit(cycle.version, body);
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The recommendation logic is saved.');
  }

  return (
    <>
      <Section title="Recommendation logic" id="cycle-recommendation">
        <ReadOnlyNote cycle={cycle} what="The guidelines" />
        <form className="planning-form" aria-label="Recommendation logic" onSubmit={(event) => void submit(event)}>
          <fieldset disabled={!draft} className="planning-plain">
            <fieldset className="radios">
              <legend>Guideline</legend>
              <label className="check">
                <input type="radio" name="kind" checked={kind === 'flat'} onChange={() => setKind('flat')} /> The same for everyone (flat %)
              </label>
              <label className="check">
                <input type="radio" name="kind" checked={kind === 'matrix'} onChange={() => setKind('matrix')} /> A merit matrix (rating × position in the band)
              </label>
              <label className="check">
                <input type="radio" name="kind" checked={kind === 'variables'} onChange={() => setKind('variables')} /> Several variables (rating, band position, time since the last increase)
              </label>
            </fieldset>
            {kind === 'variables' ? (
              <VariablesEditor value={several} onChange={setSeveral} scale={scale} />
            ) : kind === 'flat' ? (
              <fieldset className="planning-plain">
                <legend>Flat guideline</legend>
                <RangeInputs value={flat} onChange={setFlat} label="Flat guideline" />
              </fieldset>
            ) : (
              <>
                <div className="planning-row">
                  <label>
                    Columns by
                    <select
                      value={axis}
                      onChange={(event) => {
                        const next = event.target.value === 'rangePenetration' ? 'rangePenetration' : 'compaRatio';
                        setAxis(next);
                        setThresholds(DEFAULT_THRESHOLDS[next].map(String));
                      }}
                    >
                      <option value="compaRatio">{AXIS_LABELS.compaRatio}</option>
                      <option value="rangePenetration">{AXIS_LABELS.rangePenetration}</option>
                    </select>
                  </label>
                  {thresholds.map((value, index) => (
                    <label key={index}>
                      Threshold {index + 1}
                      <input inputMode="decimal" value={value} onChange={(event) => setThresholds(thresholds.map((item, at) => (at === index ? event.target.value : item)))} size={5} />
                    </label>
                  ))}
                </div>
                <MeritMatrix scale={scale} axis={axis} thresholds={thresholds} cells={cells} onChange={(key, value) => setCells((before) => ({ ...before, [key]: value }))} />
              </>
            )}
            <label className="check">
              <input type="checkbox" checked={useFallback} onChange={(event) => setUseFallback(event.target.checked)} /> A fallback for people without a rating or a band
            </label>
            {useFallback && <RangeInputs value={fallback} onChange={setFallback} label="Fallback" />}
            <div className="planning-row">
              <label>
                Outside the guideline
                <select value={mode} onChange={(event) => setMode(event.target.value === 'enforced' ? 'enforced' : 'advisory')}>
                  <option value="advisory">A warning (advisory)</option>
                  <option value="enforced">An error that blocks submitting (enforced)</option>
                </select>
              </label>
              <label className="check">
                <input type="checkbox" checked={commentRequired} onChange={(event) => setCommentRequired(event.target.checked)} /> Needs a comment saying why
              </label>
            </div>
          </fieldset>
          <Problem message={local} />
          {save.problem}
          {draft && (
            <div className="actions">
              <button type="submit" className="primary" disabled={save.busy}>
                Save recommendation logic
              </button>
            </div>
          )}
        </form>
      </Section>
      <NextStep cycle={cycle} after="recommendations" />
    </>
  );
}

// ── budget ───────────────────────────────────────────────────────────────────────────────────

const SPEND: Schemas['BudgetConfiguration']['spendComponents'] = ['merit', 'promotion', 'lumpSum'];

export function BudgetSection({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const budget = cycle.budget;
  const [percent, setPercent] = useState(bpToInput(budget.percentBp));
  const [basis, setBasis] = useState(budget.basis ?? 'orgBranch');
  const [overrides, setOverrides] = useState((budget.overrides ?? []).map((entry) => ({ key: entry.key, label: entry.key, percent: bpToInput(entry.percentBp) })));
  const [spend, setSpend] = useState(budget.spendComponents);
  const [block, setBlock] = useState(budget.blockOverBudget);
  const [local, setLocal] = useState<string | null>(null);
  const save = useCycleSave((ifMatch, body: Schemas['BudgetConfiguration']) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/budgets/configuration', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const draft = draftOnly(cycle);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLocal(null);
    const percentBp = parsePercent(percent);
    if (percentBp === null) return setLocal('The budget needs a percentage of eligible payroll.');
    const parsed = overrides.map((entry) => ({ key: entry.key.trim(), percentBp: parsePercent(entry.percent) }));
    if (parsed.some((entry) => !entry.key || entry.percentBp === null)) return setLocal('Every override needs a branch or department and a percentage.');
    const body: Schemas['BudgetConfiguration'] = { percentBp, basis, overrides: parsed as { key: string; percentBp: number }[], spendComponents: spend, blockOverBudget: block };
    const result = await save.submit(cycle.version, body);
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The budget is saved.');
  }

  return (
    <>
      <Section title="Budget" id="cycle-budget">
        <ReadOnlyNote cycle={cycle} what="The budget’s percentages" />
        <form className="planning-form" aria-label="Budget" onSubmit={(event) => void submit(event)}>
          <fieldset disabled={!draft} className="planning-plain">
            <div className="planning-row">
              <label>
                Budget, % of eligible payroll
                <input inputMode="decimal" value={percent} onChange={(event) => setPercent(event.target.value)} size={6} />
              </label>
              <label>
                Other percentages per
                <select value={basis} onChange={(event) => setBasis(event.target.value === 'department' ? 'department' : 'orgBranch')}>
                  <option value="orgBranch">Org branch</option>
                  <option value="department">Department</option>
                </select>
              </label>
            </div>
            {overrides.length > 0 && (
              <ul className="planning-overrides" aria-label="Other percentages">
                {overrides.map((entry, index) => (
                  <li key={index}>
                    {basis === 'department' ? (
                      <label>
                        Department
                        <input value={entry.key} onChange={(event) => setOverrides(overrides.map((item, at) => (at === index ? { ...item, key: event.target.value, label: event.target.value } : item)))} />
                      </label>
                    ) : (
                      <span className="planning-branch">Branch of {entry.label}</span>
                    )}
                    <label>
                      %
                      <input inputMode="decimal" value={entry.percent} size={5} onChange={(event) => setOverrides(overrides.map((item, at) => (at === index ? { ...item, percent: event.target.value } : item)))} />
                    </label>
                    <button type="button" className="ghost icon-button" aria-label={`Remove the percentage for ${entry.label || 'this line'}`} onClick={() => setOverrides(overrides.filter((_, at) => at !== index))}>
                      <Trash2 size={18} aria-hidden="true" />
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {draft &&
              (basis === 'department' ? (
                <button type="button" onClick={() => setOverrides([...overrides, { key: '', label: '', percent: '' }])}>
                  <Plus size={18} aria-hidden="true" /> Another percentage for a department
                </button>
              ) : (
                <EmployeeSearch label="Another percentage for the branch of" onPick={(employee) => setOverrides([...overrides, { key: employee.id, label: employee.name, percent: '' }])} />
              ))}
            <fieldset className="check-group">
              <legend>What counts against the budget</legend>
              {SPEND.map((component) => (
                <label key={component} className="check">
                  <input
                    type="checkbox"
                    checked={spend.includes(component)}
                    onChange={() => setSpend(spend.includes(component) ? spend.filter((entry) => entry !== component) : SPEND.filter((entry) => entry === component || spend.includes(entry)))}
                  />
                  {COMPONENT_LABELS[component]}
                </label>
              ))}
            </fieldset>
            <label className="check">
              <input type="checkbox" checked={block} onChange={(event) => setBlock(event.target.checked)} /> Refuse changes that take a worksheet over its budget (otherwise it is shown, not blocked)
            </label>
          </fieldset>
          <Problem message={local} />
          {save.problem}
          {draft && (
            <div className="actions">
              <button type="submit" className="primary" disabled={save.busy || spend.length === 0}>
                Save budget
              </button>
            </div>
          )}
        </form>
      </Section>
      {cycle.state !== 'draft' && <Allocations cycle={cycle} />}
      <NextStep cycle={cycle} after="budget" />
    </>
  );
}

/** Each worksheet's allocation down the org tree: computed from the percentages, or set by hand. */
function Allocations({ cycle }: { cycle: MeritCycle }) {
  const { add } = useToasts();
  const report = useQuery('/api/v2/meritCycles/{meritCycleId}/budgets/allocations', { params: { path: { meritCycleId: cycle.id } } });
  const [byHand, setByHand] = useState<Record<string, string>>({});
  const save = useCycleSave((ifMatch, body: { allocations: { worksheetId: string; amount: Schemas['Money'] | null }[] }) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/budgets/allocations', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function submit(event: FormEvent) {
    event.preventDefault();
    const currency = report.data?.data.currency ?? cycle.currency;
    const allocations = Object.entries(byHand).map(([worksheetId, text]) => {
      const amount = text.trim() === '' ? null : parseAmount(text, currency);
      return { worksheetId, amount: amount === null ? null : { amount, currency } };
    });
    if (!allocations.length) return add('info', 'Nothing has changed.');
    const result = await save.submit(cycle.version, { allocations });
    if (!result.ok) return;
    setByHand({});
    await refreshPlanning();
    add('success', 'The allocations are saved.');
  }
  return (
    <Section title="Allocation by branch" id="cycle-allocations">
      <Loaded data={report.data?.data} error={report.error} inline skeleton={<SkeletonTable rows={5} columns={5} label="Loading the allocations" />}>
        {(data) => (
          <form aria-label="Allocation by branch" onSubmit={(event) => void submit(event)}>
            <p className="planning-muted">
              {formatBp(data.percentBp)} of {formatMoney(data.total.eligiblePayroll)} eligible payroll: {formatMoney(data.total.allocated)} allocated, {formatMoney(data.total.used)} planned. Leave a line empty to use the computed amount.
            </p>
            <div className="table-scroll" role="region" aria-label="Allocations" tabIndex={0}>
              <table>
                <caption className="visually-hidden">Allocations per worksheet, in {data.currency}</caption>
                <thead>
                  <tr>
                    <th scope="col">Planner</th>
                    <th scope="col" className="number">
                      Eligible payroll
                    </th>
                    <th scope="col" className="number">
                      Allocated
                    </th>
                    <th scope="col" className="number">
                      Used
                    </th>
                    <th scope="col">Set by hand ({data.currency})</th>
                  </tr>
                </thead>
                <tbody>
                  {data.worksheets.map((entry) => (
                    <tr key={entry.worksheetId}>
                      <th scope="row">{entry.plannerName ?? 'People without a manager'}</th>
                      <td className="number">{formatMoney(entry.own.eligiblePayroll)}</td>
                      <td className="number">{formatMoney(entry.own.allocated)}</td>
                      <td className="number">{formatMoney(entry.own.used)}</td>
                      <td>
                        <input
                          aria-label={`Allocation by hand for ${entry.plannerName ?? 'people without a manager'}`}
                          inputMode="decimal"
                          size={10}
                          disabled={!changeable(cycle)}
                          value={byHand[entry.worksheetId] ?? (entry.allocatedByHand ? amountToInput(entry.own.allocated) : '')}
                          onChange={(event) => setByHand({ ...byHand, [entry.worksheetId]: event.target.value })}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {save.problem}
            {changeable(cycle) && (
              <div className="actions">
                <button type="submit" className="primary" disabled={save.busy}>
                  Save allocations
                </button>
              </div>
            )}
          </form>
        )}
      </Loaded>
    </Section>
  );
}

// ── picking people ───────────────────────────────────────────────────────────────────────────

/** The company's users (reviewers are users): the first 500 by e-mail. */
const useUsers = () => useQuery('/api/users', { params: { query: { limit: 500 } } });

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

// ── approval chains ──────────────────────────────────────────────────────────────────────────

interface ChainDraft {
  branchEmployeeId: string | null;
  branchName: string | null;
  reviewers: { userId: string; name: string }[];
}

/** "branch,reviewers": a branch's e-mail or employee number (empty: the company-wide chain), reviewers' e-mails split by ";". */
function parseChainsCsv(text: string): { line: number; branch: string; reviewers: string[] }[] {
  return text
    .split(/\r?\n/)
    .map((raw, index) => ({ raw: raw.trim(), line: index + 1 }))
    .filter(({ raw, line }) => raw !== '' && !(line === 1 && /^branch\s*,/i.test(raw)))
    .map(({ raw, line }) => {
      const [branch = '', reviewers = ''] = raw.split(',').map((cell) => cell.trim().replace(/^"|"$/g, ''));
      return { line, branch, reviewers: reviewers.split(';').map((entry) => entry.trim().toLowerCase()).filter(Boolean) };
    });
}

export function ChainsSection({ cycle }: SectionProps) {
  const chains = useQuery('/api/v2/meritCycles/{meritCycleId}/approvalChains', { params: { path: { meritCycleId: cycle.id } } });
  return (
    <>
      <Section title="Approval chains" id="cycle-chains">
        <p className="planning-muted">
          Reviewers in order, per org branch. A worksheet goes to the chain of the nearest branch above its planner, else to the company-wide chain; without one, whole-company planners review it.
        </p>
        <Loaded data={chains.data?.data} error={chains.error} inline skeleton={<SkeletonTable rows={3} columns={2} label="Loading the approval chains" />}>
          {(stored) => <ChainsEditor cycle={cycle} stored={stored} key={stored.map((chain) => `${chain.id}:${chain.version}`).join()} />}
        </Loaded>
      </Section>
      <NextStep cycle={cycle} after="chains" />
    </>
  );
}

function ChainsEditor({ cycle, stored }: { cycle: MeritCycle; stored: Schemas['ApprovalChain'][] }) {
  const { add } = useToasts();
  const users = useUsers();
  const [chains, setChains] = useState<ChainDraft[]>(() =>
    stored.map((chain) => ({ branchEmployeeId: chain.branchEmployeeId, branchName: chain.branchName, reviewers: chain.reviewers.flatMap((reviewer) => (reviewer.userId ? [{ userId: reviewer.userId, name: reviewer.name ?? reviewer.userId }] : [])) })),
  );
  const [local, setLocal] = useState<string[] | null>(null);
  const [bulkUser, setBulkUser] = useState('');
  const save = useCycleSave((ifMatch, body: { chains: Schemas['ApprovalChainInput'][] }) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/approvalChains', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const bulk = useCycleSave((ifMatch, body: { action: 'add' | 'remove'; reviewerUserId: string }) =>
    api.POST('/api/v2/meritCycles/{meritCycleId}/approvalChains/reviewers', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const userList = users.data?.data ?? [];
  const nameOf = (user: Schemas['User']) => [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  const editable = changeable(cycle);
  const hasDefault = chains.some((chain) => chain.branchEmployeeId === null);

  async function store(next: ChainDraft[], done: string) {
    setLocal(null);
    const result = await save.submit(cycle.version, { chains: next.map((chain) => ({ branchEmployeeId: chain.branchEmployeeId, reviewerUserIds: chain.reviewers.map((reviewer) => reviewer.userId) })) });
    if (!result.ok) return;
    await refreshPlanning();
    add('success', done);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (chains.some((chain) => chain.reviewers.length === 0)) return setLocal(['Every chain needs at least one reviewer.']);
    await store(chains, 'The approval chains are saved.');
  }

  async function changeEverywhere(action: 'add' | 'remove') {
    if (!bulkUser) return;
    const result = await bulk.submit(cycle.version, { action, reviewerUserId: bulkUser });
    if (!result.ok) return;
    await refreshPlanning();
    add('success', action === 'add' ? 'Added to every chain.' : 'Removed from every chain.');
  }

  async function upload(file: File) {
    const rows = parseChainsCsv(await file.text());
    const byEmail = new Map(userList.map((user) => [user.email.toLowerCase(), user]));
    const problems: string[] = [];
    const next: ChainDraft[] = [];
    for (const row of rows) {
      const reviewers = row.reviewers.map((email) => ({ email, user: byEmail.get(email) }));
      for (const missing of reviewers.filter((entry) => !entry.user)) problems.push(`Line ${row.line}: no user with the e-mail ${missing.email}`);
      if (!row.reviewers.length) problems.push(`Line ${row.line}: no reviewers`);
      let branch: { id: string; name: string } | null = null;
      if (row.branch) {
        const { data } = await api.GET('/api/employees', { params: { query: { search: row.branch, limit: 5 } } });
        const match = data?.data.find((employee) => employee.email?.toLowerCase() === row.branch.toLowerCase() || employee.employeeNumber === row.branch);
        if (!match) problems.push(`Line ${row.line}: no employee with the e-mail or number ${row.branch}`);
        else branch = { id: match.id, name: [match.firstName, match.lastName].filter(Boolean).join(' ') };
      }
      next.push({ branchEmployeeId: branch?.id ?? null, branchName: branch?.name ?? null, reviewers: reviewers.flatMap((entry) => (entry.user ? [{ userId: entry.user.id, name: nameOf(entry.user) }] : [])) });
    }
    if (problems.length) return setLocal(problems);
    setChains(next);
    await store(next, `The approval chains from ${file.name} are saved.`);
  }

  const userOptions = useMemo(
    () =>
      userList.map((user) => (
        <option key={user.id} value={user.id}>
          {nameOf(user)} ({user.email})
        </option>
      )),
    [userList],
  );

  return (
    <form className="planning-form" aria-label="Approval chains" onSubmit={(event) => void submit(event)}>
      <fieldset disabled={!editable} className="planning-plain">
        {chains.length === 0 && <p>No chains yet: whole-company planners review every worksheet.</p>}
        <ol className="planning-chains">
          {chains.map((chain, index) => (
            <li key={chain.branchEmployeeId ?? 'default'}>
              <h3>{chain.branchEmployeeId ? `Branch of ${chain.branchName ?? 'an employee'}` : 'Company-wide (default)'}</h3>
              <ol className="planning-reviewers" aria-label="Reviewers in order">
                {chain.reviewers.map((reviewer, at) => (
                  <li key={reviewer.userId}>
                    <span>
                      {at + 1}. {reviewer.name}
                    </span>
                    <button
                      type="button"
                      className="ghost icon-button"
                      aria-label={`Remove ${reviewer.name} from this chain`}
                      onClick={() => setChains(chains.map((item, i) => (i === index ? { ...item, reviewers: item.reviewers.filter((entry) => entry.userId !== reviewer.userId) } : item)))}
                    >
                      <Trash2 size={18} aria-hidden="true" />
                    </button>
                  </li>
                ))}
              </ol>
              <label>
                Add a reviewer
                <select
                  value=""
                  onChange={(event) => {
                    const user = userList.find((entry) => entry.id === event.target.value);
                    if (!user || chain.reviewers.some((entry) => entry.userId === user.id)) return;
                    setChains(chains.map((item, i) => (i === index ? { ...item, reviewers: [...item.reviewers, { userId: user.id, name: nameOf(user) }] } : item)));
                  }}
                >
                  <option value="">Choose a person</option>
                  {userOptions}
                </select>
              </label>
              <button type="button" className="small ghost" onClick={() => setChains(chains.filter((_, i) => i !== index))}>
                Remove this chain
              </button>
            </li>
          ))}
        </ol>
        {editable && (
          <div className="planning-add-chain">
            {!hasDefault && (
              <button type="button" onClick={() => setChains([...chains, { branchEmployeeId: null, branchName: null, reviewers: [] }])}>
                <Plus size={18} aria-hidden="true" /> Add the company-wide chain
              </button>
            )}
            <EmployeeSearch
              label="Add a chain for the branch of"
              onPick={(employee) => {
                if (!chains.some((chain) => chain.branchEmployeeId === employee.id)) setChains([...chains, { branchEmployeeId: employee.id, branchName: employee.name, reviewers: [] }]);
              }}
            />
          </div>
        )}
      </fieldset>
      {local && <Problem message="The approval chains cannot be saved as they are." fields={local} />}
      {save.problem}
      {editable && (
        <div className="actions">
          <button type="submit" className="primary" disabled={save.busy}>
            Save approval chains
          </button>
          <label className="button">
            <Upload size={18} aria-hidden="true" /> Upload a CSV
            <input
              type="file"
              accept=".csv,text/csv"
              className="visually-hidden"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void upload(file);
              }}
            />
          </label>
        </div>
      )}
      {editable && (
        <p className="planning-muted">A CSV has a line per chain: the branch (an employee’s e-mail or number; empty for the company-wide chain), then the reviewers’ e-mails in order, split by “;”.</p>
      )}
      {editable && chains.length > 0 && (
        <fieldset className="planning-plain planning-bulk">
          <legend>Every chain at once</legend>
          <label>
            Person
            <select value={bulkUser} onChange={(event) => setBulkUser(event.target.value)}>
              <option value="">Choose a person</option>
              {userOptions}
            </select>
          </label>
          <button type="button" disabled={!bulkUser || bulk.busy} onClick={() => void changeEverywhere('add')}>
            Add to every chain
          </button>
          <button type="button" disabled={!bulkUser || bulk.busy} onClick={() => void changeEverywhere('remove')}>
            Remove from every chain
          </button>
          {bulk.problem}
        </fieldset>
      )}
      <p className="planning-muted">Changes apply to worksheets submitted from now on{cycle.state === 'active' ? `; saved ${formatTimestamp(cycle.updatedAt)}` : ''}.</p>
    </form>
  );
}
