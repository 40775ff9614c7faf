import { type FormEvent, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { useMutation, useVersionedSave } from '../../api/queries';
import { EmployeeSearch, type PickedEmployee } from '../../ui/EmployeeSearch';
import { FormProblem } from '../../ui/FormProblem';
import { useToasts } from '../../ui/Toasts';
import { useBenchmarkingCatalog } from '../benchmarking/data';
import { type Employee, type Schemas, refreshPeople, today, words } from './common';

type Update = Schemas['EmployeeUpdate'];

export interface Choice {
  value: string;
  label: string;
}

/** The lists the selects offer (the market catalog's families, levels and places; the company's jobs). */
export interface Choices {
  families: Choice[];
  levels: Choice[];
  locations: Choice[];
  jobs: (Choice & { jobFamilyId: string; levelId: string })[];
}

/** The texts of the form by field key. */
type Texts = Record<string, string>;

/**
 * One input of the employee editor: how it reads the record, how it shows, and what a change of it
 * sends. A new people field is one more entry in `EDITOR_FIELDS` (and its name in `FIELD_NAMES`).
 */
export interface EditorField {
  key: string;
  label: string;
  kind: 'text' | 'date' | 'select' | 'number';
  group: 'Job' | 'Place and manager' | 'Employment';
  read: (employee: Employee) => string;
  /** What the change sends, given this field's text and the whole form's ('' clears a field). */
  write: (text: string, texts: Texts) => Partial<Update>;
  options?: (choices: Choices) => Choice[];
  /** Shown only for some records (the end date only once someone has left). */
  when?: (employee: Employee) => boolean;
  /** Picking a value fills other fields too (a company job brings its family and level). */
  fills?: (text: string, choices: Choices) => Texts;
  hint?: string;
}

const orNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());
const leaveOf = (texts: Texts): Update['leave'] =>
  texts['leave.startDate'] ? { startDate: texts['leave.startDate'] ?? '', endDate: orNull(texts['leave.endDate'] ?? '') } : null;
const EMPLOYMENT_TYPES: Schemas['EmploymentType'][] = ['full_time', 'part_time', 'contractor', 'intern'];

export const EDITOR_FIELDS: EditorField[] = [
  {
    key: 'companyJobId',
    label: 'Company job',
    kind: 'select',
    group: 'Job',
    read: (e) => e.companyJobId ?? '',
    write: (text) => ({ companyJobId: orNull(text) }),
    options: (c) => c.jobs,
    fills: (text, c): Texts => {
      const job = c.jobs.find((entry) => entry.value === text);
      return job ? { jobFamilyId: job.jobFamilyId, levelId: job.levelId } : {};
    },
  },
  { key: 'title', label: 'Title', kind: 'text', group: 'Job', read: (e) => e.title, write: (text) => ({ title: text.trim() }) },
  { key: 'jobFamilyId', label: 'Job family', kind: 'select', group: 'Job', read: (e) => e.jobFamilyId ?? '', write: (text) => ({ jobFamilyId: orNull(text) }), options: (c) => c.families },
  {
    key: 'levelId',
    label: 'Level',
    kind: 'select',
    group: 'Job',
    read: (e) => e.levelId ?? '',
    write: (text) => ({ levelId: orNull(text) }),
    options: (c) => c.levels,
    hint: 'The track (individual contributor, manager, executive) follows the level.',
  },
  { key: 'department', label: 'Department', kind: 'text', group: 'Job', read: (e) => e.department ?? '', write: (text) => ({ department: orNull(text) }) },
  { key: 'locationId', label: 'Location', kind: 'select', group: 'Place and manager', read: (e) => e.locationId ?? '', write: (text) => ({ locationId: orNull(text) }), options: (c) => c.locations },
  {
    key: 'employmentType',
    label: 'Employment type',
    kind: 'select',
    group: 'Employment',
    read: (e) => e.employmentType,
    write: (text) => ({ employmentType: text as Schemas['EmploymentType'] }),
    options: () => EMPLOYMENT_TYPES.map((type) => ({ value: type, label: words(type) })),
  },
  { key: 'startDate', label: 'Start date', kind: 'date', group: 'Employment', read: (e) => e.startDate ?? '', write: (text) => ({ startDate: orNull(text) }) },
  {
    key: 'terminationDate',
    label: 'End date',
    kind: 'date',
    group: 'Employment',
    read: (e) => e.terminationDate ?? '',
    write: (text) => (text ? { terminationDate: text } : {}),
    when: (e) => e.status === 'terminated',
  },
  { key: 'legalEntity', label: 'Legal entity', kind: 'text', group: 'Employment', read: (e) => e.legalEntity ?? '', write: (text) => ({ legalEntity: orNull(text) }), hint: 'The employer of the pay gap reports.' },
  {
    key: 'fte',
    label: 'FTE',
    kind: 'number',
    group: 'Employment',
    read: (e) => String(e.fte),
    write: (text) => (text.trim() === '' ? {} : { fte: Number(text) }),
    hint: 'More than 0, at most 1 (0.8 for four days a week).',
  },
  {
    key: 'weeklyHours',
    label: 'Contracted hours a week',
    kind: 'number',
    group: 'Employment',
    read: (e) => (e.weeklyHours === null ? '' : String(e.weeklyHours)),
    write: (text) => ({ weeklyHours: text.trim() === '' ? null : Number(text) }),
    hint: 'Empty: FTE × the full-time hours.',
  },
  { key: 'leave.startDate', label: 'Leave from', kind: 'date', group: 'Employment', read: (e) => e.leave?.startDate ?? '', write: (_text, texts) => ({ leave: leaveOf(texts) }), hint: 'Empty: not on leave.' },
  { key: 'leave.endDate', label: 'Leave until', kind: 'date', group: 'Employment', read: (e) => e.leave?.endDate ?? '', write: (_text, texts) => ({ leave: leaveOf(texts) }), hint: 'Empty: open-ended.' },
];

