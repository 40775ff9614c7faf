import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Loaded } from '../../ui/States';
import { type Schemas, type SettingsState, type TeamColumn, TeamPage, useSaveSettings, useTeamSettings } from './common';
import { useCompTypes } from '../../api/compTypes';

type Section = 'columns' | 'compTimeline' | 'equityDetails';

/** Loads the settings, then shows the page; every settings screen has the same frame. */
function SettingsFrame({ title, children }: { title: string; children: (state: SettingsState) => ReactNode }) {
  const { data, error, mutate } = useTeamSettings();
  return (
    <TeamPage title={title} actions={<Link href="/team/settings">All team settings</Link>}>
      <Loaded data={data?.data} error={error} retry={() => void mutate()}>
        {children}
      </Loaded>
    </TeamPage>
  );
}

/** Where a setting comes from, and the buttons to save it for oneself, for the company, or to go back to the default. */
function SaveBar({ state, section, body }: { state: SettingsState; section: Section; body: Schemas['TeamViewSettingsInput'] }) {
  const { saveCompany, saveMine, busy } = useSaveSettings();
  const personal = state.personal[section] !== null;
  const reset: Schemas['TeamViewPersonalSettingsInput'] =
    section === 'columns' ? { columns: null } : section === 'compTimeline' ? { compTimeline: null } : { equityDetails: null };
  return (
    <div className="team-section">
      <p className="team-muted" role="status">
        {personal ? 'You are using your own settings.' : 'You are using the company default.'}
      </p>
      <div className="actions-row">
        <button type="button" className="primary" disabled={busy} onClick={() => void saveMine(state.personal.version, body)}>
          Save for me
        </button>
        {personal && (
          <button type="button" disabled={busy} onClick={() => void saveMine(state.personal.version, reset)}>
            Use the company default
          </button>
        )}
        {state.canEditCompanyDefault && (
          <button type="button" disabled={busy} onClick={() => void saveCompany(state.company.version, body)}>
            Save as company default
          </button>
        )}
      </div>
    </div>
  );
}

/** /team/settings */
export function TeamSettingsScreen() {
  const pages = [
    { href: '/team/settings/columns', title: 'Columns', text: 'Which columns the employee table shows, and in what order.' },
    { href: '/team/settings/comp-timeline', title: 'Comp timeline', text: 'Which kinds of pay the timeline lists, and in what order.' },
    { href: '/team/settings/equity-details', title: 'Equity details', text: 'Shares or value, in total or per grant, vested and unvested.' },
  ];
  return (
    <SettingsFrame title="Team settings">
      {(state) => (
        <>
          <ul className="settings-links">
            {pages.map((page) => (
              <li key={page.href}>
                <Link href={page.href}>
                  <strong>{page.title}</strong>
                  {page.text}
                </Link>
              </li>
            ))}
          </ul>
          <p className="team-muted">
            {state.canEditCompanyDefault
              ? 'You can save settings for yourself or as the default for everyone in the company.'
              : 'Your changes apply to you; the company default is set by an admin.'}
          </p>
        </>
      )}
    </SettingsFrame>
  );
}

