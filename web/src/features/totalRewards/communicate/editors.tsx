import { Plus, Trash2 } from 'lucide-react';
import { type ChangeEvent, type FormEvent, Fragment, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '../../../api/client';
import { minorUnitOf } from '../../../ui/format';
import type { Schemas, SectionName } from '../model';
import { type EditorProps, type SettingsDraft, useSaveSettings } from './common';

// The communicate settings' forms. Each keeps what the person typed as a draft: the live preview
// shows it at once, and Save sends it with the version read (a conflict keeps the form as it is).

type Section = Schemas['CommunicateSection'];
type Benefit = Schemas['CommunicateBenefit'];
type UserGroup = Schemas['CommunicateUserGroup'];
type Article = Schemas['LearningArticle'];

const HEX = /^#[0-9a-fA-F]{6}$/;
const MAX_IMAGE_BYTES = 100_000;
const newItemId = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A form's value, the draft it makes (null while it is unchanged or cannot be sent) and its save.
 * The draft goes to the live preview as it changes, and away when the form closes.
 */
function useDraft<T>(initial: T, toDraft: (value: T) => SettingsDraft | null, { settings, onDraft }: Pick<EditorProps, 'settings' | 'onDraft'>) {
  const [value, setValue] = useState(initial);
  const changed = !same(value, initial);
  const draft = changed ? toDraft(value) : null;
  const text = JSON.stringify(draft);
  const report = useRef(onDraft);
  report.current = onDraft;
  useEffect(() => report.current(text === 'null' ? null : (JSON.parse(text) as SettingsDraft)), [text]);
  useEffect(() => () => report.current(null), []);
  const { saveDraft, busy } = useSaveSettings();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft) await saveDraft(settings.version, draft);
  }
  return { value, setValue, changed, draft, submit, busy, reset: () => setValue(initial) };
}

function SaveBar({ editable, changed, ready, busy, reset }: { editable: boolean; changed: boolean; ready: boolean; busy: boolean; reset: () => void }) {
  if (!editable) return null;
  return (
    <div className="tr-save-bar">
      <button type="submit" className="primary" disabled={!changed || !ready || busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
      <button type="button" disabled={!changed || busy} onClick={reset}>
        Discard changes
      </button>
      <span className="muted small-text" role="status">
        {changed ? (ready ? 'Not saved yet: the preview shows your changes.' : 'Fix the fields marked above to save.') : 'Saved.'}
      </span>
    </div>
  );
}

/** On/off, title and text of one statement section. */
function SectionFields({ value, onChange, disabled }: { value: Section; onChange: (section: Section) => void; disabled: boolean }) {
  const id = useId();
  return (
    <fieldset className="tr-fields" disabled={disabled}>
      <legend>The section</legend>
      <label className="check">
        <input type="checkbox" checked={value.enabled} onChange={(event) => onChange({ ...value, enabled: event.target.checked })} />
        Show this section to employees
      </label>
      <label htmlFor={`${id}-title`}>Title</label>
      <input id={`${id}-title`} value={value.title} maxLength={120} required onChange={(event) => onChange({ ...value, title: event.target.value })} />
      <label htmlFor={`${id}-text`}>Text above the figures</label>
      <textarea id={`${id}-text`} value={value.text} rows={4} maxLength={10000} onChange={(event) => onChange({ ...value, text: event.target.value })} />
      <p className="muted small-text">Plain text; a blank line starts a new paragraph. Switched off, the section is absent from every statement and from the PDF.</p>
    </fieldset>
  );
}

const validSection = (section: Section) => section.title.trim().length > 0;

export function SectionEditor({ section, settings, editable, onDraft }: EditorProps & { section: SectionName }) {
  const form = useDraft(settings.sections[section], (value) => (validSection(value) ? { sections: { [section]: value } } : null), { settings, onDraft });
  return (
    <form className="tr-form" aria-label="Section settings" onSubmit={(event) => void form.submit(event)}>
      <SectionFields value={form.value} onChange={form.setValue} disabled={!editable} />
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}

// ── appearance ────────────────────────────────────────────────────────────────────────────

const IMAGE_TYPES = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' } as const;
type ImageType = keyof typeof IMAGE_TYPES;

function ImageField({
  label,
  value,
  onChange,
  disabled,
  problem,
  onProblem,
  types = ['image/png', 'image/jpeg', 'image/webp'],
  hint = 'It is stored with the settings, so statements show it offline too.',
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  disabled: boolean;
  problem: string | null;
  onProblem: (problem: string | null) => void;
  types?: ImageType[];
  hint?: string;
}) {
  const id = useId();
  const names = types.map((type) => IMAGE_TYPES[type]);
  const named = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
  function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!(types as string[]).includes(file.type)) return onProblem(`${file.name} is not a ${named} image.`);
    if (file.size > MAX_IMAGE_BYTES) return onProblem(`${file.name} is ${Math.ceil(file.size / 1000)} KB; an image may be at most ${MAX_IMAGE_BYTES / 1000} KB.`);
    const reader = new FileReader();
    reader.onload = () => {
      onProblem(null);
      onChange(String(reader.result));
    };
    reader.readAsDataURL(file);
  }
  return (
    <div className="tr-image-field">
      <label htmlFor={id}>{label}</label>
      {value && <img src={value} alt={`${label}, as uploaded`} className="tr-image-preview" />}
      <input id={id} type="file" accept={types.join(',')} disabled={disabled} onChange={pick} aria-describedby={`${id}-hint`} />
      <p id={`${id}-hint`} className="muted small-text">
        {named}, at most 100 KB. {hint}
      </p>
      {problem && (
        <p role="alert" className="danger-text">
          {problem}
        </p>
      )}
      {value && !disabled && (
        <button type="button" className="small" onClick={() => onChange(null)}>
          Remove
        </button>
      )}
    </div>
  );
}