/** The form's words for the fields a refusal names. */
export const FIELD_NAMES: Record<string, string> = {
  companyJobId: 'Company job',
  jobFamilyId: 'Job family',
  levelId: 'Level',
  managerId: 'Manager',
  locationId: 'Location',
  startDate: 'Start date',
  terminationDate: 'End date',
  employmentType: 'Employment type',
  legalEntity: 'Legal entity',
  fte: 'FTE',
  weeklyHours: 'Contracted hours a week',
  leave: 'Leave',
  endDate: 'until',
  reassignReportsTo: 'Reports move to',
};

const GROUPS: EditorField['group'][] = ['Job', 'Place and manager', 'Employment'];

function useChoices(): Choices {
  const { filters, catalog } = useBenchmarkingCatalog();
  const locations = useQuery('/api/benchmarking/data-composition/locations');
  const jobs = useQuery('/api/bands/jobs');
  return {
    families: (catalog ?? []).map((family) => ({ value: family.upstreamId, label: family.displayString })),
    levels: (filters?.levelsWithIds.levelTracks ?? []).flatMap((track) => track.levels.map((level) => ({ value: level.id, label: level.displayString }))),
    locations: (locations.data?.data.locations ?? []).map((location) => ({ value: location.id, label: location.name })),
    jobs: (jobs.data?.data ?? []).map((job) => ({ value: job.id, label: `${job.title} — ${job.jobFamilyName}, ${job.levelDisplay}`, jobFamilyId: job.jobFamilyId, levelId: job.levelId })),
  };
}

/** The choices of a select, with the stored value kept even when the lists do not hold it. */
function optionsWith(choices: Choice[], value: string): Choice[] {
  return value && !choices.some((choice) => choice.value === value) ? [{ value, label: value }, ...choices] : choices;
}

function ManagerField({ employee, picked, onPick }: { employee: Employee; picked: PickedEmployee | null | undefined; onPick: (manager: PickedEmployee | null | undefined) => void }) {
  const current = useQuery('/api/employees/{employeeId}', employee.managerId ? { params: { path: { employeeId: employee.managerId } } } : null);
  const currentName = current.data ? `${current.data.data.firstName} ${current.data.data.lastName}` : employee.managerId ? 'Someone outside your view' : 'Nobody';
  const shown = picked === undefined ? currentName : picked === null ? 'Nobody' : picked.name;
  return (
    <div className="people-manager">
      <p className="people-manager-now">
        Manager: <strong>{shown}</strong>
        {picked !== undefined && (
          <button type="button" className="small" onClick={() => onPick(undefined)}>
            Undo
          </button>
        )}
      </p>
      <EmployeeSearch label="Change the manager" activeOnly selected={picked?.id ?? employee.managerId} onPick={(manager) => onPick(manager)} />
    </div>
  );
}

/**
 * The employee's record as a form: job, place, manager, employment, leave and dates. Saving sends
 * only what changed, with the version read (If-Match); someone else's newer save is refused and
 * what the person typed stays, with the word to reload.
 */
