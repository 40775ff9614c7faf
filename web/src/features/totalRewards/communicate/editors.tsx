import { type ChangeEvent, Fragment, useId, useState } from 'react';
import type { Schemas, SectionName } from '../model';
import type { EditorProps } from './common';
import { SaveBar, useDraft } from './draft';

// The communicate settings' forms. Each keeps what the person typed as a draft: the live preview
// shows it at once, and Save sends it with the version read (a conflict keeps the form as it is).

type Section = Schemas['CommunicateSection'];

const HEX = /^#[0-9a-fA-F]{6}$/;
const MAX_IMAGE_BYTES = 100_000;
export function SectionFields({ value, onChange, disabled }: { value: Section; onChange: (section: Section) => void; disabled: boolean }) {
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

export const validSection = (section: Section) => section.title.trim().length > 0;

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