function ColourField({ label, value, onChange, disabled }: { label: string; value: string; onChange: (value: string) => void; disabled: boolean }) {
  const id = useId();
  const valid = HEX.test(value);
  return (
    <div className="tr-colour-field">
      <label htmlFor={`${id}-hex`}>{label}</label>
      <div className="tr-colour-inputs">
        <input type="color" aria-label={`${label}: pick`} value={valid ? value.toLowerCase() : '#000000'} disabled={disabled} onChange={(event) => onChange(event.target.value)} />
        <input id={`${id}-hex`} value={value} maxLength={7} disabled={disabled} aria-invalid={!valid} aria-describedby={`${id}-problem`} onChange={(event) => onChange(event.target.value.trim())} />
      </div>
      {!valid && (
        <p id={`${id}-problem`} className="danger-text small-text">
          A colour is written #rrggbb, e.g. #1f2a44.
        </p>
      )}
    </div>
  );
}

/** The banner's placeholders, typed as they are (so shown as code), with what each stands for. */
const BANNER_VARIABLES: [string, string][] = [
  ['firstName', 'first name'],
  ['lastName', 'last name'],
  ['tenure', 'time at the company'],
  ['companyName', 'company name'],
  ['jobTitle', 'job title'],
];

export function AppearanceEditor({ settings, editable, onDraft }: EditorProps) {
  const [problems, setProblems] = useState<{ logo: string | null; banner: string | null }>({ logo: null, banner: null });
  const form = useDraft(settings.appearance, (value) => (HEX.test(value.brandColor) && HEX.test(value.bannerColor) && value.bannerText.trim() ? { appearance: value } : null), { settings, onDraft });
  const value = form.value;
  const set = (change: Partial<Schemas['CommunicateAppearance']>) => form.setValue({ ...value, ...change });
  const bannerId = useId();
  return (
    <form className="tr-form" aria-label="Appearance" onSubmit={(event) => void form.submit(event)}>
      <fieldset className="tr-fields" disabled={!editable}>
        <legend>Logo and colours</legend>
        <ImageField
          label="Logo"
          value={value.logo}
          onChange={(logo) => set({ logo })}
          disabled={!editable}
          problem={problems.logo}
          onProblem={(logo) => setProblems({ ...problems, logo })}
          types={['image/png', 'image/jpeg']}
          hint="Letters and statements draw it in their PDFs; a letter keeps the logo it was issued with."
        />
        <ColourField label="Brand colour" value={value.brandColor} onChange={(brandColor) => set({ brandColor })} disabled={!editable} />
        <ColourField label="Banner colour" value={value.bannerColor} onChange={(bannerColor) => set({ bannerColor })} disabled={!editable} />
      </fieldset>
      <fieldset className="tr-fields" disabled={!editable}>
        <legend>The banner</legend>
        <label htmlFor={bannerId}>Banner text</label>
        <input id={bannerId} value={value.bannerText} maxLength={300} aria-describedby={`${bannerId}-hint`} onChange={(event) => set({ bannerText: event.target.value })} />
        <p id={`${bannerId}-hint`} className="muted small-text">
          One line. Each employee’s own values go in for{' '}
          {BANNER_VARIABLES.map(([name, meaning], index) => (
            <Fragment key={name}>
              {index ? ', ' : ''}
              <code>{`{{${name}}}`}</code> ({meaning})
            </Fragment>
          ))}
          ; any other placeholder is refused when you save.
        </p>
        <ImageField label="Banner image" value={value.bannerImage} onChange={(bannerImage) => set({ bannerImage })} disabled={!editable} problem={problems.banner} onProblem={(banner) => setProblems({ ...problems, banner })} />
      </fieldset>
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}

// ── equity and the simulator ──────────────────────────────────────────────────────────────

export function EquityDisplayEditor({ settings, editable, onDraft }: EditorProps) {
  const initial = { section: settings.sections.equity, display: settings.equityDisplay };
  const form = useDraft(
    initial,
    (value) =>
      validSection(value.section) && (value.display.price !== 'custom' || (value.display.customPricePerShare !== null && value.display.customPricePerShare >= 0))
        ? { sections: { equity: value.section }, equityDisplay: value.display }
        : null,
    { settings, onDraft },
  );
  const display = form.value.display;
  const setDisplay = (change: Partial<Schemas['EquityDisplay']>) => form.setValue({ ...form.value, display: { ...display, ...change } });
  const priceId = useId();
  return (
    <form className="tr-form" aria-label="Equity settings" onSubmit={(event) => void form.submit(event)}>
      <SectionFields value={form.value.section} onChange={(section) => form.setValue({ ...form.value, section })} disabled={!editable} />
      <fieldset className="tr-fields" disabled={!editable}>
        <legend>Show equity as</legend>
        <label className="check">
          <input type="radio" name="show" checked={display.show === 'value'} onChange={() => setDisplay({ show: 'value' })} />
          Its value (shares × price, less exercise prices)
        </label>
        <label className="check">
          <input type="radio" name="show" checked={display.show === 'shares'} onChange={() => setDisplay({ show: 'shares' })} />
          Shares only (no value; equity is left out of the total)
        </label>
      </fieldset>
      <fieldset className="tr-fields" disabled={!editable || display.show === 'shares'}>
        <legend>Value it at</legend>
        <label className="check">
          <input type="radio" name="price" checked={display.price === 'company_share_price'} onChange={() => setDisplay({ price: 'company_share_price', customPricePerShare: null })} />
          The company’s share price (company settings)
        </label>
        <label className="check">
          <input type="radio" name="price" checked={display.price === 'custom'} onChange={() => setDisplay({ price: 'custom' })} />
          A price for statements
        </label>
        {display.price === 'custom' && (
          <>
            <label htmlFor={priceId}>Price per share, in the company currency</label>
            <input
              id={priceId}
              type="number"
              inputMode="decimal"
              min={0}
              max={1000000}
              step="0.000001"
              value={display.customPricePerShare ?? ''}
              onChange={(event) => setDisplay({ customPricePerShare: event.target.value === '' ? null : Number(event.target.value) })}
            />
          </>
        )}
      </fieldset>
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}

const MULTIPLE_CHOICES = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9, 10];

export function SimulatorEditor({ settings, editable, onDraft }: EditorProps) {
  const form = useDraft(settings.futureModeling, (value) => (value.multiples.length ? { futureModeling: value } : null), { settings, onDraft });
  const value = form.value;
  const toggle = (multiple: number, on: boolean) =>
    form.setValue({ ...value, multiples: on ? [...value.multiples, multiple].sort((a, b) => a - b) : value.multiples.filter((candidate) => candidate !== multiple) });
  return (
    <form className="tr-form" aria-label="Comp simulator settings" onSubmit={(event) => void form.submit(event)}>
      <fieldset className="tr-fields tr-multiples" disabled={!editable}>
        <legend>Valuation multiples on the slider</legend>
        <p className="muted small-text">Employees move between these, from today’s share price (1×) up. Choose at least one.</p>
        {MULTIPLE_CHOICES.map((multiple) => (
          <label key={multiple} className="check">
            <input type="checkbox" checked={value.multiples.includes(multiple)} onChange={(event) => toggle(multiple, event.target.checked)} />
            {multiple}×
          </label>
        ))}
      </fieldset>
      <fieldset className="tr-fields" disabled={!editable}>
        <legend>Custom price</legend>
        <label className="check">
          <input type="checkbox" checked={value.customPriceAllowed} onChange={(event) => form.setValue({ ...value, customPriceAllowed: event.target.checked })} />
          Employees may type a share price of their own
        </label>
      </fieldset>
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}

// ── benefits and user groups ──────────────────────────────────────────────────────────────

function ItemCard({ title, onRemove, removeLabel, disabled, children }: { title: string; onRemove: () => void; removeLabel: string; disabled: boolean; children: ReactNode }) {
  return (
    <li className="tr-item">
      <div className="tr-item-head">
        <h3>{title}</h3>
        {!disabled && (
          <button type="button" className="small" onClick={onRemove} aria-label={removeLabel}>
            <Trash2 size={16} aria-hidden="true" /> Remove
          </button>
        )}
      </div>
      {children}
    </li>
  );
}

/** Money as a person types it: major units with the currency's decimals. */
const majorText = (money: Schemas['Money'] | null): string => (money ? String(money.amount / 10 ** minorUnitOf(money.currency)) : '');

export function BenefitsEditor({ settings, editable, onDraft }: EditorProps) {
  const currencies = useQuery('/api/currencies');
  const form = useDraft(settings.benefits, (value) => (value.every((benefit) => benefit.name.trim()) ? { benefits: value } : null), { settings, onDraft });
  const benefits = form.value;
  const update = (index: number, change: Partial<Benefit>) => form.setValue(benefits.map((benefit, at) => (at === index ? { ...benefit, ...change } : benefit)));
  const codes = currencies.data?.data.map((currency) => currency.code) ?? [];
  return (
    <form className="tr-form" aria-label="Benefits" onSubmit={(event) => void form.submit(event)}>
      {settings.userGroups.length === 0 && <p className="muted">No user groups yet: every benefit goes to everyone. Make groups under User groups to give a benefit to some people only.</p>}
      <ul className="tr-items">
        {benefits.map((benefit, index) => (
          <ItemCard key={benefit.id} title={benefit.name || 'New benefit'} removeLabel={`Remove ${benefit.name || 'this benefit'}`} disabled={!editable} onRemove={() => form.setValue(benefits.filter((_, at) => at !== index))}>
            <fieldset className="tr-fields" disabled={!editable}>
              <legend className="visually-hidden">{benefit.name || 'New benefit'}</legend>
              <label>
                Name
                <input value={benefit.name} maxLength={120} required onChange={(event) => update(index, { name: event.target.value })} />
              </label>
              <label>
                Description
                <textarea value={benefit.description} rows={2} maxLength={2000} onChange={(event) => update(index, { description: event.target.value })} />
              </label>
              <div className="tr-money-field">
                <label>
                  Worth a year
                  <input
                    type="number"
                    inputMode="decimal"
                    min={0}
                    step="any"
                    value={majorText(benefit.annualValue)}
                    placeholder="No figure"
                    onChange={(event) => {
                      const currency = benefit.annualValue?.currency ?? settings.benefits[0]?.annualValue?.currency ?? 'USD';
                      update(index, { annualValue: event.target.value === '' ? null : { amount: Math.round(Number(event.target.value) * 10 ** minorUnitOf(currency)), currency } });
                    }}
                  />
                </label>
                <label>
                  Currency
                  <select
                    value={benefit.annualValue?.currency ?? 'USD'}
                    disabled={!benefit.annualValue}
                    onChange={(event) => benefit.annualValue && update(index, { annualValue: { amount: Math.round((benefit.annualValue.amount / 10 ** minorUnitOf(benefit.annualValue.currency)) * 10 ** minorUnitOf(event.target.value)), currency: event.target.value } })}
                  >
                    {(codes.length ? codes : [benefit.annualValue?.currency ?? 'USD']).map((code) => (
                      <option key={code}>{code}</option>
                    ))}
                  </select>
                </label>
              </div>
              {settings.userGroups.length > 0 && (
                <fieldset className="tr-groups">
                  <legend>Who receives it (none ticked: everyone)</legend>
                  {settings.userGroups.map((group) => (
                    <label key={group.id} className="check">
                      <input
                        type="checkbox"
                        checked={benefit.userGroupIds.includes(group.id)}
                        onChange={(event) => update(index, { userGroupIds: event.target.checked ? [...benefit.userGroupIds, group.id] : benefit.userGroupIds.filter((id) => id !== group.id) })}
                      />
                      {group.name}
                    </label>
                  ))}
                </fieldset>
              )}
            </fieldset>
          </ItemCard>
        ))}
      </ul>
      {editable && (
        <button type="button" onClick={() => form.setValue([...benefits, { id: newItemId('benefit'), name: '', description: '', annualValue: null, userGroupIds: [] }])}>
          <Plus size={16} aria-hidden="true" /> Add a benefit
        </button>
      )}
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}

const listOf = (text: string) =>
  [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
const EMPLOYMENT_TYPES: { value: Schemas['CommunicateUserGroupRules']['employmentTypes'][number]; label: string }[] = [
  { value: 'full_time', label: 'Full time' },
  { value: 'part_time', label: 'Part time' },
  { value: 'contractor', label: 'Contractor' },
  { value: 'intern', label: 'Intern' },
];

/** Countries and departments are typed as lists ("DE, AT"); kept as typed until saved. */
interface GroupForm {
  group: UserGroup;
  countries: string;
  departments: string;
}

const toForm = (group: UserGroup): GroupForm => ({ group, countries: group.rules.countries.join(', '), departments: group.rules.departments.join(', ') });
const fromForm = (form: GroupForm): UserGroup => ({
  ...form.group,
  rules: { ...form.group.rules, countries: listOf(form.countries.toUpperCase()), departments: listOf(form.departments) },
});

export function UserGroupsEditor({ settings, editable, onDraft }: EditorProps) {
  const form = useDraft(
    settings.userGroups.map(toForm),
    (value) => {
      const groups = value.map(fromForm);
      const valid = groups.every((group) => group.name.trim() && group.rules.countries.every((code) => /^[A-Z]{2}$/.test(code)));
      return valid ? { userGroups: groups } : null;
    },
    { settings, onDraft },
  );
  const groups = form.value;
  const update = (index: number, change: Partial<GroupForm>) => form.setValue(groups.map((group, at) => (at === index ? { ...group, ...change } : group)));
  const usedBy = (id: string) => settings.benefits.filter((benefit) => benefit.userGroupIds.includes(id)).map((benefit) => benefit.name);
  return (
    <form className="tr-form" aria-label="User groups" onSubmit={(event) => void form.submit(event)}>
      <p className="muted">An employee is in a group when they match every rule that has values (any of the values of a rule). Benefits name the groups that receive them.</p>
      <ul className="tr-items">
        {groups.map((entry, index) => {
          const used = usedBy(entry.group.id);
          const badCountries = listOf(entry.countries.toUpperCase()).filter((code) => !/^[A-Z]{2}$/.test(code));
          return (
            <ItemCard
              key={entry.group.id}
              title={entry.group.name || 'New group'}
              removeLabel={`Remove ${entry.group.name || 'this group'}`}
              disabled={!editable || used.length > 0}
              onRemove={() => form.setValue(groups.filter((_, at) => at !== index))}
            >
              <fieldset className="tr-fields" disabled={!editable}>
                <legend className="visually-hidden">{entry.group.name || 'New group'}</legend>
                <label>
                  Name
                  <input value={entry.group.name} maxLength={120} required onChange={(event) => update(index, { group: { ...entry.group, name: event.target.value } })} />
                </label>
                <label>
                  Countries (ISO codes, comma-separated; empty: any)
                  <input value={entry.countries} placeholder="e.g. DE, AT" aria-invalid={badCountries.length > 0} onChange={(event) => update(index, { countries: event.target.value })} />
                </label>
                {badCountries.length > 0 && <p className="danger-text small-text">{badCountries.join(', ')}: a country is two letters, e.g. DE.</p>}
                <label>
                  Departments (comma-separated; empty: any)
                  <input value={entry.departments} placeholder="e.g. Sales, Support" onChange={(event) => update(index, { departments: event.target.value })} />
                </label>
                <fieldset className="tr-groups">
                  <legend>Employment types (none ticked: any)</legend>
                  {EMPLOYMENT_TYPES.map((type) => (
                    <label key={type.value} className="check">
                      <input
                        type="checkbox"
                        checked={entry.group.rules.employmentTypes.includes(type.value)}
                        onChange={(event) =>
                          update(index, {
                            group: {
                              ...entry.group,
                              rules: { ...entry.group.rules, employmentTypes: event.target.checked ? [...entry.group.rules.employmentTypes, type.value] : entry.group.rules.employmentTypes.filter((value) => value !== type.value) },
                            },
                          })
                        }
                      />
                      {type.label}
                    </label>
                  ))}
                </fieldset>
              </fieldset>
              {used.length > 0 && <p className="muted small-text">Receives {used.join(', ')}: take it off those benefits to remove the group.</p>}
            </ItemCard>
          );
        })}
      </ul>
      {editable && (
        <button type="button" onClick={() => form.setValue([...groups, toForm({ id: newItemId('group'), name: '', rules: { countries: [], departments: [], employmentTypes: [] } })])}>
          <Plus size={16} aria-hidden="true" /> Add a user group
        </button>
      )}
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}

// ── the learning hub ──────────────────────────────────────────────────────────────────────

const TOPICS: { value: Article['topic']; label: string }[] = [
  { value: 'options', label: 'Stock options' },
  { value: 'rsus', label: 'RSUs' },
  { value: 'cliff', label: 'The cliff' },
  { value: 'vesting', label: 'Vesting' },
  { value: 'liquidity', label: 'Liquidity' },
  { value: 'other', label: 'Other' },
];

export function ArticlesEditor({ settings, editable, onDraft }: EditorProps) {
  const initial = { section: settings.sections.learningHub, articles: settings.learningHub.articles };
  const form = useDraft(
    initial,
    (value) => (validSection(value.section) && value.articles.every((article) => article.title.trim() && article.body.trim()) ? { sections: { learningHub: value.section }, learningHub: { articles: value.articles } } : null),
    { settings, onDraft },
  );
  const articles = form.value.articles;
  const setArticles = (next: Article[]) => form.setValue({ ...form.value, articles: next });
  const update = (index: number, change: Partial<Article>) => setArticles(articles.map((article, at) => (at === index ? { ...article, ...change } : article)));
  const move = (index: number, by: number) => {
    const next = [...articles];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + by, 0, item);
    setArticles(next);
  };
  return (
    <form className="tr-form" aria-label="Learning hub" onSubmit={(event) => void form.submit(event)}>
      <SectionFields value={form.value.section} onChange={(section) => form.setValue({ ...form.value, section })} disabled={!editable} />
      <h2 className="tr-form-heading">Articles</h2>
      <ul className="tr-items">
        {articles.map((article, index) => (
          <ItemCard key={article.id} title={article.title || 'New article'} removeLabel={`Remove ${article.title || 'this article'}`} disabled={!editable} onRemove={() => setArticles(articles.filter((_, at) => at !== index))}>
            <fieldset className="tr-fields" disabled={!editable}>
              <legend className="visually-hidden">{article.title || 'New article'}</legend>
              <label>
                Topic
                <select value={article.topic} onChange={(event) => update(index, { topic: event.target.value as Article['topic'] })}>
                  {TOPICS.map((topic) => (
                    <option key={topic.value} value={topic.value}>
                      {topic.label}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Title
                <input value={article.title} maxLength={200} required onChange={(event) => update(index, { title: event.target.value })} />
              </label>
              <label>
                Summary
                <input value={article.summary} maxLength={500} onChange={(event) => update(index, { summary: event.target.value })} />
              </label>
              <label>
                Text
                <textarea value={article.body} rows={6} maxLength={20000} required onChange={(event) => update(index, { body: event.target.value })} />
              </label>
              <div className="tr-moves">
                <button type="button" className="small" disabled={index === 0} onClick={() => move(index, -1)} aria-label={`Move ${article.title || 'this article'} up`}>
                  ↑ Up
                </button>
                <button type="button" className="small" disabled={index === articles.length - 1} onClick={() => move(index, 1)} aria-label={`Move ${article.title || 'this article'} down`}>
                  ↓ Down
                </button>
              </div>
            </fieldset>
          </ItemCard>
        ))}
      </ul>
      {editable && (
        <button type="button" onClick={() => setArticles([...articles, { id: newItemId('article'), topic: 'other', title: '', summary: '', body: '' }])}>
          <Plus size={16} aria-hidden="true" /> Add an article
        </button>
      )}
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}