export function EmployeeEditor({ employee: latest, editable, onReload, onSaved }: { employee: Employee; editable: boolean; onReload: () => void; onSaved: () => void }) {
  // The record as the person opened it: its version goes with the save, whatever arrived since.
  const [employee] = useState(latest);
  const choices = useChoices();
  const { add } = useToasts();
  const initial = (): Texts => Object.fromEntries(EDITOR_FIELDS.map((field) => [field.key, field.read(employee)]));
  const [texts, setTexts] = useState<Texts>(initial);
  // undefined: unchanged; null: no manager; else the one picked.
  const [manager, setManager] = useState<PickedEmployee | null | undefined>(undefined);
  const [problem, setProblem] = useState<{ message: string; conflict: boolean } | null>(null);
  const { save, busy } = useVersionedSave((ifMatch, body: Update) => api.PATCH('/api/employees/{employeeId}', { params: { path: { employeeId: employee.id }, header: { 'If-Match': ifMatch } }, body }));
  const fields = EDITOR_FIELDS.filter((field) => !field.when || field.when(employee));

  function set(field: EditorField, text: string) {
    setTexts((current) => ({ ...current, [field.key]: text, ...(field.fills?.(text, choices) ?? {}) }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const changed = fields.filter((field) => (texts[field.key] ?? '') !== field.read(employee));
    const body: Update = Object.assign({}, ...changed.map((field) => field.write(texts[field.key] ?? '', texts)), manager !== undefined ? { managerId: manager?.id ?? null } : {}) as Update;
    if (Object.keys(body).length === 0) return setProblem({ message: 'Nothing changed.', conflict: false });
    setProblem(null);
    const result = await save(employee.version, body);
    if (!result.ok) return setProblem({ message: result.message, conflict: result.conflict });
    add('success', `${employee.firstName} ${employee.lastName}'s record is saved.`);
    await refreshPeople();
    onSaved();
  }

  return (
    <form className="people-form" aria-label="Employee record" onSubmit={(event) => void submit(event)}>
      {GROUPS.map((group) => (
        <fieldset key={group} disabled={!editable || busy}>
          <legend>{group}</legend>
          <div className="people-grid">
            {group === 'Place and manager' && <ManagerField employee={employee} picked={manager} onPick={setManager} />}
            {fields
              .filter((field) => field.group === group)
              .map((field) => (
                <label key={field.key}>
                  {field.label}
                  {field.kind === 'select' ? (
                    <select value={texts[field.key] ?? ''} onChange={(event) => set(field, event.target.value)}>
                      <option value="">{field.key === 'employmentType' ? 'Choose' : 'None'}</option>
                      {optionsWith(field.options?.(choices) ?? [], texts[field.key] ?? '').map((choice) => (
                        <option key={choice.value} value={choice.value}>
                          {choice.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      type={field.kind}
                      value={texts[field.key] ?? ''}
                      maxLength={field.kind === 'text' ? 200 : undefined}
                      step={field.kind === 'number' ? 'any' : undefined}
                      onChange={(event) => set(field, event.target.value)}
                    />
                  )}
                  {field.hint && <span className="muted small-text">{field.hint}</span>}
                </label>
              ))}
          </div>
        </fieldset>
      ))}
      {latest.version !== employee.version && !problem && <p className="small-text">Someone changed this record since you opened it: reload it before saving.</p>}
      {problem && (
        <div className="people-problem">
          <FormProblem message={problem.message} />
          {problem.conflict && (
            <button type="button" onClick={onReload}>
              Reload the record
            </button>
          )}
        </div>
      )}
      {editable && (
        <div className="people-actions">
          <button type="submit" className="primary" disabled={busy}>
            Save the record
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              setTexts(initial());
              setManager(undefined);
              setProblem(null);
            }}
          >
            Discard changes
          </button>
        </div>
      )}
    </form>
  );
}

/** Ends an active employment on a date; the employee's reports move to the manager picked. */
export function EndEmployment({ employee }: { employee: Employee }) {
  const [date, setDate] = useState(today());
  const [to, setTo] = useState<PickedEmployee | null>(null);
  const [open, setOpen] = useState(false);
  const { add } = useToasts();
  const { run, busy, problem } = useMutation({ failure: 'problem', fieldNames: FIELD_NAMES });
  if (employee.status !== 'active') return null;
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        End the employment…
      </button>
    );
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = await run(() =>
      api.POST('/api/employees/{employeeId}/terminate', {
        params: { path: { employeeId: employee.id }, header: { 'If-Match': `"${employee.version}"` } },
        body: { terminationDate: date, ...(to ? { reassignReportsTo: to.id } : {}) },
      }),
    );
    if (!result.ok) return;
    add('success', `${employee.firstName} ${employee.lastName}'s last day is ${date}.`);
    setOpen(false);
    await refreshPeople();
  }
  return (
    <form className="people-form people-end" aria-label="End the employment" onSubmit={(event) => void submit(event)}>
      <label>
        Last day
        <input type="date" required value={date} onChange={(event) => setDate(event.target.value)} />
      </label>
      <EmployeeSearch label="Their reports move to (when they have any)" activeOnly selected={to?.id ?? null} onPick={setTo} />
      {to && <p className="small-text">Reports move to {to.name}.</p>}
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <div className="people-actions">
        <button type="submit" className="danger" disabled={busy}>
          End the employment
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Keep them
        </button>
      </div>
    </form>
  );
}