function ColumnsEditor({ state }: { state: SettingsState }) {
  const [columns, setColumns] = useState<TeamColumn[]>(state.effective.columns);
  useEffect(() => setColumns(state.effective.columns), [state.effective.columns]);
  const labels = new Map(state.availableColumns.map((column) => [column.key, column.label]));
  const hidden = state.availableColumns.filter((column) => !columns.includes(column.key));
  const move = (index: number, by: number) => {
    const next = [...columns];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + by, 0, item);
    setColumns(next);
  };
  return (
    <>
      <section className="team-section" aria-labelledby="shown-columns">
        <h2 id="shown-columns">Shown, in this order</h2>
        <ol className="settings-list">
          {columns.map((column, index) => (
            <li key={column}>
              <span>{labels.get(column) ?? column}</span>
              <span className="moves">
                <button type="button" className="small" aria-label={`Move ${labels.get(column)} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                  ↑
                </button>
                <button type="button" className="small" aria-label={`Move ${labels.get(column)} down`} disabled={index === columns.length - 1} onClick={() => move(index, 1)}>
                  ↓
                </button>
                <button type="button" className="small" aria-label={`Hide ${labels.get(column)}`} disabled={columns.length === 1} onClick={() => setColumns(columns.filter((c) => c !== column))}>
                  Hide
                </button>
              </span>
            </li>
          ))}
        </ol>
      </section>
      {hidden.length > 0 && (
        <section className="team-section" aria-labelledby="hidden-columns">
          <h2 id="hidden-columns">Not shown</h2>
          <ul className="settings-list">
            {hidden.map((column) => (
              <li key={column.key}>
                <span>
                  {column.label}
                  {column.pay && <span className="team-muted"> · pay</span>}
                </span>
                <button type="button" className="small" aria-label={`Show ${column.label}`} onClick={() => setColumns([...columns, column.key])}>
                  Show
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <SaveBar state={state} section="columns" body={{ columns }} />
    </>
  );
}

/** /team/settings/columns */
export function TeamColumnsSettingsScreen() {
  return <SettingsFrame title="Columns">{(state) => <ColumnsEditor state={state} />}</SettingsFrame>;
}

const COMP_TYPES: { id: Schemas['TeamCompType']; label: string }[] = [
  { id: 'base_salary', label: 'Base salary' },
  { id: 'bonus_target', label: 'Bonus target' },
  { id: 'variable_pay', label: 'Variable pay' },
  { id: 'commission', label: 'Commission' },
  { id: 'benefits', label: 'Benefits' },
];

function Radios<T extends string>({ legend, name, options, value, onChange }: { legend: string; name: string; options: { id: T; label: string }[]; value: T; onChange: (value: T) => void }) {
  return (
    <fieldset className="radios">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.id} className="check">
          <input type="radio" name={name} value={option.id} checked={value === option.id} onChange={() => onChange(option.id)} />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

function CompTimelineEditor({ state }: { state: SettingsState }) {
  const [value, setValue] = useState(state.effective.compTimeline);
  useEffect(() => setValue(state.effective.compTimeline), [state.effective.compTimeline]);
  const toggle = (type: Schemas['TeamCompType']) =>
    setValue({ ...value, types: value.types.includes(type) ? value.types.filter((t) => t !== type) : [...value.types, type] });
  const submit = (event: FormEvent) => event.preventDefault();
  const compTypes = useCompTypes();
  return (
    <form onSubmit={submit} className="team-section">
      <fieldset className="radios">
        <legend>Show these kinds of pay</legend>
        {COMP_TYPES.filter((type) => compTypes.enabled(type.id)).map((type) => (
          <label key={type.id} className="check">
            <input type="checkbox" checked={value.types.includes(type.id)} disabled={value.types.length === 1 && value.types.includes(type.id)} onChange={() => toggle(type.id)} />
            {compTypes.label(type.id, type.label)}
          </label>
        ))}
        <label className="check">
          <input type="checkbox" checked={value.showEquityGrants} onChange={() => setValue({ ...value, showEquityGrants: !value.showEquityGrants })} />
          Equity grants
        </label>
      </fieldset>
      <Radios
        legend="Order"
        name="order"
        value={value.order}
        onChange={(order) => setValue({ ...value, order })}
        options={[
          { id: 'newest_first', label: 'Newest first' },
          { id: 'oldest_first', label: 'Oldest first' },
        ]}
      />
      <SaveBar state={state} section="compTimeline" body={{ compTimeline: value }} />
    </form>
  );
}

/** /team/settings/comp-timeline */
export function TeamCompTimelineSettingsScreen() {
  return <SettingsFrame title="Comp timeline">{(state) => <CompTimelineEditor state={state} />}</SettingsFrame>;
}

function EquityDetailsEditor({ state }: { state: SettingsState }) {
  const [value, setValue] = useState(state.effective.equityDetails);
  useEffect(() => setValue(state.effective.equityDetails), [state.effective.equityDetails]);
  return (
    <form onSubmit={(event) => event.preventDefault()} className="team-section">
      <Radios legend="Measure" name="measure" value={value.measure} onChange={(measure) => setValue({ ...value, measure })} options={[
          { id: 'value', label: 'Value' },
          { id: 'shares', label: 'Shares' },
        ]} />
      <Radios
        legend="Break down"
        name="breakdown"
        value={value.breakdown}
        onChange={(breakdown) => setValue({ ...value, breakdown })}
        options={[
          { id: 'total', label: 'All grants together' },
          { id: 'grant', label: 'Each grant' },
        ]}
      />
      <Radios
        legend="Show"
        name="series"
        value={value.series}
        onChange={(series) => setValue({ ...value, series })}
        options={[
          { id: 'vested_and_unvested', label: 'Vested and unvested' },
          { id: 'vested', label: 'Vested only' },
          { id: 'unvested', label: 'Unvested only' },
        ]}
      />
      <SaveBar state={state} section="equityDetails" body={{ equityDetails: value }} />
    </form>
  );
}

/** /team/settings/equity-details */
export function TeamEquityDetailsSettingsScreen() {
  return <SettingsFrame title="Equity details">{(state) => <EquityDetailsEditor state={state} />}</SettingsFrame>;
}
