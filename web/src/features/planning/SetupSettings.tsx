import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { Section } from '../../ui/Page';
import { useToasts } from '../../ui/Toasts';
import { CurrencyOptions } from '../../ui/CurrencyOptions';
import { useBandSets } from './Cycles';
import { COMPONENT_LABELS, type Schemas, usePlanningComponents } from './common';
import { NextStep, type SectionProps } from './sections';
import { ReadOnlyNote, changeable, draftOnly, useCycleSave } from './cycleSave';

// ── settings ─────────────────────────────────────────────────────────────────────────────────

const ALL_COMPONENTS = Object.keys(COMPONENT_LABELS) as Schemas['MeritCycleComponent'][];

export function SettingsSection({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const bandSets = useBandSets();
  const names = usePlanningComponents();
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
              {ALL_COMPONENTS.filter((component) => names.used(component) || form.components.includes(component)).map((component) => (
                <label key={component} className="check">
                  <input type="checkbox" checked={form.components.includes(component)} onChange={() => toggle(component)} />
                  {names.label(component)}
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
